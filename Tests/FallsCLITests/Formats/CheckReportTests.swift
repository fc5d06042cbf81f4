import Testing

@testable import FallsCLI

@Suite struct CheckReportTests {
  /// A check of `figure` whose value is `value` against `comparison` `limit`.
  private func check(
    _ figure: CheckLimit.Figure, _ value: Double, _ comparison: CheckLimit.Comparison,
    _ limit: Double
  ) -> CheckReport.Check {
    CheckReport.Check(
      name: figure.rawValue, value: value,
      limit: CheckLimit(figure: figure, comparison: comparison, value: limit))
  }

  @Test(
    "A figure shows its decimals: a share four, points two, a count none",
    arguments: [
      (CheckLimit.Figure.maxDistortion, 0.07461691542288565, "0.0746"),
      (.coverage, 0.5, "0.5000"),
      (.contentHeight, 3612.316169508379, "3612.32"),
      (.items, 24, "24"),
      (.skipped, 0, "0"),
    ])
  func decimals(figure: CheckLimit.Figure, value: Double, expected: String) {
    #expect(check(figure, value, .atLeast, -1).valueText == expected)
  }

  @Test(
    "More decimals where fewer would show a value on the wrong side of its limit",
    arguments: [
      // 0.10004 fails <= 0.1, but 0.1000 would pass: five decimals show it.
      (0.10004, CheckLimit.Comparison.atMost, 0.1, "0.10004", false),
      (0.09996, .atLeast, 0.1, "0.09996", false),
      (0.1, .atMost, 0.1, "0.1000", true),
      // Past six decimals, the shortest exact form.
      (0.1 + 1e-12, .atMost, 0.1, (0.1 + 1e-12).description, false),
    ])
  func verdictKept(
    value: Double, comparison: CheckLimit.Comparison, limit: Double, expected: String,
    passes: Bool
  ) {
    let check = check(.maxDistortion, value, comparison, limit)
    #expect(check.passed == passes)
    #expect(check.valueText == expected)
  }

  @Test("A rule holds with no problem: its bound is at most 0")
  func rule() {
    let broken = CheckReport.Check(name: "noOverlap", value: 2, limit: nil)
    #expect(!broken.passed && broken.valueText == "2")
    #expect(CheckReport.Check(name: "noOverlap", value: 0, limit: nil).passed)
    #expect(broken.bound.comparison == .atMost && broken.bound.value == 0)
  }

  @Test("The document names version 2, and the problems of failed limits follow the others")
  func problemsOrder() {
    let limit = check(.items, 3, .atLeast, 20)
    let report = CheckReport(
      checks: [CheckReport.Check(name: "noOverlap", value: 1, limit: nil), limit],
      problems: [.rule(.noOverlap, indices: [3, 7])])
    #expect(CheckReport.schema == "falls.check/2")
    #expect(report.allProblems.map(\.kind) == ["rule", "limit"])
    #expect(report.allProblems.first?.message == "items 3 and 7 overlap")
    #expect(report.allProblems.last?.message == nil)
  }
}
