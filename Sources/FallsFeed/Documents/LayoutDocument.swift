import FallsBase
import FallsCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `falls diff` reads of a `falls.layout/1` document, written by `falls layout -f json`
/// (one document) or `-f jsonl` (one object a line): each item's frame, column, span and
/// enlargement, and the content's extent when the document gives it.
///
/// Read with the feed's own scanner, in one pass, as strictly as a feed is read: every value a
/// diff compares must be one falls could have written (``Rule``), or the document is refused
/// naming the line (JSON Lines) or the item (a document's `items`), the key and the value.
/// Keys it does not need are skipped, so that a document written with `--fields` reads too when
/// it holds what is compared. A key given twice counts last, as JavaScript, Python and jq read
/// it: an item's keys, the document's, and `items` too (the last array's items are the
/// document's; what was wrong in an earlier one is forgotten with it).
///
/// The pages of a mapped file are given back as they are read (``ReadPages``): what stays is
/// the items, 56 bytes each.
public struct LayoutDocument: Sendable {
  /// One item as the document gives it.
  public struct Item: Hashable, Sendable {
    public var index: Int
    public var frame: Rect
    public var column: Int?
    public var span: Int?
    public var isEnlarged: Bool?

    public init(
      index: Int, frame: Rect, column: Int? = nil, span: Int? = nil, isEnlarged: Bool? = nil
    ) {
      self.index = index
      self.frame = frame
      self.column = column
      self.span = span
      self.isEnlarged = isEnlarged
    }
  }

  /// The items of a document, in its order, each held in 56 bytes: the index, the frame, the
  /// column and the span as 32-bit numbers (-1 and 0 when the document leaves them out) and the
  /// enlargement as a byte (2 when left out).
  public struct Items: RandomAccessCollection, Sendable {
    @usableFromInline
    struct Stored: Sendable {
      @usableFromInline var index: Int
      @usableFromInline var frame: Rect
      @usableFromInline var column: Int32
      @usableFromInline var span: Int32
      @usableFromInline var enlarged: UInt8

      static let noColumn: Int32 = -1
      static let noSpan: Int32 = 0
      static let noEnlargement: UInt8 = 2

      @inlinable var item: Item {
        Item(
          index: index, frame: frame, column: column < 0 ? nil : Int(column),
          span: span == 0 ? nil : Int(span), isEnlarged: enlarged > 1 ? nil : enlarged == 1)
      }
    }

    @usableFromInline var stored: [Stored]

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { stored.count }

    @inlinable public subscript(position: Int) -> Item { stored[position].item }

    /// The index of the item at `position`, read without making the item.
    @inlinable public func index(at position: Int) -> Int { stored[position].index }
  }

  /// The items, in the document's order.
  public let items: Items
  /// The content's extent along the scroll axis when the document gives it (`json` does;
  /// `jsonl` does not): its `contentHeight`, or its `contentWidth` when it has one (a layout
  /// along `--axis horizontal`, whose `contentHeight` is the viewport's).
  public let contentHeight: Double?
  /// The items' positions in index order; `nil` when that is the document's order.
  @usableFromInline let order: [Int]?

  /// The position in ``items`` of the item that comes `rank`-th in index order (from 0).
  ///
  /// - Complexity: O(1).
  @inlinable
  public func position(inIndexOrder rank: Int) -> Int { order?[rank] ?? rank }

  /// The schema name a document must carry.
  public static let schema = "falls.layout/1"

  /// Where a value is: a line of JSON Lines (from 1), or an item of a document's `items` (its
  /// position, from 0).
  public enum Place: Hashable, Sendable, CustomStringConvertible {
    case line(Int)
    case item(Int)

    public var description: String {
      switch self {
      case .line(let line): "line \(line)"
      case .item(let position): "item \(position) of \"items\""
      }
    }
  }

  /// Why bytes are not a layout document, said for a person, naming where.
  public enum Failure: Error, Hashable, Sendable {
    /// The bytes are not JSON: the scanner's line, column and reason.
    case notJSON(String)
    /// The JSON is not a layout document: why, naming where.
    case notALayout(String)
    /// A value breaks its ``Rule``: where (`nil` for the document's own keys), the key, the
    /// value as the document writes it (JSON, shortened; `nil` when it is missing), and what it
    /// must be.
    case invalidValue(Place?, key: String, value: String?, expected: String)
    /// Two items have this index.
    case repeatedIndex(Int)
    /// The mapped file was cut short while it was read: the bytes read are not the file's.
    case changedWhileRead

    /// The reason in words: "line 3: "column" is 0.9; expected a whole number from 0 to 9999".
    public var reason: String {
      switch self {
      case .notJSON(let detail): "it is not JSON: \(detail)"
      case .notALayout(let why): why
      case .invalidValue(let place, let key, let value, let expected):
        (place.map { "\($0): " } ?? "") + "\"\(key)\" is "
          + (value.map { escapingControlCharacters($0) } ?? "missing") + "; expected \(expected)"
      case .repeatedIndex(let index):
        "two items have the index \(index); an index is one item's"
      case .changedWhileRead:
        "it changed (it was cut short) while it was read; read it again when it is complete"
      }
    }
  }

  /// The document `bytes` hold, `json` or `jsonl`, told apart by what they are.
  ///
  /// - Throws: ``Failure``: the first thing wrong, JSON's grammar first.
  /// - Complexity: O(*n*) for *n* bytes, and O(*k* log *k*) for *k* items out of index order.
  public static func read(_ bytes: FeedBytes) throws(Failure) -> LayoutDocument {
    let result = bytes.data.withUnsafeBytes { raw in
      Result { () throws(Failure) in
        var reader = Reader(
          bytes: raw.bindMemory(to: UInt8.self), releasingReadPages: bytes.isFileMapping)
        return try reader.document()
      }
    }
    // A file cut short under the mapping reads as zeros from where it ends: whatever was made
    // of them is not the file's.
    if let mapping = bytes.mapping, mapping.hasChanged { throw .changedWhileRead }
    return try result.get()
  }

  /// The value of a JSON number's bytes (the scanner has checked its grammar): a whole number
  /// of up to 15 digits directly, any other by the C library's `strtod` from a copy on the
  /// stack, no string made. A number too large for a Double is infinite.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
    if let whole = wholeDecimal(bytes) { return whole }
    guard bytes.count < 400 else {
      return parseDecimal(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
      for (position, byte) in bytes.enumerated() { buffer[position] = CChar(bitPattern: byte) }
      buffer[bytes.count] = 0
      return buffer.baseAddress.map { strtod($0, nil) } ?? .nan
    }
  }

  /// Reads a document in one pass.
  private struct Reader {
    var scanner: JSONScanner
    var pages: ReadPages
    var items: [Items.Stored] = []
    /// The last index appended, and whether the indices so far rise strictly.
    var lastIndex = -1
    var isOrdered = true
    /// The first failure of the document's current `items`, said only if it is the last.
    var itemsFailure: Failure?

    init(bytes: UnsafeBufferPointer<UInt8>, releasingReadPages: Bool) {
      scanner = JSONScanner(bytes: bytes)
      pages = ReadPages(of: bytes, from: 0, isReleasing: releasingReadPages)
    }

    /// Where an object is read: the first of the input (a document or a line), a later line of
    /// JSON Lines, or an item of a document's `items`.
    enum Context {
      case first, line, item
    }

    mutating func document() throws(Failure) -> LayoutDocument {
      do {
        scanner.skipWhitespace()
        // JSON Lines of no line: what `falls layout -f jsonl` writes of no items.
        if scanner.atEnd { return try finish(contentHeight: nil) }
        var start = scanner.position
        let first = try scanner.documentValue()
        guard case .object(let key) = first else {
          // An empty object is no layout either: neither a document nor an item's line.
          let what = if case .emptyObject = first { "an empty object" } else { first.kindName }
          throw Failure.notALayout(
            "it is \(what), not a layout's JSON object (a document with \"items\", or lines "
              + "of items)")
        }
        var members = Members()
        try read(from: key, into: &members, in: .first)
        if members.isDocument {
          // The grammar first: what follows the document must be nothing.
          try scanner.documentEnd()
          return try finishDocument(members)
        }
        // JSON Lines: the first object was an item; the others follow, one a line.
        try appendLine(members, startingAt: start)
        reserve(firstLength: scanner.position - start, from: start)
        while true {
          pages.read(upTo: scanner.position)
          scanner.skipWhitespace()
          if scanner.atEnd { break }
          start = scanner.position
          let token = try scanner.value()
          guard case .object(let key) = token else {
            throw Failure.notALayout(
              "\(Place.line(line(at: start))) is \(token.kindName), not an item object")
          }
          members = Members()
          try read(from: key, into: &members, in: .line)
          if members.isDocument {
            throw Failure.notALayout(
              "\(Place.line(line(at: start))) is a whole document among JSON Lines")
          }
          try appendLine(members, startingAt: start)
        }
        return try finish(contentHeight: nil)
      } catch let failure as JSONScanner.Failure {
        throw .notJSON(failure.message)
      } catch let failure as Failure {
        throw failure
      } catch {
        preconditionFailure("only the scanner and the rules throw: \(error)")
      }
    }

    /// Reads the members of an opened object, from its first key, into `members`; a document's
    /// `items` are read into ``items`` as they come.
    mutating func read(
      from first: JSONScanner.StringToken, into members: inout Members, in context: Context
    ) throws {
      var key = first
      while true {
        var name = Key(key, in: scanner)
        switch (name, context) {
        case (.schema, .item), (.items, .item), (.contentHeight, .item), (.contentWidth, .item),
          (.contentHeight, .line), (.contentWidth, .line):
          name = .other
        default: break
        }
        let token = try scanner.value()
        switch name {
        case .other:
          try scanner.skip(token)
        case .items:
          members.hasItems = true
          // Read in the first object only; a line that has them is refused whole.
          if context == .first { try readItems(token) } else { try scanner.skip(token) }
        default:
          members[name] = ItemRules.Field(token)
          try scanner.skip(token)
        }
        guard case .member(let next) = try scanner.next(in: .object) else { break }
        key = next
      }
    }

    /// Reads the value of a document's `items`: its items replace those of an earlier `items`
    /// (the last counts), and the first failure among them is kept, to be said if this one is
    /// the last; what follows it is only scanned.
    mutating func readItems(_ token: JSONScanner.Token) throws {
      items.removeAll(keepingCapacity: true)
      (lastIndex, isOrdered, itemsFailure) = (-1, true, nil)
      switch token {
      case .array: break
      case .emptyArray: return
      case .object, .emptyObject, .string, .number, .boolean, .null:
        itemsFailure = .notALayout("its \"items\" is \(token.kindName), not an array")
        return try scanner.skip(token)
      }
      var position = 0
      while true {
        scanner.skipWhitespace()
        let start = scanner.position
        let element = try scanner.value()
        if itemsFailure != nil {
          try scanner.skip(element)
        } else if case .object(let key) = element {
          var members = Members()
          try read(from: key, into: &members, in: .item)
          do throws(Failure) {
            if let item = try LayoutDocument.item(members, at: .item(position), in: scanner) {
              append(item)
            }
          } catch {
            itemsFailure = error
          }
        } else {
          itemsFailure = .notALayout(
            "\(Place.item(position)) is \(element.kindName), not an object")
          try scanner.skip(element)
        }
        if position == 0 { reserve(firstLength: scanner.position - start, from: start) }
        position += 1
        pages.read(upTo: scanner.position)
        guard case .element = try scanner.next(in: .array) else { break }
      }
    }

    /// Room for the items that the bytes from `start` hold at about the first's length, so
    /// that the array is not copied as it grows; at most 16 M items' (896 MiB) at once.
    mutating func reserve(firstLength: Int, from start: Int) {
      let count = FeedParser.estimatedCount(
        in: scanner.bytes.count - start, firstLength: firstLength)
      items.reserveCapacity(items.count + min(count, 1 << 24))
    }

    mutating func append(_ item: Items.Stored) {
      if item.index <= lastIndex { isOrdered = false }
      lastIndex = item.index
      items.append(item)
    }

    /// Appends the item of a line of JSON Lines that starts at `start`, or throws its failure.
    mutating func appendLine(_ members: Members, startingAt start: Int) throws(Failure) {
      // The line is counted only when something is wrong with it.
      if let item = try LayoutDocument.item(members, at: .line(line(at: start)), in: scanner) {
        append(item)
      }
    }

    /// The line of the byte at `offset`, from 1: counted only for a message.
    func line(at offset: Int) -> Int {
      UnsafeBufferPointer(rebasing: scanner.bytes[..<offset]).reduce(1) {
        $0 + ($1 == 0x0A ? 1 : 0)
      }
    }

    /// The document whose top-level members are `members`, its `items` read.
    mutating func finishDocument(_ members: Members) throws(Failure) -> LayoutDocument {
      let schema = LayoutDocument.schema
      switch members[.schema] {
      case .string(let text)? where scanner.text(of: text) == schema: break
      case .string(let text)?:
        throw .notALayout(
          "its schema is \"\(shownInMessage(scanner.text(of: text)))\", not \"\(schema)\"")
      case let value?:
        throw .notALayout(
          "its schema is \(shownInMessage(ItemRules.quoted(value, in: scanner))), not "
            + "\"\(schema)\"")
      case nil: throw .notALayout("it has no \"schema\": \"\(schema)\"")
      }
      guard members.hasItems else { throw .notALayout("it has no \"items\" array") }
      if let itemsFailure { throw itemsFailure }
      let (height, width) = (
        try checkedNumber(.contentHeight, members[.contentHeight], at: nil, in: scanner),
        try checkedNumber(.contentWidth, members[.contentWidth], at: nil, in: scanner)
      )
      return try finish(contentHeight: width ?? height)
    }

    /// The document of the items read: their index order worked out when it is not theirs,
    /// where an index given twice is found.
    mutating func finish(contentHeight: Double?) throws(Failure) -> LayoutDocument {
      var order: [Int]?
      if !isOrdered {
        let items = self.items
        var positions = Array(items.indices)
        positions.sort { (items[$0].index, $0) < (items[$1].index, $1) }
        for (a, b) in zip(positions, positions.dropFirst()) where items[a].index == items[b].index {
          throw .repeatedIndex(items[a].index)
        }
        order = positions
      }
      return LayoutDocument(
        items: Items(stored: items), contentHeight: contentHeight, order: order)
    }
  }
}
