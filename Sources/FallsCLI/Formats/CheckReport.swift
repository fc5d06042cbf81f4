import FallsBase
import FallsCore
import FallsFeed
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

    /// How the value is compared, and with what: a rule's count must be at most 0.
    var bound: (comparison: CheckLimit.Comparison, value: Double) {
      limit.map { ($0.comparison, $0.value) } ?? (.atMost, 0)
    }

    var passed: Bool { bound.comparison.holds(value, bound.value) }

    /// The decimals the table shows the value with: a count none, a figure its own.
    var decimals: Int { limit?.figure.decimals ?? 0 }

    /// The value for people, with ``decimals`` decimals, or as many more (up to six, then
    /// whole) as it takes for the text to hold the check's verdict: `0.1000 <= 0.1` never
    /// stands for a value that fails.
    var valueText: String {
      let (comparison, bound) = self.bound
      for places in decimals...6 {
        let text = formatFixed(value, decimals: places)
        if let shown = Double(text), comparison.holds(shown, bound) == passed { return text }
      }
      return formatNumber(value)
    }
  }

  /// What is wrong behind a failed check.
  enum Problem: Sendable {
    /// Items (by feed index) that break a rule of the frames.
    case rule(FrameAudit.Problem.Rule, indices: [Int])
    /// An item whose image is not ok.
    case image(ProbedItem)
    /// An item skipped for its image (`--sizes` with `--skip-invalid`).
    case skipped(FeedItemProblem)
    /// A limit that does not hold.
    case limit(Check)

    /// The problem's `kind` in the document.
    var kind: String {
      switch self {
      case .rule: "rule"
      case .image: "image"
      case .skipped: "skipped"
      case .limit: "limit"
      }
    }

    /// The problem for people, or `nil` for a limit, which its check's line says.
    var message: String? {
      switch self {
      case .rule(let rule, let indices):
        FrameAudit.Problem(rule: rule, indices: indices).message
      case .image(let item):
        "image of item \(item.index) is \(item.status.words)"
          + (item.header == nil ? "" : ": declared \(item.declaredText), actual \(item.actualText)")
          + (item.error.map { ": \($0)" } ?? "") + " (\(item.img))"
      case .skipped(let problem): "image of \(problem.message)"
      case .limit: nil
      }
    }
  }

  var checks: [Check]
  var problems: [Problem]
  /// The items `--skip-invalid` skipped, or `nil` without it.
  var skipped: [FeedItemProblem]? = nil
  /// The page that failed, with `--keep-partial`, or `nil` when every page arrived.
  var failedPage: LayoutReport.FailedPage? = nil

  /// The JSON schema name of `--format json`: 2 since each limit and each problem is an object
  /// (in 1 a limit was a string such as `"<= 0.2"`, and a problem a sentence).
  static let schema = "falls.check/2"

  var passed: Bool { checks.allSatisfy(\.passed) }

  var failed: [Check] { checks.filter { !$0.passed } }

  /// The verdict: status 1 when a check failed, naming each; `nil` when every one passed.
  var verdict: CLIError? {
    guard !passed else { return nil }
    return .notAllPassed(
      "\(failed.count) of \(checks.count) checks failed: "
        + failed.map(\.name).joined(separator: ", "))
  }

  /// The problems, those of the failed limits last.
  var allProblems: [Problem] { problems + failed.filter { $0.limit != nil }.map(Problem.limit) }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if format == .json {
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"passed\":")
      out.appendBoolean(passed)
      out.appendLiteral(",\"checks\":")
      try out.appendJSONArray(checks) { check, out in out.appendCheck(check) }
      out.appendLiteral(",\"problems\":")
      try out.appendJSONArray(allProblems) { problem, out in out.appendProblem(problem) }
      try out.appendLeftOut(skipped: skipped, failedPage: failedPage)
      out.appendLiteral("}\n")
    } else {
      for check in checks {
        let value = check.valueText
        let words =
          check.limit.map { "\(check.name) \(value) \($0.text)" }
          ?? "\(check.name)" + (check.passed ? "" : ": \(value) problem\(value == "1" ? "" : "s")")
        out.append((check.passed ? "pass " : "FAIL ") + escapingControlCharacters(words) + "\n")
      }
      for problem in problems {
        guard let message = problem.message else { continue }
        out.append("  " + escapingControlCharacters(message) + "\n")
      }
      // What was left out is said with the verdict: a pass over skipped items is not a plain one.
      out.append(
        (passed
          ? "passed: \(checks.count) check\(checks.count == 1 ? "" : "s")"
          : "FAILED: \(failed.count) of \(checks.count) checks")
          + leftOutWords(skipped: skipped, failedPage: failedPage) + "\n")
    }
    try out.flush()
  }
}

extension OutputBuffer {
  /// A check's object: `{"name", "value", "limit": {"op", "value"}, "passed"}`.
  fileprivate mutating func appendCheck(_ check: CheckReport.Check) {
    appendLiteral("{\"name\":")
    appendJSONString(check.name)
    appendLiteral(",\"value\":")
    appendNumber(check.value)
    appendLiteral(",\"limit\":{\"op\":")
    appendJSONString(check.bound.comparison.rawValue)
    appendLiteral(",\"value\":")
    appendNumber(check.bound.value)
    appendLiteral("},\"passed\":")
    appendBoolean(check.passed)
    appendLiteral("}")
  }

  /// A problem's object: its `kind`, `index` or `indices`, and its kind's members.
  fileprivate mutating func appendProblem(_ problem: CheckReport.Problem) {
    appendLiteral("{\"kind\":")
    appendJSONString(problem.kind)
    switch problem {
    case .rule(let rule, let indices):
      appendLiteral(",\"rule\":")
      appendJSONString(rule.rawValue)
      appendLiteral(",\"indices\":[")
      for (position, index) in indices.enumerated() {
        if position > 0 { appendLiteral(",") }
        appendInteger(index)
      }
      appendLiteral("]}")
    case .image(let item):
      appendLiteral(",\"index\":")
      appendInteger(item.index)
      appendLiteral(",\"img\":")
      appendJSONString(item.img)
      appendLiteral(",\"status\":")
      appendJSONString(item.status.rawValue)
      appendLiteral(",\"declared\":")
      appendSize(item.declared)
      appendLiteral(",\"actual\":")
      appendSize(item.header.map { (Double($0.displayedWidth), Double($0.displayedHeight)) })
      appendLiteral(",\"error\":")
      if let error = item.error { appendJSONString(error) } else { appendLiteral("null") }
      appendLiteral("}")
    case .skipped(let skipped):
      appendLiteral(",")
      appendSkippedMembers(skipped)
      appendLiteral("}")
    case .limit(let check):
      appendLiteral(",\"check\":")
      appendCheck(check)
      appendLiteral("}")
    }
  }

  /// A size as `{"width", "height"}`, or `null`.
  fileprivate mutating func appendSize(_ size: (width: Double, height: Double)?) {
    guard let size else { return appendLiteral("null") }
    appendLiteral("{\"width\":")
    appendNumber(size.width)
    appendLiteral(",\"height\":")
    appendNumber(size.height)
    appendLiteral("}")
  }
}
