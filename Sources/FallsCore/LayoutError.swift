/// A configuration value that ``LayoutError/invalidValue(_:_:)`` names.
public enum LayoutParameter: String, CaseIterable, Hashable, Sendable {
  case width
  case columnSpacing
  case rowSpacing
  case topInset
  case leftInset
  case bottomInset
  case rightInset
  case enlargeChance
  case alignTolerance
  case maxDistortion
  case viewportHeight
  case itemWidth
  case itemHeight
  case offsetX
  case offsetY
  case tolerance
  case scale

  /// The values the parameter accepts, in words.
  public var expectation: String {
    let most = "at most 1000000000"
    return switch self {
    case .width, .viewportHeight, .itemWidth, .itemHeight: "a number greater than 0, \(most)"
    case .offsetX, .offsetY:
      "a number from -1000000000 to 1000000000, within a million viewports of 0"
    case .tolerance: "a number of at least 0, \(most)"
    case .scale: "a number from 1 to 1000"
    case .enlargeChance: "a probability from 0 to 1"
    case .alignTolerance, .maxDistortion: "a fraction from 0 up to (not including) 1"
    case .columnSpacing, .rowSpacing, .topInset, .leftInset, .bottomInset, .rightInset:
      "a number of at least 0, \(most)"
    }
  }
}

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
