/// A point in points; origin at the top left, y grows downward.
public struct Point: Hashable, Sendable {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = Point(x: 0, y: 0)
}
