import FallsBase
import FallsCore
import Foundation

/// Reads a finderlist feed out of JSON bytes in one pass with ``JSONScanner``: the items, a
/// problem for each invalid one (``ItemRules``), or where and why the bytes are not JSON, or not
/// a feed.
///
/// A `data` array longer than `threshold` bytes is read in two halves at once, split at an item
/// boundary near its middle; the result is the same either way. With `releasingReadPages` (for
/// a read-only private mapping of a file only), the pages of the `data` array are given back to
/// the system as they are read; touched again, they are read from the file again.
enum FeedParser {
  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, shape: FeedShape = .finderlist,
    allowingMissingSizes: Bool = false, splittingAbove threshold: Int = 1 << 22,
    releasingReadPages: Bool = false
  ) throws(FeedError) -> Feed {
    var parser = Parser(
      scanner: JSONScanner(bytes: bytes), shape: shape, allowsMissingSizes: allowingMissingSizes,
      splitThreshold: threshold, releasesReadPages: releasingReadPages)
    do {
      return try parser.document()
    } catch {
      switch error {
      case .syntax(let failure): throw .notJSON(detail: failure.message)
      case .structure(let failure): throw failure
      }
    }
  }

  /// About how many items `bytes` bytes hold whose first is `firstLength` bytes long, a little
  /// more (lengths vary): room to reserve, so that a long array is not copied as it grows.
  static func estimatedCount(in bytes: Int, firstLength: Int) -> Int {
    let length = max(firstLength, 16)
    return bytes / (length - length / 8) + 1
  }

  /// The input, handed to the thread that reads the second half.
  ///
  /// `@unchecked Sendable`: a buffer pointer is not Sendable; these bytes are only ever read,
  /// and outlive both threads.
  private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
  }

  /// What the two halves read.
  ///
  /// `@unchecked Sendable` without a lock: each of the two threads writes only its own
  /// property, once, and both are read after `concurrentPerform` returns, which orders the
  /// writes before the reads. (A Mutex would need the halves' feeds to be copyable.)
  private final class Halves: @unchecked Sendable {
    var first: Result<(run: (feed: Feed, reachedBoundary: Bool), end: Int), JSONScanner.Failure>?
    var second: Result<(feed: Feed, end: Int), JSONScanner.Failure>?
  }

  private struct Parser {
    var scanner: JSONScanner
    /// Where the items and their fields are.
    let shape: FeedShape
    /// Whether an item without a width or a height, or with a refused one, is kept, its size
    /// 0 × 0 (to be read from its image), rather than a problem (``ItemRules``).
    let allowsMissingSizes: Bool
    var splitThreshold = Int.max
    var releasesReadPages = false

    /// The feed of the whole document, read when the bytes are all JSON: the items at the
    /// shape's path, or else the last `"data"` of its top-level object, or the top-level array.
    mutating func document() throws(DocumentFailure) -> Feed {
      let found: Result<Feed, FeedError>
      do {
        let token = try scanner.documentValue()
        if let path = shape.items {
          found = try lookUp(path, in: token)
        } else {
          found = try finderlist(token)
        }
        try scanner.documentEnd()
      } catch {
        throw .syntax(error)
      }
      do {
        return try found.get()
      } catch {
        throw .structure(error)
      }
    }

    /// The finderlist's items: the last `"data"` of the top-level object, or the top level
    /// when it is an array.
    mutating func finderlist(_ token: JSONScanner.Token)
      throws(JSONScanner.Failure) -> Result<Feed, FeedError>
    {
      let noData = FeedError.noDataArray(found: "the top-level object has no \"data\" key")
      switch token {
      case .array: return .success(try items())
      case .emptyArray: return .success(Feed(items: FeedItems()))
      case .emptyObject: return .failure(noData)
      case .object(var key):
        var data: Result<Feed, FeedError>?
        while true {
          if scanner.string(key, is: "data") {
            data = try self.data()
          } else {
            try scanner.skip(try scanner.value())
          }
          guard case .member(let next) = try scanner.next(in: .object) else { break }
          key = next
        }
        return data ?? .failure(noData)
      case .string, .number, .boolean, .null:
        return .failure(.noDataArray(found: "the top level is \(token.kindName)"))
      }
    }

    /// The items at `path` below the value `token` opens: the last member of each key on the
    /// way counts, as for `"data"`, its key matched by its bytes. When the path leads nowhere,
    /// where it stops and what is there instead.
    ///
    /// Walked without recursion, one level of the path at a time, so that neither a long path
    /// nor a deep document can run out of stack.
    ///
    /// - Complexity: O(*n* + *p*) for *n* bytes and a path of *p* keys: each byte is read once,
    ///   and a message is written only for the stop that is reported.
    mutating func lookUp(_ path: [String], in token: JSONScanner.Token)
      throws(JSONScanner.Failure) -> Result<Feed, FeedError>
    {
      /// An object on the path, open: what its last member of the key sought gave, and the
      /// other keys it has, for a message.
      struct Level {
        var found: Result<Feed, Stop>?
        /// The first five other keys, for a message.
        var others: [String] = []
        /// Every other key, by its bytes, to count them.
        var distinct: Set<[UInt8]> = []
      }
      enum Step {
        /// The value `token` at the depth of the levels open.
        case look(JSONScanner.Token)
        /// The member `key` of the innermost open object, its value next.
        case member(JSONScanner.StringToken)
        /// On to the innermost open object's next member, or its end.
        case next
        /// A value at the depth of the levels open is read: what it gave.
        case finished(Result<Feed, Stop>)
      }
      var levels: [Level] = []
      var step = Step.look(token)
      while true {
        switch step {
        case .look(let value):
          let depth = levels.count
          if depth == path.count {
            switch value {
            case .array: step = .finished(.success(try items()))
            case .emptyArray: step = .finished(.success(Feed(items: FeedItems())))
            case .object, .emptyObject, .string, .number, .boolean, .null:
              try scanner.skip(value)
              step = .finished(.failure(.notAnArray(depth: depth, kind: value.kindName)))
            }
          } else {
            switch value {
            case .object(let key):
              levels.append(Level())
              step = .member(key)
            case .emptyObject:
              step = .finished(.failure(.emptyObject(depth: depth)))
            case .array, .emptyArray, .string, .number, .boolean, .null:
              try scanner.skip(value)
              step = .finished(.failure(.notAnObject(depth: depth, kind: value.kindName)))
            }
          }
        case .member(let key):
          let depth = levels.count - 1
          if scanner.string(key, equals: path[depth]) {
            step = .look(try scanner.value())
          } else {
            let name = scanner.text(of: key)
            if levels[depth].distinct.insert(Array(name.utf8)).inserted,
              levels[depth].others.count < 5
            {
              levels[depth].others.append(name)
            }
            try scanner.skip(try scanner.value())
            step = .next
          }
        case .next:
          if case .member(let key) = try scanner.next(in: .object) {
            step = .member(key)
          } else {
            let level = levels.removeLast()
            step = .finished(
              level.found
                ?? .failure(
                  .noKey(depth: levels.count, others: level.others, count: level.distinct.count)))
          }
        case .finished(let result):
          guard !levels.isEmpty else {
            return result.mapError { $0.error(path) }
          }
          levels[levels.count - 1].found = result
          step = .next
        }
      }
    }

    /// Where a path stops, as it is found: its words are written only for the one reported.
    enum Stop: Error {
      case notAnArray(depth: Int, kind: String)
      case notAnObject(depth: Int, kind: String)
      case emptyObject(depth: Int)
      /// The object at `depth` has no member of the key sought; `others` are its first other
      /// keys, `count` how many keys it has.
      case noKey(depth: Int, others: [String], count: Int)

      /// The error that says it, for `path`.
      func error(_ path: [String]) -> FeedError {
        func here(_ depth: Int) -> String {
          depth == 0 ? "the top level" : "\"\(FeedShape.text(of: Array(path[..<depth])))\""
        }
        let found: String
        switch self {
        case .notAnArray(let depth, let kind): found = "\(here(depth)) is \(kind), not an array"
        case .notAnObject(let depth, let kind):
          found = "\(here(depth)) is \(kind), not an object with the key \"\(path[depth])\""
        case .emptyObject(let depth):
          found = "\(here(depth)) is an empty object, without the key \"\(path[depth])\""
        case .noKey(let depth, let others, let count):
          found =
            "\(here(depth)) has no key \"\(path[depth])\"; its keys are "
            + Parser.listed(others, count: count)
        }
        return .noItemArray(path: FeedShape.text(of: path), found: found)
      }
    }

    /// Keys for a message: the first five, quoted, each of at most 40 characters, and how many
    /// more of the `count` members there are.
    static func listed(_ keys: [String], count: Int) -> String {
      let shown = keys.prefix(5).map { key in
        "\"" + (key.count > 40 ? key.prefix(39) + "…" : key[...]) + "\""
      }
      let more = count > shown.count ? " and \(count - shown.count) more" : ""
      return shown.joined(separator: ", ") + more
    }

    /// The value of `"data"`: its items, or why it holds none.
    mutating func data() throws(JSONScanner.Failure) -> Result<Feed, FeedError> {
      let token = try scanner.value()
      switch token {
      case .array: return .success(try items())
      case .emptyArray: return .success(Feed(items: FeedItems()))
      case .object, .emptyObject, .string, .number, .boolean, .null:
        try scanner.skip(token)
        return .failure(.noDataArray(found: "\"data\" is \(token.kindName)"))
      }
    }

    /// The items of an opened `data` array, up to its end.
    ///
    /// A long array is read in two halves on two threads: this one from the first item, the
    /// other from a guess at an item boundary near the middle (a `{` after `}` and `,`; the bytes
    /// could also be inside a string). The first half confirms the guess only by reaching it as
    /// the start of an item, reading as it always does; if it steps past it instead, it reads on
    /// to the end and the other half's work is dropped. Either way the items, and the first
    /// error, are those of reading from the start.
    mutating func items() throws(JSONScanner.Failure) -> Feed {
      scanner.skipWhitespace()
      let bytes = scanner.bytes
      let start = scanner.position
      guard bytes.count - start > splitThreshold,
        let boundary = itemStart(near: start + (bytes.count - start) / 2)
      else {
        var feed = try itemRun().feed
        feed.items.trimCapacity()
        return feed
      }
      let shared = SharedBytes(bytes: bytes)
      let halves = Halves()
      let (releases, shape, allowsMissingSizes) = (releasesReadPages, shape, allowsMissingSizes)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        var parser = Parser(
          scanner: JSONScanner(bytes: shared.bytes), shape: shape,
          allowsMissingSizes: allowsMissingSizes, releasesReadPages: releases)
        parser.scanner.position = half == 0 ? start : boundary
        do throws(JSONScanner.Failure) {
          if half == 0 {
            let run = try parser.itemRun(stoppingAt: boundary)
            halves.first = .success((run, parser.scanner.position))
          } else {
            halves.second = .success(
              (try parser.itemRun().feed, parser.scanner.position))
          }
        } catch {
          if half == 0 { halves.first = .failure(error) } else { halves.second = .failure(error) }
        }
      }
      // Taken out of the box so that each array has one owner and grows in place.
      guard let first = halves.first else { preconditionFailure("the first half ran") }
      halves.first = nil
      var (run, end) = try first.get()
      guard run.reachedBoundary else {
        scanner.position = end
        run.feed.items.trimCapacity()
        return run.feed
      }
      guard let second = halves.second else { preconditionFailure("the second half ran") }
      halves.second = nil
      var (rest, restEnd) = try second.get()
      scanner.position = restEnd
      let offset = run.feed.items.count + run.feed.problems.count
      rest.items.offsetIndices(by: offset)
      for position in rest.problems.indices { rest.problems[position].index += offset }
      for position in rest.sizeProblems.indices { rest.sizeProblems[position].index += offset }
      // Moved out of the halves' feeds, so that each array has one owner when joined.
      var firstItems = FeedItems()
      var restItems = FeedItems()
      swap(&firstItems, &run.feed.items)
      swap(&restItems, &rest.items)
      var joined = Feed(
        items: FeedItems.joined(consume firstItems, consume restItems),
        problems: run.feed.problems + rest.problems)
      joined.sizeProblems = run.feed.sizeProblems + rest.sizeProblems
      return joined
    }

    /// Items from the start of one, numbered from 0: up to the closing bracket of the array
    /// (read), or up to `boundary` when an item starts exactly there.
    mutating func itemRun(stoppingAt boundary: Int = -1)
      throws(JSONScanner.Failure) -> (feed: Feed, reachedBoundary: Bool)
    {
      var feed = Feed(items: FeedItems())
      var index = 0
      let start = scanner.position
      var pages = ReadPages(of: scanner.bytes, from: start, isReleasing: releasesReadPages)
      while true {
        try item(index: index, into: &feed)
        index += 1
        pages.read(upTo: scanner.position)
        if index == 1 {
          let count = FeedParser.estimatedCount(
            in: scanner.bytes.count - start, firstLength: scanner.position - start)
          let imageLength = feed.items.isEmpty ? 0 : feed.items.withImage(at: 0) { $0.count }
          feed.items.reserveCapacity(count, imageByteCount: count * (imageLength + imageLength / 8))
        }
        guard case .element = try scanner.next(in: .array) else { return (feed, false) }
        if scanner.position == boundary { return (feed, true) }
      }
    }

    /// Reads the item at feed index `index` into `feed`: its fields checked by the rules, the
    /// item or its problem added.
    mutating func item(index: Int, into feed: inout Feed) throws(JSONScanner.Failure) {
      let token = try scanner.value()
      var fields = ItemRules.Fields()
      switch token {
      case .object(var key) where shape.hasFinderlistKeys:
        while true {
          switch Self.field(key, in: scanner) {
          case .img?: fields.img = try fieldValue()
          case .width?: fields.width = try fieldValue()
          case .height?: fields.height = try fieldValue()
          case .span?: fields.span = try fieldValue()
          case nil: try scanner.skip(try scanner.value())
          }
          guard case .member(let next) = try scanner.next(in: .object) else { break }
          key = next
        }
      case .object(let key):
        try readFields(from: key, wanted: [.img, .width, .height, .span], into: &fields)
      case .emptyObject: break
      case .array, .emptyArray, .string, .number, .boolean, .null:
        feed.problems.append(
          FeedItemProblem(
            index: index, field: .item, value: ItemRules.quoted(token, in: scanner),
            reason: .notAnObject))
        try scanner.skip(token)
        return
      }
      switch ItemRules.check(
        fields, index: index, in: scanner, allowingMissingSizes: allowsMissingSizes)
      {
      case .success(let sizes):
        guard case .string(let img)? = fields.img else { preconditionFailure("img is a string") }
        if var problem = sizes.sizeProblem {
          if !shape.hasFinderlistKeys { problem.key = shape.key(of: problem.field) }
          feed.sizeProblems.append(problem)
        }
        if img.isPlain {
          feed.items.append(
            index: index, image: UnsafeBufferPointer(rebasing: scanner.bytes[img.contents]),
            width: sizes.width, height: sizes.height, span: sizes.span, isPlain: true)
        } else {
          var text = scanner.text(of: img)
          text.withUTF8 {
            feed.items.append(
              index: index, image: $0, width: sizes.width, height: sizes.height, span: sizes.span)
          }
        }
      case .failure(var problem):
        if !shape.hasFinderlistKeys { problem.key = shape.key(of: problem.field) }
        feed.problems.append(problem)
      }
    }

    /// The members of an item's object from its first key `first`: each of the `wanted` fields
    /// whose key path goes on with a member's key (matched by its bytes) takes that member's
    /// value, or reads on inside it, as the shape places them. A member given twice counts last,
    /// a nested object as a whole (what an earlier one gave is forgotten).
    ///
    /// Walked without recursion, so that neither a long key path nor a deep item can run out of
    /// stack.
    ///
    /// - Complexity: O(*n*) for *n* bytes of the item: each key is compared with the four
    ///   fields' keys at its depth once.
    mutating func readFields(
      from first: JSONScanner.StringToken, wanted: [ItemRules.FieldName],
      into fields: inout ItemRules.Fields
    ) throws(JSONScanner.Failure) {
      // The fields sought in each object open, from the item itself inward.
      var levels = [wanted]
      var key = first
      while true {
        let depth = levels.count - 1
        let here = levels[depth].filter {
          scanner.string(key, equals: shape.path(of: $0.field)[depth])
        }
        if let field = here.first(where: { shape.path(of: $0.field).count == depth + 1 }) {
          // The shape has no key that is also the start of another's (FeedShape's rule).
          fields[field] = try fieldValue()
        } else if !here.isEmpty {
          for field in here { fields[field] = nil }
          let token = try scanner.value()
          if case .object(let inner) = token {
            levels.append(here)
            key = inner
            continue
          }
          try scanner.skip(token)
        } else {
          try scanner.skip(try scanner.value())
        }
        // The next member, out of every object that ends here.
        while true {
          if case .member(let next) = try scanner.next(in: .object) {
            key = next
            break
          }
          levels.removeLast()
          if levels.isEmpty { return }
        }
      }
    }

    /// Which field of an item `key` names, if any.
    @inline(__always)
    static func field(_ key: JSONScanner.StringToken, in scanner: JSONScanner)
      -> ItemRules.FieldName?
    {
      // Told apart by length first, then by bytes: no string is made.
      switch key.contents.count {
      case 3 where scanner.string(key, is: "img"): .img
      case 5 where scanner.string(key, is: "width"): .width
      case 6 where scanner.string(key, is: "height"): .height
      case 4 where scanner.string(key, is: "span"): .span
      case _ where !key.isPlain:
        // A key with escapes is longer than its text; its bytes are compared once they are read.
        if scanner.string(key, is: "img") {
          .img
        } else if scanner.string(key, is: "width") {
          .width
        } else if scanner.string(key, is: "height") {
          .height
        } else if scanner.string(key, is: "span") {
          .span
        } else {
          nil
        }
      default: nil
      }
    }

    /// A field's value: a scalar as it lies, a container skipped and only named.
    @inline(__always)
    mutating func fieldValue() throws(JSONScanner.Failure) -> ItemRules.Field {
      let token = try scanner.value()
      try scanner.skip(token)
      return ItemRules.Field(token)
    }

    /// The first `{` at or after `guess` whose previous non-blank bytes are `,` and `}`, within
    /// 64 KiB.
    func itemStart(near guess: Int) -> Int? {
      let bytes = scanner.bytes
      let isBlank = JSONScanner.isWhitespace
      var candidate = guess
      while candidate < min(bytes.count, guess + 1 << 16) {
        defer { candidate += 1 }
        guard bytes[candidate] == UInt8(ascii: "{") else { continue }
        var before = candidate - 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
        guard before > 0, bytes[before] == UInt8(ascii: ",") else { continue }
        before -= 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
        if bytes[before] == UInt8(ascii: "}") { return candidate }
      }
      return nil
    }
  }

  /// Why a document is not a feed: its bytes are not JSON (which is said first), or the JSON
  /// is not a feed.
  private enum DocumentFailure: Error {
    case syntax(JSONScanner.Failure)
    case structure(FeedError)
  }
}
