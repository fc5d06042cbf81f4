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
/// enlargement, and the content height when the document gives it.
///
/// Read with the feed's own scanner, in one pass; keys it does not need are skipped, so that a
/// document written with `--fields` reads too when it holds what is compared.
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

  /// The items, in the document's order.
  public var items: [Item]
  /// The content's height (its width with `--axis horizontal`), when the document gives it
  /// (`json` does; `jsonl` does not).
  public var contentHeight: Double?

  /// Why bytes are not a layout document: said for a person, naming where.
  public struct Failure: Error, Hashable, Sendable {
    public var reason: String
  }

  /// The schema name a document must carry.
  public static let schema = "falls.layout/1"

  /// The document `bytes` hold, `json` or `jsonl`, told apart by what they are.
  public static func read(_ bytes: FeedBytes) throws(Failure) -> LayoutDocument {
    let result = bytes.data.withUnsafeBytes { raw in
      Result { () throws(Failure) in
        var reader = Reader(scanner: JSONScanner(bytes: raw.bindMemory(to: UInt8.self)))
        return try reader.document()
      }
    }
    return try result.get()
  }

  /// The value of a JSON number's bytes (the scanner has checked its grammar): a whole number
  /// of up to 15 digits directly, any other by the C library's `strtod` from a copy on the
  /// stack, no string made.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let whole = wholeDecimal(bytes) { return whole }
    guard bytes.count < 400 else {
      return parseDecimal(String(decoding: bytes, as: UTF8.self))
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
      for (position, byte) in bytes.enumerated() { buffer[position] = CChar(bitPattern: byte) }
      buffer[bytes.count] = 0
      return buffer.baseAddress.map { strtod($0, nil) }
    }
  }

  /// The value of `token` when it is a number (``number(_:)``), else `nil`.
  static func number(_ token: JSONScanner.Token, in scanner: JSONScanner) -> Double? {
    guard case .number(let text) = token else { return nil }
    return number(UnsafeBufferPointer(rebasing: scanner.bytes[text]))
  }

  private struct Reader {
    var scanner: JSONScanner

    mutating func document() throws(Failure) -> LayoutDocument {
      do {
        let first = try scanner.documentValue()
        guard case .object(let key) = first else {
          throw Failure(reason: "it is \(first.kindName), not a layout's JSON object")
        }
        var document = LayoutDocument(items: [], contentHeight: nil)
        let isDocument = try readObject(from: key, into: &document, line: 1)
        if isDocument {
          try scanner.documentEnd()
          return document
        }
        // JSON Lines: the first object was an item; the others follow, one a line.
        var line = 1
        while true {
          scanner.skipWhitespace()
          if scanner.atEnd { break }
          line += 1
          let token = try scanner.value()
          guard case .object(let key) = token else {
            throw Failure(reason: "line \(line) is \(token.kindName), not an item object")
          }
          if try readObject(from: key, into: &document, line: line) {
            throw Failure(reason: "line \(line) is a whole document among JSON Lines")
          }
        }
        return document
      } catch let failure as JSONScanner.Failure {
        throw Failure(reason: "it is not JSON: \(failure.message)")
      } catch let failure as Failure {
        throw failure
      } catch {
        throw Failure(reason: "\(error)")
      }
    }

    /// Reads an opened object: a whole document (true), whose items it appends, or one item
    /// of JSON Lines (false), which it appends; headers and footers are left out.
    mutating func readObject(
      from first: JSONScanner.StringToken, into document: inout LayoutDocument, line: Int
    )
      throws -> Bool
    {
      var key = first
      var fields = Fields()
      var schema: String?
      var sawItems = false
      while true {
        // Told apart by their bytes, as an item's keys are: no string is made for the keys of
        // every line of a million.
        let name = TopKey(key, in: scanner)
        switch name {
        case .schema:
          let token = try scanner.value()
          if case .string(let text) = token { schema = scanner.text(of: text) }
          try scanner.skip(token)
        case .items:
          sawItems = true
          let token = try scanner.value()
          guard case .array = token else {
            try scanner.skip(token)
            if case .emptyArray = token { break }
            throw Failure(reason: "its \"items\" is \(token.kindName), not an array")
          }
          var position = 0
          while true {
            let item = try scanner.value()
            guard case .object(let itemKey) = item else {
              throw Failure(
                reason: "item \(position) of \"items\" is \(item.kindName), not an object")
            }
            if let read = try readItem(from: itemKey, where: "item \(position) of \"items\"") {
              document.items.append(read)
            }
            position += 1
            guard case .element = try scanner.next(in: .array) else { break }
          }
        case .contentHeight, .contentWidth:
          let token = try scanner.value()
          let value = LayoutDocument.number(token, in: scanner)
          // The extent along the scroll axis: the height, or the width of rows.
          if name == .contentHeight || document.contentHeight == nil {
            document.contentHeight = value
          }
        case .other:
          let token = try scanner.value()
          fields.take(key, token, in: scanner)
          try scanner.skip(token)
        }
        guard case .member(let next) = try scanner.next(in: .object) else { break }
        key = next
      }
      if sawItems || schema != nil {
        guard schema == LayoutDocument.schema else {
          throw Failure(
            reason: schema.map {
              "its schema is \"\(shownInMessage($0))\", not \"\(LayoutDocument.schema)\""
            }
              ?? "it has no \"schema\": \"\(LayoutDocument.schema)\"")
        }
        guard sawItems else { throw Failure(reason: "it has no \"items\" array") }
        return true
      }
      if let item = try fields.item(where: "line \(line)") { document.items.append(item) }
      return false
    }

    /// The keys of a document's top level, and the others (an item's, on a line of its own).
    enum TopKey {
      case schema, items, contentHeight, contentWidth, other

      init(_ key: JSONScanner.StringToken, in scanner: JSONScanner) {
        if scanner.string(key, is: "schema") {
          self = .schema
        } else if scanner.string(key, is: "items") {
          self = .items
        } else if scanner.string(key, is: "contentHeight") {
          self = .contentHeight
        } else if scanner.string(key, is: "contentWidth") {
          self = .contentWidth
        } else {
          self = .other
        }
      }
    }

    /// One object of `items`: the item, or `nil` for a header or a footer.
    mutating func readItem(from first: JSONScanner.StringToken, where place: String) throws -> Item?
    {
      var key = first
      var fields = Fields()
      while true {
        let token = try scanner.value()
        fields.take(key, token, in: scanner)
        try scanner.skip(token)
        guard case .member(let next) = try scanner.next(in: .object) else { break }
        key = next
      }
      return try fields.item(where: place)
    }
  }

  /// The members of an item object that a diff compares, as they come.
  private struct Fields {
    /// Whether the object is an item (its kind `item`, or none given), not a header or a footer.
    var isItem = true
    var index: Double?
    var x: Double?, y: Double?, width: Double?, height: Double?
    var column: Double?, span: Double?
    var enlarged: Bool?

    /// Takes the member `key` whose value is `token`, if it is one a diff compares; the keys
    /// are told apart by their bytes, no string made.
    mutating func take(
      _ key: JSONScanner.StringToken, _ token: JSONScanner.Token, in scanner: JSONScanner
    ) {
      func value() -> Double? { LayoutDocument.number(token, in: scanner) }
      // A key with escapes is measured as its text; ``JSONScanner/string(_:is:)`` reads it so.
      switch key.isPlain ? key.contents.count : scanner.text(of: key).utf8.count {
      case 1 where scanner.string(key, is: "x"): x = value()
      case 1 where scanner.string(key, is: "y"): y = value()
      case 4 where scanner.string(key, is: "kind"):
        if case .string(let text) = token {
          isItem = text.isPlain && scanner.string(text, is: "item")
        }
      case 4 where scanner.string(key, is: "span"): span = value()
      case 5 where scanner.string(key, is: "index"): index = value()
      case 5 where scanner.string(key, is: "width"): width = value()
      case 6 where scanner.string(key, is: "height"): height = value()
      case 6 where scanner.string(key, is: "column"): column = value()
      case 8 where scanner.string(key, is: "enlarged"):
        if case .boolean(let flag) = token { enlarged = flag }
      default: break
      }
    }

    /// The item, or `nil` for a header or a footer; an item without an index or a frame is
    /// not one a diff can compare.
    func item(where place: String) throws(Failure) -> Item? {
      guard isItem else { return nil }
      guard let index, index >= 0, index.rounded() == index, index < 0x1p53 else {
        throw Failure(reason: "\(place) has no \"index\" (a whole number of at least 0)")
      }
      guard let x, let y, let width, let height else {
        throw Failure(
          reason: "\(place) (index \(Int(index))) has no whole frame: x, y, width and height")
      }
      return Item(
        index: Int(index), frame: Rect(x: x, y: y, width: width, height: height),
        column: column.map { Int($0) }, span: span.map { Int($0) }, isEnlarged: enlarged)
    }
  }
}
