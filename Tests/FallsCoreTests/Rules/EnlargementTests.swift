import Testing

@testable import FallsCore

@Suite struct EnlargementTests {
  /// One case of the rule: the columns, where the item goes, and whether it is enlarged.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var bottoms: [Double]
    var flags: [UInt8]
    var runs: [[ClosedRange<Double>]] = [[], [], []]
    var column = 0
    var previousEnlarged: UInt8 = 0
    var enlarges: Bool
    var testDescription: String { name }
  }

  static let (empty, ends) = (ColumnState.empty, ColumnState.endsEnlarged)

  @Test(
    "Each condition of the rule, one at a time",
    arguments: [
      Case(
        name: "both empty", bottoms: [10, 10, 10], flags: [empty, empty, empty], enlarges: true),
      Case(name: "both level", bottoms: [90, 90, 50], flags: [0, 0, 0], enlarges: true),
      Case(name: "not level", bottoms: [90, 90.5, 50], flags: [0, 0, 0], enlarges: false),
      Case(name: "one empty", bottoms: [10, 10, 50], flags: [0, empty, 0], enlarges: false),
      Case(
        name: "the last column", bottoms: [50, 90, 90], flags: [0, 0, 0], column: 2,
        enlarges: false),
      Case(
        name: "after an enlarged item", bottoms: [90, 90, 50], flags: [0, 0, 0],
        previousEnlarged: ends, enlarges: false),
      Case(
        name: "on an enlarged item", bottoms: [90, 90, 50], flags: [0, ends, 0], enlarges: false),
      Case(
        name: "an enlarged run beside it", bottoms: [50, 90, 90], flags: [0, 0, 0],
        runs: [[60...200], [], []], column: 1, enlarges: false),
      Case(
        name: "a run beside it that ends at its top", bottoms: [50, 90, 90], flags: [0, 0, 0],
        runs: [[20...94], [], []], column: 1, enlarges: true),
      Case(
        name: "a run beside it that starts at its far end", bottoms: [90, 90, 50],
        flags: [0, 0, 0], runs: [[], [], [198...300]], enlarges: true),
      Case(
        name: "a run beside it that starts before its far end", bottoms: [90, 90, 50],
        flags: [0, 0, 0], runs: [[], [], [197...300]], enlarges: false),
    ])
  func conditions(_ rule: Case) {
    var runs = rule.runs
    // Top 94 (below a bottom of 90 with row spacing 4), height 50: enlarged, 104 tall, the
    // overlap test reaching 94 + 100 + 4 = 198.
    let top = rule.flags[rule.column] & ColumnState.empty != 0 ? 10 : rule.bottoms[rule.column] + 4
    withColumns(bottoms: rule.bottoms, flags: rule.flags) { view in
      runs.withUnsafeMutableBufferPointer { runs in
        var enlargement = Enlargement(generator: SplitMix64(seed: 1), chance: 1, runs: runs)
        let result = enlargement.enlarged(
          column: rule.column, bottom: rule.bottoms[rule.column], top: top, height: 50,
          previousEnlarged: rule.previousEnlarged, in: view)
        #expect((result != nil) == rule.enlarges)
        // The draw is made only when every other condition holds.
        let drew = enlargement.generator != SplitMix64(seed: 1)
        #expect(drew == rule.enlarges)
        if let result {
          #expect(result.extent == 2 * 50 + 4 && result.bottom == top + 104)
          #expect(enlargement.runs[rule.column].last == top...(top + 104))
          #expect(enlargement.runs[rule.column + 1].last == top...(top + 104))
        } else {
          #expect(Array(enlargement.runs) == rule.runs)
        }
      }
    }
  }

  @Test("The draw decides, and with chance 0 nothing is enlarged though the stream advances")
  func draw() {
    var runs: [[ClosedRange<Double>]] = [[], [], []]
    withColumns(bottoms: [10, 10, 10], flags: [1, 1, 1]) { view in
      runs.withUnsafeMutableBufferPointer { runs in
        var enlargement = Enlargement(generator: SplitMix64(seed: 1), chance: 0, runs: runs)
        let result = enlargement.enlarged(
          column: 0, bottom: 10, top: 10, height: 50, previousEnlarged: 0, in: view)
        #expect(result == nil)
        var expected = SplitMix64(seed: 1)
        _ = expected.next()
        #expect(enlargement.generator == expected)
      }
    }
  }
  @Test(
    "Whether stacked runs meet an extent is whether any run ends below its top and starts above its bottom",
    arguments: 0..<20)
  func runOverlaps(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<300 {
      // Runs stacked top to bottom, some touching (as enlarged items with no row spacing do),
      // and some very long, so that several can end below a top.
      var runs: [ClosedRange<Double>] = []
      var edge = random.nextUnit() * 50
      for _ in 0..<Int(random.next() % 9) {
        let start = edge + (random.next() % 3 == 0 ? 0 : random.nextUnit() * 100)
        let end = start + random.nextUnit() * (random.next() % 4 == 0 ? 1_000 : 100)
        runs.append(start...end)
        edge = end
      }
      // Extents anywhere from above the first run to below the last, some at a run's very edge.
      for _ in 0..<20 {
        var top = random.nextUnit() * (edge + 100) - 50
        if !runs.isEmpty, random.next() % 4 == 0 {
          let run = runs[Int(random.next() % UInt64(runs.count))]
          top = random.next() % 2 == 0 ? run.lowerBound : run.upperBound
        }
        let bottom = top + random.nextUnit() * 300
        let expected = runs.contains { $0.upperBound > top && $0.lowerBound < bottom }
        #expect(
          Enlargement.overlaps(runs, top: top, bottom: bottom) == expected,
          "\(runs) against \(top)..<\(bottom)")
      }
    }
  }
}
