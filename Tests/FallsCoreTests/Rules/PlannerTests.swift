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

  @Test(
    "The whole-tail filter never drops a pair that meets over parts of its tails, and drops one past the bound (10,000 draws)"
  )
  func wholeTailFilter() {
    var random = SplitMix64(seed: 34)
    for _ in 0..<10_000 {
      // Tails of up to three items from 1 to 1,000 pt; the parts a levelling moves are the
      // newest items of each, their sums at most the whole's.
      func tail() -> (whole: Double, part: Double) {
        let heights = (0..<1 + Int(random.nextUnit() * 3)).map { _ in 1 + random.nextUnit() * 999 }
        let kept = Int(random.nextUnit() * Double(heights.count + 1))
        return (heights.reduce(0, +), heights.suffix(kept).reduce(0, +))
      }
      let (a, b) = (tail(), tail())
      let bound = 0.001 + random.nextUnit() * 0.099
      let left = random.nextUnit() * 1e6
      let gap = (random.nextUnit() * 2 - 1) * bound * (a.whole + b.whole) * 1.5
      let met = Planner.meeting(left, left - gap, gap: gap, sums: (a.part, b.part), bound: bound)
      let passes = Planner.mayMeet(gap: gap, wholeTails: a.whole + b.whole, bound: bound)
      #expect(met == nil || passes, "gap \(gap), tails \(a) \(b), bound \(bound)")
      // Past the bound over the whole tails by a visible margin: dropped.
      if abs(gap) > bound * (a.whole + b.whole) * 1.001 { #expect(!passes) }
    }
  }

  @Test(
    "A pair's shorter tails, oldest items left out, fewest first: only those within the bound (worked by hand)"
  )
  func shortenedTails() throws {
    var planner = Planner(columns: 2, state: PlanState(seed: 1), bound: 0.03)
    let length = PlannedAlignment.tailLength
    // Column 0's tail is 100, 50, 40 pt; column 1's 60, 30 pt; they end at 300 and 306.
    planner.tailCount = [3, 2]
    for (slot, natural) in [100.0, 50, 40].enumerated() { planner.tailNatural[slot] = natural }
    for (slot, natural) in [60.0, 30].enumerated() { planner.tailNatural[length + slot] = natural }
    var state = ColumnState(LayoutConfiguration(style: .irregular, width: 375, columns: 2))
    let variants = state.withView(insetTop: 10, rowSpacing: 10) { view in
      view.bottoms[0] = 300
      view.bottoms[1] = 306
      let whole = Planner.Levelling(
        left: 0, line: 300 + 6 * 190 / 280.0, distortion: 6 / 280.0, firsts: (0, 0),
        sums: (190, 90))
      return planner.shortened(whole, view: view)
    }
    // Leaving out 60 pt: 6 / (190 + 30) = 2.7%. Every other choice is past 3%: 6 / 180 (50 and
    // 40 against 90), 6 / 190 (column 0 alone), and less.
    #expect(variants.map(\.firsts.0) == [0] && variants.map(\.firsts.1) == [1])
    let shorter = try #require(variants.last)
    #expect(shorter.sums == (190, 30))
    #expect(abs(shorter.distortion - 6 / 220.0) < 1e-15)
    #expect(abs(shorter.line - (300 + 6 * 190 / 220.0)) < 1e-12)
  }
}

extension PlannerTests {
  /// A planner of 3 columns whose plan levelled the pair from column 0 before item 10, which
  /// waits for its enlargement, and has its second levelling before item `then` on the pair
  /// from column 1.
  private static func following(then: Int) -> Planner {
    var planner = Planner(columns: 3, state: PlanState(seed: 1), bound: 0.03)
    planner.state.waiting = 0
    planner.thenAt = then
    planner.thenLeft = 1
    return planner
  }

  @Test(
    "After the enlargement its first levelling was for, a plan waits for its second levelling, if that is still to come",
    arguments: [(12, 12, 1), (11, 0, -1), (10, 0, -1)])
  func followsItsSecondLevelling(then: Int, wakeAt: Int, plannedLeft: Int) {
    var planner = Self.following(then: then)
    var state = ColumnState(LayoutConfiguration(style: .irregular, width: 375, columns: 3))
    state.withView(insetTop: 0, rowSpacing: 10) { view in
      // The enlarged item, offset 11, across columns 0 and 1.
      planner.record(
        Placement(column: 0, span: 1, extent: 300, natural: 0, isEnlarged: true), offset: 11,
        top: 0, cursor: 0, before: view)
    }
    #expect(planner.wakeAt == wakeAt && planner.plannedLeft == plannedLeft)
    #expect(planner.thenAt == -1, "followed once")
  }

  @Test("An enlargement other than the one the levelled pair waits for ends the plan")
  func otherEnlargementEndsThePlan() {
    var planner = Self.following(then: 15)
    var state = ColumnState(LayoutConfiguration(style: .irregular, width: 375, columns: 3))
    state.withView(insetTop: 0, rowSpacing: 10) { view in
      // Enlarged across columns 1 and 2, while the pair from column 0 waits.
      planner.record(
        Placement(column: 1, span: 1, extent: 300, natural: 0, isEnlarged: true), offset: 11,
        top: 0, cursor: 0, before: view)
    }
    #expect(planner.wakeAt == 0 && planner.plannedLeft == -1 && planner.thenAt == -1)
  }

  @Test("A one-column placement leaves the second levelling waiting for the enlargement")
  func keepsItsSecondLevelling() {
    var planner = Self.following(then: 15)
    var state = ColumnState(LayoutConfiguration(style: .irregular, width: 375, columns: 3))
    state.withView(insetTop: 0, rowSpacing: 10) { view in
      planner.record(
        Placement(column: 2, span: 1, extent: 100, natural: 100, isEnlarged: false), offset: 11,
        top: 0, cursor: 0, before: view)
    }
    #expect(planner.thenAt == 15 && planner.thenLeft == 1)
  }
}
