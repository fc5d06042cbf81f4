/// A 4×4 homogeneous transform in Core Animation's `CATransform3D` layout.
///
/// Points are row vectors multiplied on the left, `[x y z 1] · M`; the translation sits in
/// `m41`, `m42`, `m43` and the perspective term in `m34`. Composition follows Core Animation:
/// `concatenating(b)` is `self · b` (self first, then b); `rotated` and `translated` put the new
/// step in front, as `CATransform3DRotate` and `CATransform3DTranslate` do. An iOS app can copy
/// the sixteen values into a `CATransform3D` unchanged.
public struct Transform3D: Hashable, Sendable {
  /// The sixteen entries, row by row: `m11, m12, m13, m14, m21, …, m44`.
  public private(set) var entries: [Double]

  /// Creates a transform from its sixteen entries, row by row.
  ///
  /// - Precondition: `entries.count == 16`.
  public init(entries: [Double]) {
    precondition(entries.count == 16, "a 4×4 transform has 16 entries")
    self.entries = entries
  }

  /// The identity transform.
  public static let identity = Transform3D(entries: [
    1, 0, 0, 0,
    0, 1, 0, 0,
    0, 0, 1, 0,
    0, 0, 0, 1,
  ])

  /// The entry in `row` and `column`, both from 1 (`self[3, 4]` is `m34`).
  public subscript(row: Int, column: Int) -> Double {
    get { entries[(row - 1) * 4 + (column - 1)] }
    set { entries[(row - 1) * 4 + (column - 1)] = newValue }
  }

  /// A translation by `(x, y, z)`.
  public static func translation(x: Double, y: Double, z: Double) -> Transform3D {
    var transform = identity
    transform[4, 1] = x
    transform[4, 2] = y
    transform[4, 3] = z
    return transform
  }

  /// A rotation by `angle` radians about the axis `(x, y, z)`, as `CATransform3DMakeRotation`
  /// makes it; the axis is normalised, and a zero axis gives the identity.
  public static func rotation(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return identity }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cosine(angle)
    let s = sine(angle)
    let t = 1 - c
    return Transform3D(entries: [
      c + t * x * x, t * x * y + s * z, t * x * z - s * y, 0,
      t * x * y - s * z, c + t * y * y, t * y * z + s * x, 0,
      t * x * z + s * y, t * y * z - s * x, c + t * z * z, 0,
      0, 0, 0, 1,
    ])
  }

  /// `self · other`: this transform first, then `other` (`CATransform3DConcat(self, other)`).
  public func concatenating(_ other: Transform3D) -> Transform3D {
    var product = [Double](repeating: 0, count: 16)
    for row in 0..<4 {
      for column in 0..<4 {
        var sum = 0.0
        for k in 0..<4 { sum += entries[row * 4 + k] * other.entries[k * 4 + column] }
        product[row * 4 + column] = sum
      }
    }
    return Transform3D(entries: product)
  }

  /// The point `(x, y, z)` of a layer's own coordinates (origin at its anchor, its centre), on
  /// screen: `[x y z 1] · M` divided by its fourth coordinate, `w`, which is the depth's
  /// perspective and at most 0 for a point behind the eye. The depth `z` grows towards the eye.
  ///
  /// - Returns: The projected `x` and `y`, the depth `z` (divided by `w` too), and `w`.
  public func projecting(x: Double, y: Double, z: Double = 0) -> (
    x: Double, y: Double, z: Double, w: Double
  ) {
    var result = [0.0, 0, 0, 0]
    for column in 0..<4 {
      result[column] =
        x * entries[column] + y * entries[4 + column] + z * entries[8 + column]
        + entries[12 + column]
    }
    let w = result[3]
    return (result[0] / w, result[1] / w, result[2] / w, w)
  }

  /// `rotation · self`, as `CATransform3DRotate(self, angle, x, y, z)`.
  public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    Self.rotation(angle: angle, x: x, y: y, z: z).concatenating(self)
  }

  /// `translation · self`, as `CATransform3DTranslate(self, x, y, z)`.
  public func translated(x: Double, y: Double, z: Double) -> Transform3D {
    Self.translation(x: x, y: y, z: z).concatenating(self)
  }
}
