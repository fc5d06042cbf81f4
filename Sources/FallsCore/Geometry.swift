/// A rectangle in points.
///
/// falls uses one coordinate system everywhere: points, origin at the top left of the
/// content, x grows to the right and y grows downward.
///
/// The four edges are stored and the size is derived from them, so an edge that a layout copies
/// from another (a bottom aligned to a neighbour's, a top placed below a bottom) compares equal to
/// it exactly, with no rounding from `y + height`.
public struct Rect: Hashable, Sendable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The right edge.
  public var maxX: Double
  /// The bottom edge.
  public var maxY: Double

  /// Creates a rectangle from its origin and size; the far edges are `x + width` and
  /// `y + height`.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(x: x, y: y, maxX: x + width, maxY: y + height)
  }

  /// Creates a rectangle from its four edges.
  public init(x: Double, y: Double, maxX: Double, maxY: Double) {
    self.x = x
    self.y = y
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The width, `maxX − x`.
  public var width: Double { maxX - x }

  /// The height, `maxY − y`.
  public var height: Double { maxY - y }

  /// Whether the two rectangles share interior points.
  ///
  /// Rectangles that only touch along an edge do not intersect.
  public func intersects(_ other: Rect) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }
}

/// Distances inset from the four edges of the container, in points.
public struct EdgeInsets: Hashable, Sendable {
  /// The inset from the top edge.
  public var top: Double
  /// The inset from the left edge.
  public var left: Double
  /// The inset from the bottom edge.
  public var bottom: Double
  /// The inset from the right edge.
  public var right: Double

  /// Creates insets from the four distances.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// Creates insets with the same distance on every edge.
  public init(all value: Double) {
    self.init(top: value, left: value, bottom: value, right: value)
  }

  /// No inset on any edge.
  public static let zero = EdgeInsets(all: 0)
}
