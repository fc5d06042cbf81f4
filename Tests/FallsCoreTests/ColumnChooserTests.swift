import FallsTestSupport
import Testing

@testable import FallsCore

@Suite struct ColumnChooserTests {
  @Test(
    "The shortest start: the smallest largest bottom under a span, leftmost on ties",
    arguments: 1...7)
  func shortest(columns: Int) {
    var random = SplitMix64(seed: UInt64(columns))
    for _ in 0..<200 {
      // Bottoms from a handful of values, so that ties are common.
      let bottoms = (0..<columns).map { _ in 10 + Double(random.next() % 4) * 25 }
      for span in 1...columns {
        // Worked out plainly: each start's largest bottom, then the first of the smallest.
        let tops = (0...(columns - span)).map { bottoms[$0..<$0 + span].max() ?? 0 }
        let lowest = tops.min() ?? 0
        let expected = tops.firstIndex(of: lowest) ?? -1
        withColumns(bottoms: bottoms, flags: Array(repeating: 0, count: columns)) { view in
          let chosen = Shortest(cursor: 0).column(span: span, in: view)
          #expect(chosen.column == expected && chosen.bottom == lowest, "\(bottoms) span \(span)")
        }
      }
    }
  }

  @Test(
    "Within a tolerance: the first tied start at or after the cursor, else the first tied",
    arguments: [
      // Bottoms 100, 105, 90, 120 with tolerance 20: 0, 1 and 2 are tied (within 110).
      (0, 1, 0), (1, 1, 1), (2, 1, 2), (3, 1, 0), (3, 2, 0), (2, 2, 2),
    ])
  func tolerance(cursor: Int, span: Int, expected: Int) {
    withColumns(bottoms: [100, 105, 90, 120], flags: [0, 0, 0, 0]) { view in
      var chooser = WithinTolerance(tolerance: 20, cursor: cursor)
      // Spans of two: starts 0 (105), 1 (105), 2 (120); the lowest 105, all within 125.
      #expect(chooser.column(span: span, in: view).column == expected)
      chooser.placed(column: expected, span: span, count: 4)
      #expect(chooser.cursor == (expected + span) % 4)
    }
  }

  @Test(
    "In turn: from the left or the right, starting over where a span does not fit",
    arguments: [
      (false, 0, 1, 0, 1), (false, 3, 1, 3, 0), (false, 3, 2, 0, 2), (false, 2, 2, 2, 0),
      (true, 0, 1, 3, 1), (true, 3, 1, 0, 0), (true, 3, 2, 2, 2), (true, 1, 2, 1, 3),
    ])
  func inTurn(isFromRight: Bool, cursor: Int, span: Int, column: Int, nextCursor: Int) {
    withColumns(bottoms: [40, 30, 20, 10], flags: [0, 0, 0, 0]) { view in
      var chooser = InTurn(isFromRight: isFromRight, cursor: cursor)
      let chosen = chooser.column(span: span, in: view)
      #expect(chosen.column == column)
      #expect(chosen.bottom == [40.0, 30, 20, 10][column..<column + span].max())
      chooser.placed(column: column, span: span, count: 4)
      #expect(chooser.cursor == nextCursor)
    }
  }
}
