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

  /// The values the parameter accepts; ``LayoutConfiguration/validate()`` checks it, and the
  /// messages and the help say it.
  public var range: ValueRange {
    switch self {
    case .width, .viewportHeight, .itemWidth, .itemHeight: LayoutConfiguration.positiveLengths
    case .offsetX, .offsetY: LayoutConfiguration.coordinates
    case .tolerance, .columnSpacing, .rowSpacing, .topInset, .leftInset, .bottomInset,
      .rightInset:
      LayoutConfiguration.lengths
    case .scale: ValueRange(from: 1, to: 1000)
    case .enlargeChance: ValueRange(from: 0, to: 1)
    case .alignTolerance, .maxDistortion: ValueRange(from: 0, below: 1)
    }
  }

  /// The values the parameter accepts, in words.
  public var expectation: String {
    switch self {
    case .offsetX, .offsetY: range.words() + ", within a million viewports of 0"
    case .enlargeChance: range.words("a probability")
    case .alignTolerance, .maxDistortion: range.words("a fraction")
    default: range.words()
    }
  }
}
