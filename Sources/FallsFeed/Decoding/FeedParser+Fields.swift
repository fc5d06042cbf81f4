import FallsBase
import FallsCore

extension FeedParser.Parser {
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
}
