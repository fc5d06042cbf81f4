/// Where a feed keeps its items and their fields: the finderlist's `{"data": [{"img", "width",
/// "height", "span"}]}` by default, or any other JSON shape.
///
/// Each place is a path of keys, read from the outside in: `["result", "list"]` for the array
/// at `{"result": {"list": [...]}}`, `["size", "w"]` for the width at `{"size": {"w": 1200}}`.
public struct FeedShape: Hashable, Sendable {
  /// The path of keys from the top-level object to the item array, or `nil` for the finderlist's
  /// `data` (or the top level itself when it is an array).
  public var items: [String]?
  /// The path of each field's key inside an item.
  public var img: [String]
  public var width: [String]
  public var height: [String]
  public var span: [String]

  /// A shape; every argument has the finderlist's default.
  public init(
    items: [String]? = nil, img: [String] = ["img"], width: [String] = ["width"],
    height: [String] = ["height"], span: [String] = ["span"]
  ) {
    self.items = items
    self.img = img
    self.width = width
    self.height = height
    self.span = span
  }

  /// The finderlist format's shape.
  public static let finderlist = FeedShape()

  /// The path of `field`'s key (``FeedField/item`` has none: it is the item itself).
  public func path(of field: FeedField) -> [String] {
    switch field {
    case .img: img
    case .width: width
    case .height: height
    case .span: span
    case .item: []
    }
  }

  /// The key of `field` as a message names it: its path written with dots (`size.w`), or the
  /// field's own name where it has no path (the item itself).
  public func key(of field: FeedField) -> String {
    let path = path(of: field)
    return path.isEmpty ? field.rawValue : Self.text(of: path)
  }

  /// Whether every field is at its finderlist key, which the reader matches fastest.
  var hasFinderlistKeys: Bool {
    img == ["img"] && width == ["width"] && height == ["height"] && span == ["span"]
  }

  /// A path as it is written, its keys joined by dots: `result.list`, `images.0.url`.
  public static func text(of path: [String]) -> String {
    path.joined(separator: ".")
  }

  /// The path that `text` writes, its keys separated by dots, or `nil` when it writes none.
  ///
  /// A key of digits indexes an array, from 0, and still matches an object's key of the same
  /// text; `[N]` is another spelling of `.N`, and a leading `.` is allowed, as jq writes paths
  /// (`.results[0].urls` is `results.0.urls`). `.` alone is the empty path: the top level. A
  /// key is never empty (`a..b`, `a.`, an empty text), and brackets hold digits only.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  public static func path(_ text: String) -> [String]? {
    var rest = Substring(text)
    if rest.first == "." {
      rest = rest.dropFirst()
      if rest.isEmpty { return [] }
    }
    var keys: [String] = []
    while true {
      let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
      let key = rest[..<end]
      rest = rest[end...]
      if !key.isEmpty {
        keys.append(String(key))
      } else if rest.first != "[" {
        return nil
      }
      while rest.first == "[" {
        let inside = rest.dropFirst().prefix { $0 != "]" }
        guard !inside.isEmpty, inside.allSatisfy(\.isASCIIDigit),
          rest.dropFirst(inside.count + 1).first == "]"
        else { return nil }
        keys.append(String(inside))
        rest = rest.dropFirst(inside.count + 2)
      }
      guard let separator = rest.first else { return keys }
      guard separator == "." else { return nil }
      rest = rest.dropFirst()
      if rest.isEmpty { return nil }
    }
  }

  /// The array index a key of `path` stands for when it is all ASCII digits (`Int.max` past
  /// the largest `Int`, an element no array has), or `nil` for any other key.
  static func arrayIndex(_ key: String) -> Int? {
    guard !key.isEmpty, key.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(key) ?? .max
  }

  /// Keys for a message: the first five, quoted, each of at most 40 characters, and how many
  /// more of the `count` there are.
  static func listed(_ keys: [String], count: Int) -> String {
    let shown = keys.prefix(5).map { key in
      "\"" + (key.count > 40 ? key.prefix(39) + "…" : key[...]) + "\""
    }
    let more = count > shown.count ? " and \(count - shown.count) more" : ""
    return shown.joined(separator: ", ") + more
  }
}

extension Character {
  /// Whether the character is one of the ASCII digits 0 to 9.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) && isASCII }
}
