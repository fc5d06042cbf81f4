import FallsBase
import Foundation

/// What `falls check` found: each check with its value, and the problems behind failed ones.
struct CheckReport: Sendable {
  /// One check: a rule of the frames or of the images (counted problems, which must be none),
  /// or a limit on a figure.
  struct Check: Sendable {
    var name: String
    var value: Double
    /// The limit given, or `nil` for a rule, which holds with no problem.
    var limit: CheckLimit?

    var passed: Bool { limit.map { $0.comparison.holds(value, $0.value) } ?? (value == 0) }

    /// The limit as the report writes it: `<= 0.1`, or `0` for a rule.
    var limitText: String { limit?.text ?? "0" }
  }

  var checks: [Check]
  var problems: [String]

  /// The JSON schema name of `--format json`.
  static let schema = "falls.check/1"

  var passed: Bool { checks.allSatisfy(\.passed) }

  var failed: [Check] { checks.filter { !$0.passed } }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if format == .json {
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"passed\":")
      out.appendBoolean(passed)
      out.appendLiteral(",\"checks\":")
      try out.appendJSONArray(checks) { check, out in
        out.appendLiteral("{\"name\":")
        out.appendJSONString(check.name)
        out.appendLiteral(",\"value\":")
        out.appendNumber(check.value)
        out.appendLiteral(",\"limit\":")
        out.appendJSONString(check.limitText)
        out.appendLiteral(",\"passed\":")
        out.appendBoolean(check.passed)
        out.appendLiteral("}")
      }
      out.appendLiteral(",\"problems\":")
      try out.appendJSONArray(problems) { problem, out in out.appendJSONString(problem) }
      out.appendLiteral("}\n")
    } else {
      for check in checks {
        let value = formatNumber(check.value)
        let words =
          check.limit.map { "\(check.name) \(value) \($0.text)" }
          ?? "\(check.name)" + (check.passed ? "" : ": \(value) problem\(value == "1" ? "" : "s")")
        out.append((check.passed ? "pass " : "FAIL ") + escapingControlCharacters(words) + "\n")
      }
      for problem in problems { out.append("  " + escapingControlCharacters(problem) + "\n") }
      out.append(
        passed
          ? "passed: \(checks.count) check\(checks.count == 1 ? "" : "s")\n"
          : "FAILED: \(failed.count) of \(checks.count) checks\n")
    }
    try out.flush()
  }
}
