/// One item to lay out: the natural size of its image.
///
/// Only the ratio `height / width` matters: an item's natural height in a column of width `w` is
/// `w · height / width`.
public struct LayoutItem: Hashable, Sendable {
  /// The image width, in any unit; finite and positive.
  public var width: Double
  /// The image height, in the same unit as `width`; finite and positive.
  public var height: Double
  /// How many columns the item asks to cover, at least 1 (``fullSpan`` for all); a span wider
  /// than the layout is clamped to its column count.
  public var span: Int

  /// The span that covers every column.
  public static let fullSpan = Int.max

  /// Creates an item from its image size and, optionally, a column span.
  public init(width: Double, height: Double, span: Int = 1) {
    self.width = width
    self.height = height
    self.span = span
  }

  /// Whether both sides are finite and positive.
  public var hasValidSize: Bool {
    width.isFinite && width > 0 && height.isFinite && height > 0
  }
}

/// Where one item landed.
public struct LayoutElement: Hashable, Sendable {
  /// The item's position in the sequence of items the layout was given, from 0.
  public var index: Int
  /// The leftmost column the item occupies.
  public var column: Int
  /// How many columns the item occupies: 1, 2 when enlarged, or the span the item asked for.
  public var span: Int
  /// The item's frame in points.
  public var frame: Rect
  /// Whether the item was enlarged across two columns.
  public var isEnlarged: Bool
  /// Whether the item's height was corrected so that its bottom meets a neighbour column's.
  public var isAligned: Bool

  /// Creates an element.
  public init(
    index: Int, column: Int, span: Int, frame: Rect, isEnlarged: Bool, isAligned: Bool
  ) {
    self.index = index
    self.column = column
    self.span = span
    self.frame = frame
    self.isEnlarged = isEnlarged
    self.isAligned = isAligned
  }
}
