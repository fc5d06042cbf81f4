import FallsBase
import FallsCore
import Foundation

/// Reads a finderlist feed out of JSON bytes in one pass with ``JSONScanner``: the items, a
/// problem for each invalid one (``ItemRules``), or where and why the bytes are not JSON, or not
/// a feed.
///
/// A stream of values (JSON Lines, or what jq prints) is read as a list of items, one a value.
/// A list of items (a `data` array, or a stream) longer than `threshold` bytes is read in two
/// halves at once, split at an item boundary near its middle; the result is the same either way. With `releasingReadPages` (for
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

  /// The reader: a scanner over the bytes and what the feed's shape asks of it. Its steps are
  /// in the files beside this one: items (FeedParser+Items), paths (FeedParser+Paths) and the
  /// two halves of a long list (FeedParser+Halves).
  struct Parser {
    var scanner: JSONScanner
    /// Where the items and their fields are.
    let shape: FeedShape
    /// Whether an item without a width or a height, or with a refused one, is kept, its size
    /// 0 × 0 (to be read from its image), rather than a problem (``ItemRules``).
    let allowsMissingSizes: Bool
    var splitThreshold = Int.max
    var releasesReadPages = false

    /// The feed of the whole document, read when the bytes are all JSON.
    ///
    /// A document of no value (nothing, or spaces) is a feed of no items. A document of one
    /// value is a feed as it always was: the items at the shape's path, or
    /// else the last `"data"` of its top-level object, or the top-level array; an object
    /// without `"data"` that reads as a valid item is a feed of that one item (what
    /// `jq -c '.data[]'` prints of a feed of one). A document of more values, separated by
    /// whitespace (JSON Lines, or what `jq` prints), is a stream: each value is an item, or,
    /// with a path of items, a document whose items at that path follow the last value's.
    mutating func document() throws(DocumentFailure) -> Feed {
      var found: Result<Feed, FeedError>
      do {
        scanner.skipWhitespace()
        // Nothing but spaces: a stream of no values, as `jq -c '.data[]'` prints an empty feed.
        if scanner.atEnd { return Feed(items: FeedItems()) }
        let start = scanner.position
        let token = try scanner.documentValue()
        let isObject =
          switch token {
          case .object, .emptyObject: true
          default: false
          }
        if let path = shape.items {
          found = try lookUp(path, in: token).mapError { $0.error(path) }
        } else {
          found = try finderlist(token)
        }
        if try scanner.streamGoesOn() {
          if let path = shape.items {
            found = try pages(at: path, after: found, firstStart: start)
          } else {
            scanner.position = start
            found = .success(try items(in: .stream))
          }
        } else if case .failure(.noDataArray) = found, isObject, shape.items == nil {
          // A lone item, as `jq -c '.data[]'` prints a feed of one.
          var feed = Feed(items: FeedItems())
          let end = scanner.position
          scanner.position = start
          try item(index: 0, into: &feed)
          scanner.position = end
          if feed.problems.isEmpty {
            found = .success(feed)
          } else if case .failure(.noDataArray(let what, nil)) = found {
            // No feed, no item: where its items may be, for the message.
            let guess = try itemArrayGuess(at: start).map(FeedShape.text(of:))
            found = .failure(.noDataArray(found: what, items: guess))
          }
        }
      } catch {
        throw .syntax(error)
      }
      do {
        return try found.get()
      } catch {
        throw .structure(error)
      }
    }

    /// The items at `path` of each value of a stream, the first value's `first` (it starts at
    /// `firstStart`; the second is next): each value's items follow the last value's, numbered on; where a value
    /// has none, its line says which. Every value is read, so that bytes that are not JSON are
    /// said first.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    mutating func pages(
      at path: [String], after first: Result<Feed, FeedError>, firstStart: Int
    ) throws(JSONScanner.Failure) -> Result<Feed, FeedError> {
      var feed = Feed(items: FeedItems())
      var failure: FeedError?
      switch first {
      case .success(let items): feed = items
      case .failure(let error):
        failure = Self.inStream(error, line: scanner.location(of: firstStart).line)
      }
      // The second value is next: the caller found it.
      repeat {
        let valueStart = scanner.position
        let next = try lookUp(path, in: try scanner.value())
        guard failure == nil else { continue }
        switch next {
        case .success(var page):
          let offset = feed.items.count + feed.problems.count
          page.items.offsetIndices(by: offset)
          for position in page.problems.indices { page.problems[position].index += offset }
          feed.items.append(contentsOf: page.items)
          feed.problems += page.problems
        case .failure(let stop):
          failure = Self.inStream(
            stop.error(path), line: scanner.location(of: valueStart).line)
        }
      } while try scanner.streamGoesOn()
      return failure.map { .failure($0) } ?? .success(feed)
    }

    /// `error`, said of the value of a stream that starts on line `line`.
    static func inStream(_ error: FeedError, line: Int) -> FeedError {
      guard case .noItemArray(let path, let found) = error else { return error }
      return .noItemArray(path: path, found: "in the value on line \(line), " + found)
    }

    /// The finderlist's items: the last `"data"` of the top-level object, or the top level
    /// when it is an array.
    mutating func finderlist(_ token: JSONScanner.Token)
      throws(JSONScanner.Failure) -> Result<Feed, FeedError>
    {
      let noKey = "the top-level object has no \"data\" key"
      switch token {
      case .array: return .success(try items(in: .array))
      case .emptyArray: return .success(Feed(items: FeedItems()))
      case .emptyObject: return .failure(.noDataArray(found: noKey))
      case .object(var key):
        var data: Result<Feed, FeedError>?
        // For the message of an object without "data": its first keys, and how many.
        var others: [String] = []
        var distinct: Set<[UInt8]> = []
        while true {
          if scanner.string(key, is: "data") {
            data = try self.data()
          } else {
            if data == nil {
              let name = scanner.text(of: key)
              if distinct.insert(Array(name.utf8)).inserted, others.count < 5 {
                others.append(name)
              }
            }
            try scanner.skip(try scanner.value())
          }
          guard case .member(let next) = try scanner.next(in: .object) else { break }
          key = next
        }
        return data
          ?? .failure(
            .noDataArray(
              found: noKey + "; its keys are " + FeedShape.listed(others, count: distinct.count)))
      case .string, .number, .boolean, .null:
        return .failure(.noDataArray(found: "the top level is \(token.kindName)"))
      }
    }

    /// The value of `"data"`: its items, or why it holds none.
    mutating func data() throws(JSONScanner.Failure) -> Result<Feed, FeedError> {
      let token = try scanner.value()
      switch token {
      case .array: return .success(try items(in: .array))
      case .emptyArray: return .success(Feed(items: FeedItems()))
      case .object, .emptyObject, .string, .number, .boolean, .null:
        try scanner.skip(token)
        return .failure(.noDataArray(found: "\"data\" is \(token.kindName)"))
      }
    }

    /// Items from the start of one, numbered from 0: up to the closing bracket of the array
    /// (read) or the end of the stream, or up to `boundary` when an item starts exactly there.
    mutating func itemRun(in list: FeedParser.ItemList, stoppingAt boundary: Int = -1)
      throws(JSONScanner.Failure) -> (feed: Feed, reachedBoundary: Bool)
    {
      var feed = Feed(items: FeedItems())
      var index = 0
      let start = scanner.position
      var pages = ReadPages(of: scanner.bytes, from: start, isReleasing: releasesReadPages)
      while true {
        try item(index: index, into: &feed, in: list)
        index += 1
        pages.read(upTo: scanner.position)
        if index == 1 {
          let count = FeedParser.estimatedCount(
            in: scanner.bytes.count - start, firstLength: scanner.position - start)
          let imageLength = feed.items.isEmpty ? 0 : feed.items.withImage(at: 0) { $0.count }
          feed.items.reserveCapacity(count, imageByteCount: count * (imageLength + imageLength / 8))
        }
        switch list {
        case .array:
          guard case .element = try scanner.next(in: .array) else { return (feed, false) }
        case .stream: guard try scanner.streamGoesOn() else { return (feed, false) }
        }
        if scanner.position == boundary { return (feed, true) }
      }
    }

    /// Reads the item at feed index `index` of `list` into `feed`: its fields checked by the
    /// rules, the item or its problem added.
    mutating func item(index: Int, into feed: inout Feed, in list: FeedParser.ItemList = .array)
      throws(JSONScanner.Failure)
    {
      let start = scanner.position
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
        if problem.reason == .missing, problem.field != .span {
          try describeMissing(&problem, fields, itemAt: start, inStream: list == .stream)
        }
        feed.problems.append(problem)
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
  }

  /// How the items of a list follow one another.
  enum ItemList {
    /// In an array, opened: separated by commas, up to its closing bracket.
    case array
    /// In a stream: values separated by whitespace, up to the end of the bytes.
    case stream
  }

  /// Why a document is not a feed: its bytes are not JSON (which is said first), or the JSON
  /// is not a feed.
  enum DocumentFailure: Error {
    case syntax(JSONScanner.Failure)
    case structure(FeedError)
  }
}
