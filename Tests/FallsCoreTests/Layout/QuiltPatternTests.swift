import FallsCore
import Testing

private func positions(_ pattern: QuiltPattern) -> [[Int]] {
  pattern.tiles.map { [$0.column, $0.row, $0.columnSpan, $0.rowSpan] }
}

@Suite struct QuiltPatternTests {
  @Test("The seed's block: big square at the left, three down the right, two along the bottom")
  func seed() {
    let seed = QuiltPattern.seed
    #expect(seed.columns == 3 && seed.rows == 3)
    #expect(
      positions(seed) == [
        [0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1], [2, 2, 1, 1], [1, 2, 1, 1], [0, 2, 1, 1],
      ])
  }

  @Test(
    "Spans are placed at the first place they fit, top row first, then leftmost",
    arguments: [
      ([(2, 2), (1, 1), (1, 1)], 3, [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]], 2),
      // the 2×2 cannot fit beside the first square: it goes below and leaves a hole
      ([(1, 1), (2, 2)], 2, [[0, 0, 1, 1], [0, 1, 2, 2]], 3),
      (
        [(1, 1), (1, 1), (1, 1), (1, 1)], 2,
        [[0, 0, 1, 1], [1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 1, 1]], 2
      ),
      (
        [(1, 3), (1, 1), (1, 1), (1, 1)], 2,
        [[0, 0, 1, 3], [1, 0, 1, 1], [1, 1, 1, 1], [1, 2, 1, 1]], 3
      ),
    ] as [([(Int, Int)], Int, [[Int]], Int)])
  func firstFit(spans: [(Int, Int)], columns: Int, expected: [[Int]], rows: Int) throws {
    let pattern = try QuiltPattern(
      spans: spans.map { (columns: $0.0, rows: $0.1) }, columns: columns)
    #expect(positions(pattern) == expected)
    #expect(pattern.rows == rows)
  }

  @Test("Bad spans and tiles are refused")
  func errors() {
    #expect(throws: QuiltError.empty) { try QuiltPattern(spans: [], columns: 3) }
    #expect(throws: QuiltError.invalidSpan(index: 1)) {
      try QuiltPattern(spans: [(1, 1), (0, 1)], columns: 3)
    }
    #expect(throws: QuiltError.outOfBounds(index: 0, columns: 2)) {
      try QuiltPattern(spans: [(3, 1)], columns: 2)
    }
    #expect(throws: QuiltError.overlap(index: 1)) {
      try QuiltPattern(
        columns: 2,
        tiles: [
          QuiltTile(column: 0, row: 0, columnSpan: 2, rowSpan: 1),
          QuiltTile(column: 1, row: 0, columnSpan: 1, rowSpan: 1),
        ])
    }
    #expect(throws: QuiltError.outOfBounds(index: 0, columns: 2)) {
      try QuiltPattern(columns: 2, tiles: [QuiltTile(column: 1, row: 0, columnSpan: 2, rowSpan: 1)])
    }
  }

  @Test("Tiles placed by hand make the same quilt as their spans when they agree")
  func explicitTiles() throws {
    let pattern = try QuiltPattern(
      columns: 3,
      tiles: QuiltPattern.seed.tiles)
    #expect(pattern == QuiltPattern.seed)
  }
}
