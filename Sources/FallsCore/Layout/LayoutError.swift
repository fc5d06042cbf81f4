/// Why a layout could not be made or extended.
public enum LayoutError: Error, Hashable, Sendable {
  /// The column count is below 1 or above ``LayoutConfiguration/maximumColumns``.
  case invalidColumnCount(Int)
  /// A configuration value is not finite or out of its range.
  case invalidValue(LayoutParameter, Double)
  /// Insets and spacing leave a column narrower than
  /// ``LayoutConfiguration/minimumColumnWidth``.
  case noRoomForColumns(columnWidth: Double)
  /// An item's size is not finite and positive; `index` is its position in the layout.
  case invalidItemSize(index: Int, width: Double, height: Double)
  /// An item's height in points, or the bottom it reaches, is larger than
  /// ``LayoutConfiguration/maximumExtent``.
  case heightOverflow(index: Int)
  /// An item's height in points is so small that it rounds to 0 (a tiny height/width ratio), or
  /// is lost in rounding against the top it is placed at, where it would cover nothing.
  case heightUnderflow(index: Int)
  /// The `grid` style's pattern is not as wide as the layout's columns.
  case patternWidth(patternColumns: Int, columns: Int)
  /// An option (`order`, `tolerance`, `direction`, `axis`, `scale`, `alignment`) that `style`
  /// does not use was set.
  case notApplicable(option: LayoutOption, style: LayoutStyle)
}
