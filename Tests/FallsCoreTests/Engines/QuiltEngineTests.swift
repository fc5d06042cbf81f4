import FallsCheckers
import Testing

@testable import FallsCore

@Suite struct QuiltEngineTests {
  /// Three columns of 100 at x 10, 120, 230: W 340, spacing 10, insets 10.
  let grid = LayoutConfiguration(style: .grid, width: 340, columns: 3)

  @Test("The seed's quilt, worked out by hand, block after block")
  func gridByHand() throws {
    let layout = try WaterfallLayout(grid, items: squares(7))
    #expect(
      layout.elements.map(\.frame) == [
        Rect(x: 10, y: 10, width: 210, height: 210),
        Rect(x: 230, y: 10, width: 100, height: 100),
        Rect(x: 230, y: 120, width: 100, height: 100),
        Rect(x: 230, y: 230, width: 100, height: 100),
        Rect(x: 120, y: 230, width: 100, height: 100),
        Rect(x: 10, y: 230, width: 100, height: 100),
        // the next block starts one row spacing below the first: 10 + 3 · 110
        Rect(x: 10, y: 340, width: 210, height: 210),
      ])
    #expect(layout.elements.map(\.isEnlarged) == [true, false, false, false, false, false, true])
    #expect(layout.elements.map(\.span) == [2, 1, 1, 1, 1, 1, 2])
    #expect(layout.contentHeight == 560)
    #expect(layout.transforms.isEmpty && layout.centers.isEmpty)
  }

  @Test("A quilt of spans: 2x2,1x1,1x1 in three columns")
  func gridPattern() throws {
    var configuration = grid
    configuration.pattern = try QuiltPattern(spans: [(2, 2), (1, 1), (1, 1)], columns: 3)
    let layout = try WaterfallLayout(configuration, items: squares(4))
    #expect(
      layout.elements.map(\.frame) == [
        Rect(x: 10, y: 10, width: 210, height: 210),
        Rect(x: 230, y: 10, width: 100, height: 100),
        Rect(x: 230, y: 120, width: 100, height: 100),
        Rect(x: 10, y: 230, width: 210, height: 210),
      ])
  }

  @Test("Grid: 0, 1 and 2 items", arguments: [(0, 20.0), (1, 230.0), (2, 230.0)])
  func gridCounts(count: Int, contentHeight: Double) throws {
    let layout = try WaterfallLayout(grid, items: squares(count))
    #expect(layout.elements.count == count)
    #expect(layout.contentHeight == contentHeight)
  }

  @Test("Grid tiles never overlap and stay inside the width, for any pattern", arguments: 0..<30)
  func gridInvariants(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let columns = 1 + Int(random.next() % 5)
    let spans = (0..<(1 + Int(random.next() % 6))).map { _ in
      (columns: 1 + Int(random.next() % UInt64(columns)), rows: 1 + Int(random.next() % 3))
    }
    let configuration = LayoutConfiguration(
      style: .grid, width: 300 + random.nextUnit() * 500, columns: columns,
      columnSpacing: Double(random.next() % 3) * 4, rowSpacing: Double(random.next() % 3) * 4,
      pattern: try QuiltPattern(spans: spans, columns: columns))
    let layout = try WaterfallLayout(configuration, items: squares(40))
    let frames = layout.elements.map(\.frame)
    for (i, a) in frames.enumerated() {
      #expect(a.x >= 10 - 1e-9 && a.maxX <= configuration.width - 10 + 1e-9)
      #expect([a.x, a.y, a.width, a.height].allSatisfy { $0.isFinite })
      for b in frames[(i + 1)...] {
        let overlapX = min(a.maxX, b.maxX) - max(a.x, b.x)
        let overlapY = min(a.maxY, b.maxY) - max(a.y, b.y)
        #expect(overlapX <= 1e-9 || overlapY <= 1e-9, "\(a) overlaps \(b)")
      }
    }
    #expect(layout.contentHeight == (frames.map(\.maxY).max() ?? 10) + 10)
  }

  /// One column of square cells 656 across on a 1.5 grid (the fuzzer's case): row *k* starts at
  /// 20 + 655⅔ · *k*, which falls on a half grid step for odd *k*, so that a bottom from top +
  /// extent and the next top could round to either side.
  @Test("On a pixel grid a cell ends where the next begins, rows and axes alike")
  func gridCellsMeetOnThePixelGrid() throws {
    for axis in LayoutAxis.allCases {
      var configuration = LayoutConfiguration(
        style: .grid, width: axis == .vertical ? 28 + 1967 / 3 : 375, columns: 1,
        columnSpacing: 0, rowSpacing: 0,
        insets: EdgeInsets(top: 10, left: 20, bottom: 1, right: 8))
      configuration.pattern = try QuiltPattern(spans: [(1, 1)], columns: 1)
      configuration.axis = axis
      configuration.viewportHeight = 667
      configuration.scale = 1.5
      let layout = try WaterfallLayout(configuration, items: squares(15))
      let along = layout.elements.map {
        axis == .vertical ? ($0.frame.y, $0.frame.maxY) : ($0.frame.x, $0.frame.maxX)
      }
      for (upper, lower) in zip(along, along.dropFirst()) {
        #expect(
          upper.1 == lower.0, "\(axis): a cell ends at \(upper.1), the next starts at \(lower.0)")
      }
      // Every edge on the grid: 1.5 · edge a whole number.
      for (start, end) in along {
        #expect((start * 1.5).rounded() == start * 1.5 && (end * 1.5).rounded() == end * 1.5)
      }
    }
  }
}
