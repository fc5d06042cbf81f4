/// A rectangle in points.
///
/// falls uses one coordinate system everywhere: points, origin at the top left of the
/// content, x grows to the right and y grows downward.
public struct Rect: Hashable, Sendable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width; never negative in a layout.
  public var width: Double
  /// The height; never negative in a layout.
  public var height: Double

  /// Creates a rectangle from its origin and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The right edge, `x + width`.
  public var maxX: Double { x + width }

  /// The bottom edge, `y + height`.
  public var maxY: Double { y + height }

  /// The near and far edge along the scroll axis: (y, maxY) for a vertical axis, (x, maxX) for
  /// a horizontal one.
  func along(_ axis: LayoutAxis) -> (Double, Double) {
    axis == .vertical ? (y, maxY) : (x, maxX)
  }

  /// Whether the two rectangles share interior points.
  ///
  /// Rectangles that only touch along an edge do not intersect, and a rectangle of zero width
  /// or height (which has no interior) intersects nothing.
  public func intersects(_ other: Rect) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY && width > 0
      && height > 0 && other.width > 0 && other.height > 0
  }
}
