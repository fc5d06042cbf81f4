import FallsCheckers
import Testing

@testable import FallsCore

extension WaterfallLayout {
  /// The columnar engine's enlarged runs, per column.
  var enlargedExtents: [[ClosedRange<Double>]] {
    get { (engine as? ColumnsEngine)?.enlargedExtents ?? [] }
    set {
      guard var columns = engine as? ColumnsEngine else { return }
      engine = EmptyEngine()
      columns.enlargedExtents = newValue
      engine = columns
    }
  }
}

/// A placeholder while an engine is changed in place.
private struct EmptyEngine: StyleEngine {
  mutating func append(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {}
  func contentExtent(elements: [LayoutElement]) -> Double { 0 }
  var columnBottoms: [Double?] { [] }
  var transforms: [Transform3D] { [] }
  var centers: [Point] { [] }
  var isIndexed: Bool { false }
}

/// `items` appended to a fresh layout of `configuration` in pages of `size`.
private func paged(_ configuration: LayoutConfiguration, _ items: [LayoutItem], size: Int) throws
  -> WaterfallLayout
{
  var layout = try WaterfallLayout(configuration)
  for start in stride(from: 0, to: items.count, by: size) {
    try layout.append(items[start..<min(start + size, items.count)])
  }
  return layout
}

@Suite struct ColumnsEngineTests {
  @Test(
    "The waterfall's loop obeys every rule, in pages of any size as at once",
    arguments: 0..<10)
  func plainLoop(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let configuration = LayoutConfiguration(
      style: .waterfall, width: 200 + random.nextUnit() * 900, columns: 1 + Int(random.next() % 6),
      columnSpacing: random.nextUnit() * 12, rowSpacing: random.nextUnit() * 12,
      insets: EdgeInsets(all: random.nextUnit() * 20))
    let items = GeneratedFeeds.items(count: 200, seed: seed &* 10)
    let whole = try WaterfallLayout(configuration, items: items)
    let violations = LayoutChecker(configuration: configuration, items: items)
      .violations(of: whole.elements, contentHeight: whole.contentHeight)
    #expect(violations.isEmpty, "\(violations.prefix(3))")
    expectBlocksSpanTheirElements(whole)
    for size in [1, 7, 50] {
      var pages = try paged(configuration, items, size: size)
      #expect(pages.elements == whole.elements)
      #expect(pages.columnBottoms == whole.columnBottoms)
      #expect(pages.contentHeight == whole.contentHeight)
      expectBlocksSpanTheirElements(pages)
      let rect = Rect(x: 0, y: 300, width: configuration.width, height: 500)
      #expect(pages.elements(in: rect) == whole.elements(in: rect))
      // A bad item in the loop changes nothing.
      #expect(throws: LayoutError.invalidItemSize(index: 201, width: 0, height: 1)) {
        try pages.append([LayoutItem(width: 1, height: 1), LayoutItem(width: 0, height: 1)])
      }
      #expect(pages.elements == whole.elements)
      #expect(pages.elements(in: rect) == whole.elements(in: rect))
    }
  }

  @Test(
    "The irregular style's loop obeys every rule, in pages of any size as at once",
    arguments: 0..<24)
  func irregularLoop(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 500)
    let configuration = LayoutConfiguration(
      style: .irregular, width: 200 + random.nextUnit() * 900, columns: 1 + Int(random.next() % 6),
      columnSpacing: random.nextUnit() * 12, rowSpacing: random.nextUnit() * 12,
      insets: EdgeInsets(all: random.nextUnit() * 20), seed: random.next(),
      enlargeChance: [0, 0.3, 0.67, 1][Int(random.next() % 4)],
      alignTolerance: [0, 0.2, 0.5, 0.9][Int(random.next() % 4)])
    var layout = try WaterfallLayout(configuration)
    var all: [LayoutItem] = []
    for page in 0..<6 as Range<UInt64> {
      // Pages of 1 to 80 items, every fifth a common size so that columns tie and bottoms meet.
      let items = GeneratedFeeds.items(count: 1 + Int(random.next() % 80), seed: seed &* 10 &+ page)
      all += items
      try layout.append(items)
      let whole = try WaterfallLayout(configuration, items: all)
      #expect(layout.elements == whole.elements)
      #expect(layout.columnBottoms == whole.columnBottoms)
      #expect(layout.contentHeight == whole.contentHeight)
      #expect(layout.enlargedExtents == whole.enlargedExtents)
    }
    let violations = LayoutChecker(configuration: configuration, items: all)
      .violations(of: layout.elements, contentHeight: layout.contentHeight)
    #expect(violations.isEmpty, "\(violations.prefix(3))")
    expectBlocksSpanTheirElements(layout)
    let rect = Rect(x: 0, y: 200, width: configuration.width, height: 600)
    #expect(
      layout.elements(in: rect) == layout.elements.filter { $0.frame.intersects(rect) })
  }

  /// The rect query's blocks, as the loop records them, against their definition: each 64
  /// consecutive elements reach from the lowest top of their frames to the highest bottom.
  private func expectBlocksSpanTheirElements(
    _ layout: WaterfallLayout, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let blocks = stride(from: 0, to: layout.elements.count, by: 64).map {
      layout.elements[$0..<min($0 + 64, layout.elements.count)]
    }
    #expect(
      layout.blockIndex.lows == blocks.map { $0.map(\.frame.y).min() ?? .nan },
      sourceLocation: sourceLocation)
    #expect(
      layout.blockIndex.highs == blocks.map { $0.map(\.frame.maxY).max() ?? .nan },
      sourceLocation: sourceLocation)
  }

  @Test(
    "A spanning item late in a batch is placed as it is one item at a time, from the same state",
    arguments: [LayoutStyle.waterfall, .irregular])
  func spanningItemInBatch(style: LayoutStyle) throws {
    let configuration = LayoutConfiguration(style: style, columns: 4, enlargeChance: 1)
    var batched = try WaterfallLayout(configuration)
    let first = GeneratedFeeds.items(count: 30, seed: 3)
    try batched.append(first)
    // Plain items (some enlarged in the irregular style), then one spanning two columns late in
    // the batch.
    var batch = GeneratedFeeds.items(count: 40, seed: 4)
    batch[33].span = 2
    try batched.append(batch)
    let single = try paged(configuration, first + batch, size: 1)
    #expect(batched.elements == single.elements)
    #expect(batched.enlargedExtents == single.enlargedExtents)
    #expect(batched.columnBottoms == single.columnBottoms)
    #expect(batched.elements[30 + 33].span == 2)
    #expect(batched.elements.count == 70)
    let violations = LayoutChecker(configuration: configuration, items: first + batch)
      .violations(of: batched.elements, contentHeight: batched.contentHeight)
    #expect(violations.isEmpty, "\(violations.prefix(3))")
    // And the next plain batch goes on from there.
    let next = GeneratedFeeds.items(count: 25, seed: 5)
    try batched.append(next)
    let all = try WaterfallLayout(configuration, items: first + batch + next)
    #expect(batched.elements == all.elements)
    let rect = Rect(x: 0, y: 0, width: configuration.width, height: batched.contentHeight)
    #expect(batched.elements(in: rect) == all.elements(in: rect))
  }

  @Test(
    "With every column level, the loop takes the leftmost, whatever the number of columns",
    arguments: [LayoutStyle.waterfall, .irregular], 1...9)
  func leftmostOnTies(style: LayoutStyle, columns: Int) throws {
    // One size throughout, so that columns tie again and again; no enlargement or alignment,
    // so that every row fills left to right.
    let configuration = LayoutConfiguration(
      style: style, columns: columns, rowSpacing: 8, enlargeChance: 0, alignTolerance: 0)
    let items = Array(repeating: LayoutItem(width: 3, height: 4), count: 5 * columns)
    let layout = try WaterfallLayout(configuration, items: items)
    #expect(layout.elements.map(\.column) == items.indices.map { $0 % columns })
    // And with the columns at different heights, the lowest: after a short item in column
    // `lowest`, a tall one in the columns to its left and a middling one in those to its right,
    // the next item goes to `lowest`; then, level with those to its right, to the first of them.
    for lowest in 0..<columns {
      var uneven = try WaterfallLayout(configuration)
      try uneven.append(
        (0..<columns).map {
          LayoutItem(width: 1, height: $0 < lowest ? 9 : $0 == lowest ? 1 : 3)
        })
      try uneven.append([LayoutItem(width: 1, height: 2), LayoutItem(width: 1, height: 1)])
      #expect(uneven.elements[columns].column == lowest)
      #expect(uneven.elements[columns + 1].column == (lowest + 1 < columns ? lowest + 1 : lowest))
    }
  }

  @Test(
    "The loop refuses every bad size with the error the rules give",
    arguments: [0, -1, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 1e308] as [Double])
  func badSizes(value: Double) throws {
    for style in [LayoutStyle.waterfall, .irregular] {
      let configuration = LayoutConfiguration(style: style, columns: 3, enlargeChance: 0)
      let good = GeneratedFeeds.items(count: 5, seed: 8)
      let before = try WaterfallLayout(configuration, items: good)
      // The sixth item's top, worked out from the columns the first five leave.
      let bottoms = before.columnBottoms.map { $0 ?? -.infinity }
      let top = (bottoms.min() ?? 0) + configuration.rowSpacing
      for item in [
        LayoutItem(width: value, height: 100), LayoutItem(width: 100, height: value),
        LayoutItem(width: value, height: value),
      ] {
        // The rules: a size must be finite and positive; its height in a column must be above 0
        // and at most 1e300, and must not be lost against its top.
        let height = configuration.columnWidth * item.height / item.width
        let expected: LayoutError? =
          !item.hasValidSize
          ? .invalidItemSize(index: 5, width: item.width, height: item.height)
          : !(height <= LayoutConfiguration.maximumExtent)
            ? .heightOverflow(index: 5)
            : height == 0 || top + height == top ? .heightUnderflow(index: 5) : nil
        var layout = before
        var thrown: LayoutError?
        do { try layout.append([item]) } catch { thrown = error }
        // (Compared as text: an error that carries NaN is not equal to itself.)
        #expect(String(describing: thrown) == String(describing: expected), "\(style) \(item)")
        #expect(layout.elements.count == (expected == nil ? 6 : 5))
        #expect(layout.elements.prefix(5) == before.elements[...])
      }
    }
  }

  @Test(
    "The bit test for a height above 0 and at most a limit agrees with the comparisons",
    arguments: [
      0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1, -1,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan,
      .signalingNaN, Double.greatestFiniteMagnitude.nextDown, 1e-300, 1e300, 1e300.nextUp,
    ] as [Double])
  func positiveAtMost(value: Double) {
    for limit in [1e300, .greatestFiniteMagnitude] {
      #expect(isPositive(value, atMost: limit) == (value > 0 && value <= limit))
    }
  }

  @Test("A page appended to a long layout adds its runs in place, copying no column's runs")
  func runsGrowInPlace() throws {
    let configuration = LayoutConfiguration(columns: 4, enlargeChance: 1)
    let first = GeneratedFeeds.items(count: 400, seed: 6)
    var layout = try WaterfallLayout(configuration, items: first)
    // Room for the page's runs, so that an append in place keeps each array's storage and a copy
    // (the runs shared between copies of the state) would move it.
    var runs = layout.enlargedExtents
    layout.enlargedExtents = []
    for column in runs.indices { runs[column].reserveCapacity(1_000) }
    layout.enlargedExtents = runs
    runs = []
    func storage() -> [UnsafeRawPointer?] {
      layout.enlargedExtents.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    }
    let before = storage()
    let counts = layout.enlargedExtents.map(\.count)
    let page = GeneratedFeeds.items(count: 60, seed: 7)
    try layout.append(page)
    let whole = try WaterfallLayout(configuration, items: first + page)
    #expect(layout.enlargedExtents == whole.enlargedExtents)
    #expect(zip(layout.enlargedExtents, counts).contains { $0.count > $1 })
    #expect(storage() == before)
  }

  @Test("A bad item in the loop changes nothing: elements, runs, bottoms, the random stream")
  func failure() throws {
    var layout = try WaterfallLayout(
      LayoutConfiguration(columns: 3, enlargeChance: 1),
      items: GeneratedFeeds.items(count: 30, seed: 1))
    let before = layout
    // Good items of which some are enlarged (adding runs), then a bad one.
    let good = try #require(
      (0..<100 as Range<UInt64>).lazy.map { GeneratedFeeds.items(count: 12, seed: $0) }.first {
        var probe = before
        try? probe.append($0)
        return probe.enlargedExtents != before.enlargedExtents
      })
    #expect(throws: LayoutError.invalidItemSize(index: 42, width: 0, height: 1)) {
      try layout.append(good + [LayoutItem(width: 0, height: 1)])
    }
    #expect(layout.enlargedExtents == before.enlargedExtents)
    #expect(throws: LayoutError.heightOverflow(index: 30)) {
      try layout.append([LayoutItem(width: 1, height: .greatestFiniteMagnitude)])
    }
    #expect(layout.elements == before.elements && layout.columnBottoms == before.columnBottoms)
    // And the next good page lands as on a layout that never saw the bad ones.
    var fresh = before
    let page = GeneratedFeeds.items(count: 10, seed: 2)
    try layout.append(page)
    try fresh.append(page)
    #expect(layout.elements == fresh.elements)
  }

  @Test(
    "An empty append changes nothing: the frames, what is held back, the layout of every later page and the flat end",
    arguments: [AlignmentStrategy.seed, .spread, .planned], [false, true])
  func emptyAppend(alignment: AlignmentStrategy, flatEnd: Bool) throws {
    for trial: UInt64 in 0..<20 {
      var random = SplitMix64(seed: trial &* 31 &+ 7)
      let items = GeneratedFeeds.items(count: 40 + Int(random.nextUnit() * 80), seed: trial)
      let configuration = LayoutConfiguration(
        style: .irregular, columns: 2 + Int(random.nextUnit() * 4), seed: trial,
        enlargeChance: 0.67, alignment: alignment, flatEnd: flatEnd)
      var (plain, padded) = (try WaterfallLayout(configuration), try WaterfallLayout(configuration))
      var start = 0
      while start < items.count {
        let end = min(items.count, start + 1 + Int(random.nextUnit() * 30))
        let page = Array(items[start..<end])
        try plain.append(page)
        try padded.append([])
        try padded.append(page)
        try padded.append([])
        #expect(padded.elements == plain.elements, "trial \(trial), page at \(start)")
        #expect(padded.heldBackCount == plain.heldBackCount, "trial \(trial), page at \(start)")
        start = end
      }
      plain.flattenEnd()
      padded.flattenEnd()
      #expect(padded.elements == plain.elements, "trial \(trial), the flat end")
    }
  }
}
