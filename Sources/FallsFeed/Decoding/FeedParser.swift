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

    /// The path of the first array of objects (in the order of the bytes) that the object at
    /// `start` holds at a key, or at a key of its objects, up to three keys deep: where a
    /// feed's items may be, for a message's `--items`; `nil` when there is none, or its keys
    /// are no path (a key with a dot, say). The scanner is left where it was.
    ///
    /// Walked without recursion; only objects are entered, so that the walk is O(*n*) for *n*
    /// bytes whatever the nesting.
    mutating func itemArrayGuess(at start: Int) throws(JSONScanner.Failure) -> [String]? {
      let end = scanner.position
      defer { scanner.position = end }
      scanner.position = start
      guard case .object(let first) = try scanner.value() else { return nil }
      // The keys of the open objects, the innermost's the key of the member being read.
      var path = [scanner.text(of: first)]
      while true {
        let value = try scanner.value()
        switch value {
        case .array:
          let element = try scanner.value()
          if case .object = element {
            return FeedShape.path(FeedShape.text(of: path)) == path ? path : nil
          }
          try scanner.skip(element)
          while case .element = try scanner.next(in: .array) {
            try scanner.skip(try scanner.value())
          }
        case .object(let key) where path.count < 3:
          path.append(scanner.text(of: key))
          continue
        default:
          try scanner.skip(value)
        }
        // On to the next member, out of every object that ends here.
        while true {
          if case .member(let key) = try scanner.next(in: .object) {
            path[path.count - 1] = scanner.text(of: key)
            break
          }
          path.removeLast()
          if path.isEmpty { return nil }
        }
      }
    }

    /// The items at `path` below the value `token` opens (with `readingItems`), or only
    /// whether the path leads to a value: the last member of each key on the way counts, as
    /// for `"data"`, its key matched by its bytes; a key of digits is an array's element
    /// (``FeedShape/path(_:)``). When the path leads nowhere, where it stops and what is
    /// there instead.
    ///
    /// Walked without recursion, one level of the path at a time, so that neither a long path
    /// nor a deep document can run out of stack.
    ///
    /// - Complexity: O(*n* + *p*) for *n* bytes and a path of *p* keys: each byte is read once,
    ///   and a message is written only for the stop that is reported.
    mutating func lookUp(
      _ path: [String], in token: JSONScanner.Token, readingItems: Bool = true
    ) throws(JSONScanner.Failure) -> Result<Feed, Stop> {
      /// A container on the path, open: what its member or element sought gave, and, for an
      /// object, the other keys it has, for a message.
      struct Level {
        /// For an array, the position of the element being read; `nil` for an object.
        var element: Int?
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
        /// The innermost open array's element, next.
        case element
        /// On to the innermost open container's next member, or its end.
        case next
        /// A value at the depth of the levels open is read: what it gave.
        case finished(Result<Feed, Stop>)
      }
      // Each key's array index, if it is one, read once.
      let indices = path.map(FeedShape.arrayIndex)
      var levels: [Level] = []
      var step = Step.look(token)
      while true {
        switch step {
        case .look(let value):
          let depth = levels.count
          if depth == path.count {
            switch value {
            case .array where readingItems: step = .finished(.success(try items(in: .array)))
            case .emptyArray where readingItems:
              step = .finished(.success(Feed(items: FeedItems())))
            case _ where !readingItems:
              try scanner.skip(value)
              step = .finished(.success(Feed(items: FeedItems())))
            default:
              try scanner.skip(value)
              step = .finished(.failure(.notAnArray(depth: depth, kind: value.kindName)))
            }
            continue
          }
          switch (value, indices[depth]) {
          case (.object(let key), _):
            levels.append(Level())
            step = .member(key)
          case (.emptyObject, _):
            step = .finished(.failure(.emptyObject(depth: depth)))
          case (.array, _?):
            levels.append(Level(element: 0))
            step = .element
          case (.emptyArray, _?):
            step = .finished(.failure(.shortArray(depth: depth, count: 0)))
          default:
            try scanner.skip(value)
            step = .finished(.failure(.notAnObject(depth: depth, kind: value.kindName)))
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
        case .element:
          let depth = levels.count - 1
          if levels[depth].element == indices[depth] {
            step = .look(try scanner.value())
          } else {
            try scanner.skip(try scanner.value())
            step = .next
          }
        case .next:
          let depth = levels.count - 1
          if let element = levels[depth].element {
            if case .element = try scanner.next(in: .array) {
              levels[depth].element = element + 1
              step = .element
              continue
            }
            let level = levels.removeLast()
            step = .finished(
              level.found ?? .failure(.shortArray(depth: depth, count: element + 1)))
          } else if case .member(let key) = try scanner.next(in: .object) {
            step = .member(key)
          } else {
            let level = levels.removeLast()
            step = .finished(
              level.found
                ?? .failure(.noKey(depth: depth, others: level.others, count: level.distinct.count))
            )
          }
        case .finished(let result):
          guard !levels.isEmpty else { return result }
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
      /// The array at `depth` has `count` elements, none at the index sought.
      case shortArray(depth: Int, count: Int)

      /// Where `path` stops and what is there, the start of the path called `top`.
      func found(in path: [String], top: String = "the top level") -> String {
        func here(_ depth: Int) -> String {
          depth == 0 ? top : "\"\(FeedShape.text(of: Array(path[..<depth])))\""
        }
        switch self {
        case .notAnArray(let depth, let kind): return "\(here(depth)) is \(kind), not an array"
        case .notAnObject(let depth, let kind):
          let sought =
            FeedShape.arrayIndex(path[depth]) == nil
            ? "an object with the key \"\(path[depth])\""
            : "an object or an array with the key or element \(path[depth])"
          return "\(here(depth)) is \(kind), not \(sought)"
        case .emptyObject(let depth):
          return "\(here(depth)) is an empty object, without the key \"\(path[depth])\""
        case .noKey(let depth, let others, let count):
          let keys = count == 0 ? "" : "; its keys are " + FeedShape.listed(others, count: count)
          return "\(here(depth)) has no key \"\(path[depth])\"\(keys)"
        case .shortArray(let depth, let count):
          let elements =
            count == 0
            ? "the array is empty" : "the array has \(count) element\(count == 1 ? "" : "s")"
          return "\(here(depth)) has no element \(path[depth]): \(elements)"
        }
      }

      /// The error that says it, for the item array's `path`.
      func error(_ path: [String]) -> FeedError {
        .noItemArray(path: FeedShape.text(of: path), found: found(in: path))
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

    /// The items of an opened array up to its end, or of a stream (each value an item, from
    /// here) up to the end of the bytes.
    ///
    /// A long list is read in two halves on two threads: this one from the first item, the
    /// other from a guess at an item boundary near the middle (a `{` after `}` and the list's
    /// separator; the bytes could also be inside a string). The first half confirms the guess only by reaching it as
    /// the start of an item, reading as it always does; if it steps past it instead, it reads on
    /// to the end and the other half's work is dropped. Either way the items, and the first
    /// error, are those of reading from the start.
    mutating func items(in list: ItemList) throws(JSONScanner.Failure) -> Feed {
      scanner.skipWhitespace()
      let bytes = scanner.bytes
      let start = scanner.position
      guard bytes.count - start > splitThreshold,
        let boundary = itemStart(near: start + (bytes.count - start) / 2, in: list)
      else {
        var feed = try itemRun(in: list).feed
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
            let run = try parser.itemRun(in: list, stoppingAt: boundary)
            halves.first = .success((run, parser.scanner.position))
          } else {
            halves.second = .success(
              (try parser.itemRun(in: list).feed, parser.scanner.position))
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
    /// (read) or the end of the stream, or up to `boundary` when an item starts exactly there.
    mutating func itemRun(in list: ItemList, stoppingAt boundary: Int = -1)
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
    mutating func item(index: Int, into feed: inout Feed, in list: ItemList = .array)
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

    /// The members of an item's object from its first key `first`: each of the `wanted` fields
    /// whose key path goes on with a member's key (matched by its bytes), or with an array's
    /// element (a key of digits), takes that value, or reads on inside it, as the shape places
    /// them. A member given twice counts last, a nested object as a whole (what an earlier one
    /// gave is forgotten).
    ///
    /// Walked without recursion, so that neither a long key path nor a deep item can run out of
    /// stack.
    ///
    /// - Complexity: O(*n*) for *n* bytes of the item: each key, or element on a field's path,
    ///   is compared with the four fields' keys at its depth once.
    mutating func readFields(
      from first: JSONScanner.StringToken, wanted: [ItemRules.FieldName],
      into fields: inout ItemRules.Fields
    ) throws(JSONScanner.Failure) {
      /// A container open on the way to some fields.
      struct Level {
        /// The fields sought in it.
        var fields: [ItemRules.FieldName]
        /// For an array, the position of the element being read; `nil` for an object.
        var element: Int?
      }
      var levels = [Level(fields: wanted)]
      // The member being read, when the innermost level is an object.
      var key = first
      while true {
        let depth = levels.count - 1
        let here =
          if let element = levels[depth].element {
            levels[depth].fields.filter {
              FeedShape.arrayIndex(shape.path(of: $0.field)[depth]) == element
            }
          } else {
            levels[depth].fields.filter {
              scanner.string(key, equals: shape.path(of: $0.field)[depth])
            }
          }
        if let field = here.first(where: { shape.path(of: $0.field).count == depth + 1 }) {
          // The shape has no key that is also the start of another's (FeedShape's rule).
          fields[field] = try fieldValue()
        } else if !here.isEmpty {
          for field in here { fields[field] = nil }
          let token = try scanner.value()
          switch token {
          case .object(let inner):
            levels.append(Level(fields: here))
            key = inner
            continue
          case .array:
            levels.append(Level(fields: here, element: 0))
            continue
          default: try scanner.skip(token)
          }
        } else {
          try scanner.skip(try scanner.value())
        }
        // The next member or element, out of every container that ends here.
        while true {
          let depth = levels.count - 1
          if let element = levels[depth].element {
            if case .element = try scanner.next(in: .array) {
              levels[depth].element = element + 1
              break
            }
          } else if case .member(let next) = try scanner.next(in: .object) {
            key = next
            break
          }
          levels.removeLast()
          if levels.isEmpty { return }
        }
      }
    }

    /// Says more of `problem`, a field missing from the item that starts at `start`: where its
    /// key path stops, for a path of more than one key, or else the item's keys and the
    /// `--keys` that would read the fields `fields` lacks (``KeyGuess``); a value of a stream
    /// may be a page of items, and its array is named for `--items`. Read again from `start`,
    /// once for an item with such a problem; the scanner is left where it was.
    // Kept out of the item loop, which it would only slow: it runs for an item with a problem.
    @inline(never)
    mutating func describeMissing(
      _ problem: inout FeedItemProblem, _ fields: ItemRules.Fields, itemAt start: Int,
      inStream: Bool
    ) throws(JSONScanner.Failure) {
      let end = scanner.position
      defer { scanner.position = end }
      scanner.position = start
      let path = shape.path(of: problem.field)
      guard path.count == 1 else {
        if case .failure(let stop) = try lookUp(
          path, in: try scanner.value(), readingItems: false)
        {
          problem.stop = stop.found(in: path, top: "the item")
        }
        return
      }
      var missing: [ItemRules.FieldName] = [.img, .width, .height].filter {
        switch fields[$0] {
        case nil, .null?: true
        default: false
        }
      }
      if allowsMissingSizes { missing.removeAll { $0 != .img } }
      problem.hint = try KeyGuess.hint(
        in: &scanner, shape: shape, missing: missing.map(\.field), namingItems: inStream)
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

    /// The first `{` at or after `guess` whose previous non-blank bytes are the list's
    /// separator and `}` (`,` in an array; in a stream, whitespace, which must be there), within
    /// 64 KiB.
    func itemStart(near guess: Int, in list: ItemList) -> Int? {
      let bytes = scanner.bytes
      let isBlank = JSONScanner.isWhitespace
      var candidate = guess
      while candidate < min(bytes.count, guess + 1 << 16) {
        defer { candidate += 1 }
        guard bytes[candidate] == UInt8(ascii: "{") else { continue }
        var before = candidate - 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
        switch list {
        case .array:
          guard before > 0, bytes[before] == UInt8(ascii: ",") else { continue }
          before -= 1
          while before > 0, isBlank(bytes[before]) { before -= 1 }
        case .stream:
          guard before < candidate - 1 else { continue }
        }
        if bytes[before] == UInt8(ascii: "}") { return candidate }
      }
      return nil
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
  private enum DocumentFailure: Error {
    case syntax(JSONScanner.Failure)
    case structure(FeedError)
  }
}
