import Testing

@testable import FallsCore

@Suite struct PlannerTests {
  /// left, right, both tails' sums, the line and the distortion, worked by hand.
  private static let meetings: [(Double, Double, (Double, Double), Double, Double)] = [
    (100, 103, (100, 103), 100 + 300 / 203.0, 3 / 203.0),
    (103, 100, (103, 100), 103 - 309 / 203.0, 3 / 203.0),
    // A column with no tail stays; the other meets it exactly.
    (100, 102, (0, 100), 100, 0.02), (102, 100, (100, 0), 100, 0.02),
  ]

  @Test(
    "Two columns meet where both tails take the same distortion, |gap| / (both sums)",
    arguments: meetings)
  func meeting(
    left: Double, right: Double, sums: (Double, Double), line: Double, distortion: Double
  ) throws {
    let met = try #require(
      Planner.meeting(left, right, gap: left - right, sums: sums, bound: 0.03))
    #expect(abs(met.line - line) < 1e-12 && abs(met.distortion - distortion) < 1e-15)
  }

  @Test(
    "No meeting past the bound, for no gap, or with no tail on either side",
    arguments: [
      (100.0, 107.0, (100.0, 103.0)), (100.0, 100.0, (100.0, 100.0)),
      (100.0, 101.0, (0.0, 0.0)), (100.0, 100.0 + 1e-12, (100.0, 100.0)),
    ])
  func noMeeting(left: Double, right: Double, sums: (Double, Double)) {
    #expect(Planner.meeting(left, right, gap: left - right, sums: sums, bound: 0.03) == nil)
  }
}
