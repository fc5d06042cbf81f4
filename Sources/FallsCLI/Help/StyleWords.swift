import FallsCore

/// What the help and the messages say of the styles: each style's sentence once, and lists of
/// styles made from ``LayoutStyle/options`` and the style's own statements, so that a style
/// added or an option moved shows in every sentence that names styles.
extension LayoutStyle {
  /// What the style does, after its name: "irregular enlarges random items …".
  var summary: String {
    switch self {
    case .irregular:
      "enlarges random items across two columns and aligns bottoms that nearly meet"
    case .waterfall: "places each item, at its natural height, in the shortest column"
    case .grid: "repeats a quilt of square tiles"
    case .circle: "puts items on a ring"
    case .cube: "turns them on a drum"
    case .sphere: "turns them about four axes"
    }
  }

  /// The styles whose layouts use item sizes, which the quality figures measure.
  static var ofItemSizes: [LayoutStyle] { allCases.filter(\.usesItemSizes) }

  /// The styles that draw at random from the seed.
  static var ofRandomDraws: [LayoutStyle] { allCases.filter(\.drawsAtRandom) }
}

extension [LayoutStyle] {
  /// The styles' names as a sentence lists them: "irregular", "irregular and waterfall",
  /// "circle, cube and sphere".
  var listed: String { map(\.rawValue).listed }
}

extension [String] {
  /// The words as a sentence lists them: "a", "a and b", "a, b and c".
  var listed: String {
    guard count > 1, let last else { return joined() }
    return dropLast().joined(separator: ", ") + " and " + last
  }

  /// The words as choices: "a", "a or b", "a, b or c".
  var alternatives: String {
    guard count > 1, let last else { return joined() }
    return dropLast().joined(separator: ", ") + " or " + last
  }
}
