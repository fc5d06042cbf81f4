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

  /// The image's sides across the columns and along them, for a layout growing along `axis`
  /// (rows are columns turned: across them is the image height).
  @inline(__always)
  public func extents(along axis: LayoutAxis) -> (across: Double, along: Double) {
    axis == .vertical ? (width, height) : (height, width)
  }

  /// Whether both sides are finite and positive.
  public var hasValidSize: Bool {
    width.isFinite && width > 0 && height.isFinite && height > 0
  }
}
