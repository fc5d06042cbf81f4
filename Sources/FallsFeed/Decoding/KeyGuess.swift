import FallsBase

/// What an item that lacks a field holds: its keys, and the `--keys` that would read its image
/// and its size when the guess is plain.
///
/// The rule, looking at the item's members and at the members of its objects (two levels, no
/// arrays):
/// - the image: the one string that is an `http://` or `https://` URL; or, of several, the one
///   whose key is `small` (the size that Unsplash's `urls` and Pexels' `src` give for a grid);
/// - the width: the one positive number (or string holding one) whose key is `width` or `w`,
///   in any case; the height likewise, `height` or `h`.
///
/// A guess is shown only when every missing field has one; a field the shape already places
/// elsewhere keeps its key in it, since a later `--keys` replaces an earlier one.
///
///     {"id": "x", "urls": {"small": "https://…"}, "w": 1200, "h": 800}
///     → --keys img=urls.small,width=w,height=h
enum KeyGuess {
  /// The hint for the item at the scanner's position (read whole), lacking the fields
  /// `missing`, read with `shape`. With `namingItems` (a value of a stream, which may be a page
  /// of items), where no `--keys` is plain and the item has one member that is a non-empty
  /// array, that member's key, for `--items`.
  ///
  /// - Complexity: O(*n*) for *n* bytes of the item.
  static func hint(
    in scanner: inout JSONScanner, shape: FeedShape, missing: [FeedField], namingItems: Bool
  ) throws(JSONScanner.Failure) -> FeedItemProblem.KeyHint {
    var keys: [String] = []
    // The keys of its members that are non-empty arrays, up to two: one is a guess, two none.
    var arrays: [String] = []
    var distinct: Set<String> = []
    var found: [FeedField: [[String]]] = [:]
    guard case .object(let first) = try scanner.value() else {
      return FeedItemProblem.KeyHint(keys: [], count: 0, suggestion: nil)
    }
    // The path of the member being read: its object's key, if it is inside one, and its key.
    var outer: String?
    var key = first
    while true {
      let name = scanner.text(of: key)
      if outer == nil, distinct.insert(name).inserted, keys.count < 5 { keys.append(name) }
      let path = (outer.map { [$0] } ?? []) + [name]
      let token = try scanner.value()
      if case .array = token, outer == nil, arrays.count < 2 { arrays.append(name) }
      if case .object(let inner) = token, outer == nil {
        outer = name
        key = inner
        continue
      }
      if let field = kind(of: token, key: name, in: scanner),
        FeedShape.path(FeedShape.text(of: path)) == path
      {
        found[field, default: []].append(path)
      }
      try scanner.skip(token)
      while true {
        if case .member(let next) = try scanner.next(in: .object) {
          key = next
          break
        }
        guard outer != nil else {
          let suggestion = suggestion(found, shape: shape, missing: missing)
          let isPlainPath = arrays.count == 1 && FeedShape.path(arrays[0]) == arrays
          let items = namingItems && suggestion == nil && isPlainPath ? arrays.first : nil
          return FeedItemProblem.KeyHint(
            keys: keys, count: distinct.count, suggestion: suggestion, items: items,
            lacksSizesOnly: !missing.isEmpty && !missing.contains(.img))
        }
        outer = nil
      }
    }
  }

  /// The field a member `key` holding `token` may be: the image for a URL, the width or the
  /// height for a positive number of their names.
  private static func kind(of token: JSONScanner.Token, key: String, in scanner: JSONScanner)
    -> FeedField?
  {
    let number: Double?
    switch token {
    case .string(let string):
      let text = scanner.text(of: string)
      let head = text.prefix(8).lowercased()
      if head.hasPrefix("https://") || head.hasPrefix("http://") { return .img }
      number = string.contents.count < 40 ? parseDecimal(text) : nil
    case .number(let text):
      number = parseDecimal(
        String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[text]), as: UTF8.self))
    default: return nil
    }
    guard let number, number.isFinite, number > 0 else { return nil }
    switch key.lowercased() {
    case "width", "w": return .width
    case "height", "h": return .height
    default: return nil
    }
  }

  /// The `--keys` text that reads every field of `missing` from where `found` puts it, the
  /// other fields as `shape` places them, or `nil` when a missing field has no plain guess.
  private static func suggestion(
    _ found: [FeedField: [[String]]], shape: FeedShape, missing: [FeedField]
  ) -> String? {
    guard !missing.isEmpty else { return nil }
    var parts: [String] = []
    for field in [FeedField.img, .width, .height, .span] {
      if missing.contains(field) {
        let candidates = found[field] ?? []
        let plain =
          candidates.count == 1
          ? candidates : candidates.filter { field == .img && $0.last == "small" }
        guard plain.count == 1 else { return nil }
        parts.append("\(field.rawValue)=\(FeedShape.text(of: plain[0]))")
      } else if shape.path(of: field) != [field.rawValue] {
        parts.append("\(field.rawValue)=\(shape.key(of: field))")
      }
    }
    return parts.joined(separator: ",")
  }
}
