/// Generated items whose heights are drawn between a minimum and a maximum, as the seed's
/// simple waterfall drew them (100 to 250 points by default): for demos, tests and benchmarks.
public enum SyntheticFeed {
  /// The default smallest height, in points.
  public static let defaultMinimumHeight = 100.0
  /// The default largest height, in points.
  public static let defaultMaximumHeight = 250.0

  /// `count` items for columns of width `columnWidth`, whose natural heights in such a column
  /// lie in `minimumHeight...maximumHeight` points exactly, drawn uniformly from `seed`.
  ///
  /// Each item is `columnWidth` wide and as tall as its drawn height, so the layout's
  /// `w · height / width` gives back the height; where that rounds outside the range by an ulp,
  /// the height is nudged back in. The heights come from their own SplitMix64 stream
  /// (`seed ^ 0x5EED_F00D`), so they do not disturb the layout's enlargement draws.
  ///
  /// - Precondition: `0 < minimumHeight <= maximumHeight`, both finite; `columnWidth > 0`.
  /// - Complexity: O(*count*).
  public static func items(
    count: Int, seed: UInt64, minimumHeight: Double = defaultMinimumHeight,
    maximumHeight: Double = defaultMaximumHeight, columnWidth: Double
  ) -> [LayoutItem] {
    precondition(minimumHeight > 0 && minimumHeight <= maximumHeight && maximumHeight.isFinite)
    precondition(columnWidth > 0 && columnWidth.isFinite)
    var generator = SplitMix64(seed: seed ^ 0x5EED_F00D)
    var items: [LayoutItem] = []
    items.reserveCapacity(max(count, 0))
    for _ in 0..<max(count, 0) {
      let drawn = minimumHeight + generator.nextUnit() * (maximumHeight - minimumHeight)
      var height = min(max(drawn, minimumHeight), maximumHeight)
      for _ in 0..<8 {
        let laidOut = columnWidth * height / columnWidth
        if laidOut < minimumHeight {
          height = height.nextUp
        } else if laidOut > maximumHeight {
          height = height.nextDown
        } else {
          break
        }
      }
      items.append(LayoutItem(width: columnWidth, height: height))
    }
    return items
  }
}
