import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// How far an item's height is from its natural height (``LayoutQuality``), in the steps the
/// pictures (`--format svg`, `html`) colour: the one statement of the steps, their colours and
/// their legend.
enum DistortionBand: Int, CaseIterable {
  case natural, slight, moderate, marked, strong

  /// The band of `distortion`: 0; up to 2.5%; up to 5%; up to 10%; more.
  init(_ distortion: Double) {
    self =
      distortion == 0
      ? .natural
      : distortion <= 0.025
        ? .slight : distortion <= 0.05 ? .moderate : distortion <= 0.1 ? .marked : .strong
  }

  /// The class of an item in the band; none for the natural band.
  var className: StaticString {
    switch self {
    case .natural: ""
    case .slight: " d1"
    case .moderate: " d2"
    case .marked: " d3"
    case .strong: " d4"
    }
  }

  /// The band's colour, light to dark red.
  var colour: String {
    switch self {
    case .natural: "#9ecae1"
    case .slight: "#fee0d2"
    case .moderate: "#fcbba1"
    case .marked: "#fb6a4a"
    case .strong: "#a50f15"
    }
  }

  /// What the legend says of the band, after "distortion".
  var label: String {
    switch self {
    case .natural: "0"
    case .slight: "≤2.5%"
    case .moderate: "≤5%"
    case .marked: "≤10%"
    case .strong: ">10%"
    }
  }

  /// The bands of the distorted items.
  static let distorted = allCases.filter { $0 != .natural }
}
