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
