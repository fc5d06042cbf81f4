import Testing

@testable import FallsCore

@Suite struct LookAheadTests {
  /// Items seen (natural extent, span) and the mean the look-ahead imagines after them, worked
  /// by hand: only one-column items that can be placed count, and only the last 20 seen.
  private static let imagined: [([(Double, Int)], Double)] = [
    ([(100, 1), (300, 1)], 200),
    ([(100, 1), (900, 2), (.nan, 1), (-5, 1), (300, 1)], 200),
    ([(100, 1)] + Array(repeating: (50, 1), count: 20), 50),
    ([(100, 1)] + Array(repeating: (50, 1), count: 19), 52.5),
  ]

  @Test(
    "An item not yet received is imagined at the mean of the last 20 one-column items seen",
    arguments: imagined)
  func imaginedNatural(seen: [(Double, Int)], mean: Double) {
    var planner = Planner(columns: 3, state: PlanState(seed: 1), bound: 0.03)
    for (natural, span) in seen { planner.see(natural: natural, span: span) }
    #expect(abs(planner.imaginedNatural() - mean) < 1e-12)
  }

  @Test("With no one-column item seen, nothing is imagined: the look-ahead stops with the items")
  func nothingImagined() {
    var planner = Planner(columns: 3, state: PlanState(seed: 1), bound: 0.03)
    #expect(planner.imaginedNatural().isNaN)
    planner.see(natural: 400, span: 2)
    planner.see(natural: .infinity, span: 1)
    #expect(planner.imaginedNatural().isNaN)
  }
}
