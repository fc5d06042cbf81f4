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
    "Bottoms a few ulps apart tie and go to the leftmost column; 2^16 ulps apart, they do not",
    arguments: 1...7)
  func nearTies(columns: Int) {
    var random = SplitMix64(seed: 99 + UInt64(columns))
    for _ in 0..<200 {
      // A short binary number: its encoding ends in 16 zero bits.
      let shared = (10 + random.nextUnit() * 5_000).bitPattern & ~0xFFFF
      let bottoms = (0..<columns).map { _ in
        // Up to 3 ulps either side of it: noise, so every column ties.
        Double(bitPattern: shared + random.next() % 7 &- 3)
      }
      withColumns(bottoms: bottoms, flags: Array(repeating: 0, count: columns)) { view in
        #expect(Shortest(cursor: 0).column(span: 1, in: view).column == 0, "\(bottoms)")
      }
      // The last column clearly lower: a whole step of 2^16 ulps below the others.
      var lower = bottoms
      lower[columns - 1] = Double(bitPattern: shared - 0x1_0000)
      #expect(tieKey(lower[columns - 1]) < tieKey(bottoms[0]))
      #expect(Set(bottoms.map(tieKey)).count == 1)
      withColumns(bottoms: lower, flags: Array(repeating: 0, count: columns)) { view in
        #expect(Shortest(cursor: 0).column(span: 1, in: view).column == columns - 1)
      }
    }
  }

  @Test(
    "Image sizes that differ by one part in 1,000 are laid out as exact arithmetic lays them",
    arguments: 2...5, [0, 1])
  func alternatingSizes(columns: Int, offset: Int) throws {
    // 700×1000 and 700×1001 in columns of (375 − 20 − 10 · (c − 1)) / c pt: every height, the
    // inset and the spacing are whole multiples of 1/(700 · c) pt, so the bottoms are integers in
    // those units, and exact arithmetic decides each shortest column, ties leftmost.
    let sizes = [1_000, 1_001]
    let items = (0..<300).map {
      LayoutItem(width: 700, height: Double(sizes[($0 + offset) % 2]))
    }
    let layout = try WaterfallLayout(
      LayoutConfiguration(style: .waterfall, columns: columns), items: items)
    let gap = 10 * 700 * columns
    let width = 355 - 10 * (columns - 1)  // the column width is width / c pt
    var bottoms: [Int?] = Array(repeating: nil, count: columns)
    for (index, element) in layout.elements.enumerated() {
      let tops = bottoms.map { ($0 ?? 0) + gap }
      let column = tops.firstIndex(of: tops.min() ?? 0) ?? -1
      #expect(element.column == column, "item \(index)")
      bottoms[column] = tops[column] + width * sizes[(index + offset) % 2]
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
