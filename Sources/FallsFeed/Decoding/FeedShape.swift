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

  /// A path as it is written, its keys joined by dots: `result.list`.
  public static func text(of path: [String]) -> String {
    path.joined(separator: ".")
  }

  /// The path that `text` writes, its keys separated by dots; `nil` when a key is empty
  /// (`a..b`, `.a`, an empty text).
  public static func path(_ text: String) -> [String]? {
    let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return keys.contains(where: \.isEmpty) ? nil : keys
  }
}
