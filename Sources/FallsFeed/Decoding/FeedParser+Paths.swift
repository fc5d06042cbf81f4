import FallsBase
import FallsCore

extension FeedParser.Parser {
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
}
