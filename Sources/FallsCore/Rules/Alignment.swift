/// The alignment rule of the irregular style.
///
/// A one-column item whose natural bottom lands less than
/// ``LayoutConfiguration/alignTolerance`` × its natural height away from the bottom of the
/// column to its right (looked at first), or else of the column to its left, takes exactly
/// that bottom: its height is stretched or shrunk to meet it, and it is marked aligned. Empty
/// columns are never aligned to. Tolerance 0 turns the rule off.
///
/// Column bottoms are stored, never recomputed: the aligned column takes the very value of the
/// bottom it meets, so that the two compare equal afterwards (and may then take an enlarged
/// item).
enum Alignment {
  /// The bottom an item of natural height `height` at `top` aligns to, and the side of the
  /// neighbour it meets (+1 right, −1 left), if the rule aligns it; `left` and `right` are the
  /// neighbours' bottoms, NaN for an empty or missing column.
  @inline(__always)
  static func target(top: Double, height: Double, tolerance: Double, left: Double, right: Double)
    -> (bottom: Double, side: Int)?
  {
    let naturalBottom = top + height
    let reach = tolerance * height
    let towardsRight = abs(naturalBottom - right) < reach
    guard towardsRight || abs(naturalBottom - left) < reach else { return nil }
    return towardsRight ? (right, 1) : (left, -1)
  }

  /// The height `h` nearest to `bottom − top` for which `top + h` is exactly `bottom`.
  ///
  /// `bottom − top` itself is usually such a height; otherwise one a few ulps away is. When a
  /// rounding tie makes every candidate miss, the nearest miss is returned: the item's
  /// `y + height` is then one ulp from its stored bottom.
  @inline(__always)
  static func height(from top: Double, reaching bottom: Double) -> Double {
    let difference = bottom - top
    return top + difference == bottom ? difference : nearestHeight(from: top, reaching: bottom)
  }

  private static func nearestHeight(from top: Double, reaching bottom: Double) -> Double {
    let difference = bottom - top
    // Candidates in the order difference, then one ulp above and below, two, three.
    var best = difference
    var bestMiss = abs(top + difference - bottom)
    var below = difference
    var above = difference
    /// Whether `candidate` lands exactly; otherwise keeps it if it misses by least so far.
    func lands(_ candidate: Double) -> Bool {
      let miss = abs(top + candidate - bottom)
      if miss < bestMiss {
        best = candidate
        bestMiss = miss
      }
      return miss == 0
    }
    for _ in 1..<4 {
      above = above.nextUp
      below = below.nextDown
      if lands(above) || lands(below) { return best }
    }
    return best
  }
}
