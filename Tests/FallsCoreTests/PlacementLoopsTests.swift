import FallsTestSupport
import Testing

@testable import FallsCore

@Suite struct PlacementLoopsTests {
  @Test(
    "The plain waterfall's own loop gives exactly what the general placement gives",
    arguments: 0..<10)
  func plainLoop(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let configuration = LayoutConfiguration(
      style: .waterfall, width: 200 + random.nextUnit() * 900, columns: 1 + Int(random.next() % 6),
      columnSpacing: random.nextUnit() * 12, rowSpacing: random.nextUnit() * 12,
      insets: EdgeInsets(all: random.nextUnit() * 20))
    var fast = try WaterfallLayout(configuration)
    var general = try WaterfallLayout(configuration)
    general.allowsPlainLoop = false
    for page in 0..<4 as Range<UInt64> {
      let items = GeneratedFeeds.items(count: 50, seed: seed &* 10 &+ page)
      try fast.append(items)
      try general.append(items)
    }
    #expect(fast.elements == general.elements)
    #expect(fast.columnBottoms == general.columnBottoms)
    #expect(fast.contentHeight == general.contentHeight)
    expectBlocksSpanTheirElements(fast)
    let rect = Rect(x: 0, y: 300, width: configuration.width, height: 500)
    #expect(fast.elements(in: rect) == general.elements(in: rect))
    // A bad item in the loop changes nothing, as in the general placement.
    #expect(throws: LayoutError.invalidItemSize(index: 201, width: 0, height: 1)) {
      try fast.append([LayoutItem(width: 1, height: 1), LayoutItem(width: 0, height: 1)])
    }
    #expect(fast.elements == general.elements)
    #expect(fast.elements(in: rect) == general.elements(in: rect))
  }

  @Test(
    "The irregular style's own loop gives exactly what the general placement gives",
    arguments: 0..<24)
  func sameAsGeneral(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 500)
    let configuration = LayoutConfiguration(
      style: .irregular, width: 200 + random.nextUnit() * 900, columns: 1 + Int(random.next() % 6),
      columnSpacing: random.nextUnit() * 12, rowSpacing: random.nextUnit() * 12,
      insets: EdgeInsets(all: random.nextUnit() * 20), seed: random.next(),
      enlargeChance: [0, 0.3, 0.67, 1][Int(random.next() % 4)],
      alignTolerance: [0, 0.2, 0.5, 0.9][Int(random.next() % 4)])
    var fast = try WaterfallLayout(configuration)
    var general = try WaterfallLayout(configuration)
    general.allowsPlainLoop = false
    #expect(fast.isPlainIrregular)
    var all: [LayoutItem] = []
    for page in 0..<5 as Range<UInt64> {
      // Pages of 1 to 80 items, every fifth a common size so that columns tie and bottoms meet.
      let items = GeneratedFeeds.items(count: 1 + Int(random.next() % 80), seed: seed &* 10 &+ page)
      all += items
      try fast.append(items)
      try general.append(items)
      #expect(fast.elements == general.elements)
      #expect(fast.columnBottoms == general.columnBottoms)
      #expect(fast.contentHeight == general.contentHeight)
    }
    // The same state carries on: the next page agrees too, and the rules hold throughout.
    let next = GeneratedFeeds.items(count: 40, seed: seed &+ 99)
    all += next
    try fast.append(next)
    try general.append(next)
    #expect(fast.elements == general.elements)
    #expect(
      fast.elements.contains(where: \.isEnlarged) == general.elements.contains(where: \.isEnlarged))
    let violations = LayoutChecker(configuration: configuration, items: all)
      .violations(of: fast.elements, contentHeight: fast.contentHeight)
    #expect(violations.isEmpty, "\(violations.prefix(3))")
    expectBlocksSpanTheirElements(fast)
    let rect = Rect(x: 0, y: 200, width: configuration.width, height: 600)
    #expect(fast.elements(in: rect) == general.elements(in: rect))
  }

  /// The rect query's blocks, as the loops record them, against their definition: each 64
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
    "A batch with a spanning item goes to the general placement whole, from the loop's state",
    arguments: [LayoutStyle.waterfall, .irregular])
  func spanningItemInBatch(style: LayoutStyle) throws {
    let configuration = LayoutConfiguration(style: style, columns: 4, enlargeChance: 1)
    var fast = try WaterfallLayout(configuration)
    var general = try WaterfallLayout(configuration)
    general.allowsPlainLoop = false
    let first = GeneratedFeeds.items(count: 30, seed: 3)
    try fast.append(first)
    try general.append(first)
    // Plain items (some enlarged in the irregular style), then one spanning two columns late in
    // the batch: the loop must leave no trace of the items it had placed before it.
    var batch = GeneratedFeeds.items(count: 40, seed: 4)
    batch[33].span = 2
    try fast.append(batch)
    try general.append(batch)
    #expect(fast.elements == general.elements)
    #expect(fast.enlargedRuns == general.enlargedRuns)
    #expect(fast.columnBottoms == general.columnBottoms)
    #expect(fast.elements[30 + 33].span == 2)
    #expect(fast.elements.count == 70)
    // And the loop takes the next plain batch on from there.
    let next = GeneratedFeeds.items(count: 25, seed: 5)
    try fast.append(next)
    try general.append(next)
    #expect(fast.elements == general.elements)
    let rect = Rect(x: 0, y: 0, width: configuration.width, height: fast.contentHeight)
    #expect(fast.elements(in: rect) == general.elements(in: rect))
  }

  @Test(
    "With every column level, each loop takes the leftmost, whatever the number of columns",
    arguments: [LayoutStyle.waterfall, .irregular], 1...9)
  func leftmostOnTies(style: LayoutStyle, columns: Int) throws {
    // One size throughout, so that columns tie again and again; no enlargement or alignment,
    // so that every row fills left to right.
    let configuration = LayoutConfiguration(
      style: style, columns: columns, rowSpacing: 8, enlargeChance: 0, alignTolerance: 0)
    let items = Array(repeating: LayoutItem(width: 3, height: 4), count: 5 * columns)
    var fast = try WaterfallLayout(configuration)
    var general = try WaterfallLayout(configuration)
    general.allowsPlainLoop = false
    try fast.append(items)
    try general.append(items)
    #expect(fast.elements.map(\.column) == items.indices.map { $0 % columns })
    #expect(fast.elements == general.elements)
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
    "The loops refuse every bad size with the general placement's error",
    arguments: [0, -1, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 1e308] as [Double])
  func badSizes(value: Double) throws {
    for style in [LayoutStyle.waterfall, .irregular] {
      for item in [
        LayoutItem(width: value, height: 100), LayoutItem(width: 100, height: value),
        LayoutItem(width: value, height: value),
      ] {
        let items = GeneratedFeeds.items(count: 5, seed: 8) + [item]
        var fast = try WaterfallLayout(LayoutConfiguration(style: style, columns: 3))
        var general = fast
        general.allowsPlainLoop = false
        var fastError: LayoutError?
        var generalError: LayoutError?
        do { try fast.append(items) } catch { fastError = error }
        do { try general.append(items) } catch { generalError = error }
        // Tiny and huge sizes are valid but make the height 0 or infinite: an overflow.
        // (Compared as text: an error that carries NaN is not equal to itself.)
        #expect(
          String(describing: fastError) == String(describing: generalError), "\(style) \(item)")
        #expect(fastError != nil || (value > 0 && value < .infinity), "\(style) \(item)")
        #expect(fast.elements == general.elements)
      }
    }
  }

  @Test(
    "The bit test for a finite positive height agrees with the comparisons",
    arguments: [
      0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1, -1,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan,
      .signalingNaN, Double.greatestFiniteMagnitude.nextDown, 1e-300,
    ] as [Double])
  func positiveAndFinite(value: Double) {
    #expect(isPositiveAndFinite(value) == (value > 0 && value.isFinite))
  }

  @Test("A page appended to a long layout adds its runs in place, copying no column's runs")
  func runsGrowInPlace() throws {
    let configuration = LayoutConfiguration(columns: 4, enlargeChance: 1)
    let first = GeneratedFeeds.items(count: 400, seed: 6)
    var layout = try WaterfallLayout(configuration, items: first)
    // Made on its own: a copy of `layout` would share its runs, and rightly copy them on change.
    var general = try WaterfallLayout(configuration)
    general.allowsPlainLoop = false
    try general.append(first)
    // Room for the page's runs, so that an append in place keeps each array's storage and a copy
    // (the runs shared between the loop's copies of its state) would move it.
    for column in layout.enlargedRuns.indices { layout.enlargedRuns[column].reserveCapacity(1_000) }
    func storage() -> [UnsafeRawPointer?] {
      layout.enlargedRuns.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    }
    let before = storage()
    let counts = layout.enlargedRuns.map(\.count)
    let page = GeneratedFeeds.items(count: 60, seed: 7)
    try layout.append(page)
    try general.append(page)
    #expect(layout.enlargedRuns == general.enlargedRuns)
    #expect(zip(layout.enlargedRuns, counts).contains { $0.count > $1 })
    #expect(storage() == before)
  }

  @Test("A bad item in the loop changes nothing, as in the general placement")
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
        return probe.enlargedRuns != before.enlargedRuns
      })
    #expect(throws: LayoutError.invalidItemSize(index: 42, width: 0, height: 1)) {
      try layout.append(good + [LayoutItem(width: 0, height: 1)])
    }
    #expect(layout.enlargedRuns == before.enlargedRuns)
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
}
