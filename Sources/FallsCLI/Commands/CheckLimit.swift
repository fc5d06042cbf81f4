import FallsBase
import FallsCore

/// A figure `falls check` holds a layout to: `NAME<=V`, `NAME<V`, `NAME>=V` or `NAME>V`.
struct CheckLimit: Hashable, Sendable {
  /// What a limit names.
  enum Figure: String, CaseIterable, Hashable, Sendable {
    case enlargedShare, correctedShare, meanDistortion, maxDistortion, raggedEnd, coverage
    /// The items laid out.
    case items
    /// The items `--skip-invalid` skipped.
    case skipped
    /// The content's extent along the scroll axis.
    case contentHeight

    /// Whether it is one of the quality figures, which only the columnar styles have.
    var isQuality: Bool { LayoutQuality.names.contains(rawValue) }

    /// The decimals a table shows it with: a share or a ratio four, points two, a count none.
    var decimals: Int {
      switch self {
      case .items, .skipped: 0
      case .contentHeight: 2
      case .enlargedShare, .correctedShare, .meanDistortion, .maxDistortion, .raggedEnd, .coverage:
        4
      }
    }
  }

  /// How a value is compared with the limit.
  enum Comparison: String, CaseIterable, Hashable, Sendable {
    case atMost = "<="
    case below = "<"
    case atLeast = ">="
    case above = ">"

    func holds(_ value: Double, _ limit: Double) -> Bool {
      switch self {
      case .atMost: value <= limit
      case .below: value < limit
      case .atLeast: value >= limit
      case .above: value > limit
      }
    }
  }

  var figure: Figure
  var comparison: Comparison
  var value: Double

  /// The limit as it is written: `maxDistortion <= 0.1`.
  var text: String { "\(comparison.rawValue) \(formatNumber(value))" }

  /// The limit `text` writes, blanks allowed around its parts.
  static func parse(_ text: String, flag: String) throws(CLIError) -> CheckLimit {
    let trimmed = text.filter { $0 != " " }
    // The longer comparisons first: "<=" before "<".
    for comparison in [Comparison.atMost, .atLeast, .below, .above] {
      guard let range = trimmed.range(of: comparison.rawValue) else { continue }
      let name = String(trimmed[..<range.lowerBound])
      let number = String(trimmed[range.upperBound...])
      guard let figure = Figure(rawValue: name) else {
        let names = Figure.allCases.map(\.rawValue).joined(separator: ", ")
        throw LayoutCommand.usage(
          "--\(flag) '\(shownInMessage(text))': no figure '\(shownInMessage(name))'; the "
            + "figures are \(names)")
      }
      guard let value = parseDecimal(number), value.isFinite else {
        throw FlagValue(flag: flag, text: text).invalid(
          expected: "a finite number after \(comparison.rawValue)", example: "\(name)<=0.1")
      }
      return CheckLimit(figure: figure, comparison: comparison, value: value)
    }
    throw FlagValue(flag: flag, text: text).invalid(
      expected: "NAME<=V, NAME<V, NAME>=V or NAME>V", example: "maxDistortion<=0.1")
  }
}
