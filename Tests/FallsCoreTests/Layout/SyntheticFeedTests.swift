import FallsCore
import Testing

@Suite struct SyntheticFeedTests {
  @Test(
    "In the waterfall style the heights lie between the minimum and maximum, at any width",
    arguments: 0..<20)
  func heightsInRange(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let width = 100 + random.nextUnit() * 2000
    let columns = 1 + Int(random.next() % 7)
    let minimum = 1 + random.nextUnit() * 200
    let maximum = minimum + random.nextUnit() * 300
    let configuration = LayoutConfiguration(
      style: .waterfall, width: width, columns: columns, columnSpacing: 3.3, seed: seed)
    let items = SyntheticFeed.items(
      count: 500, seed: seed, minimumHeight: minimum, maximumHeight: maximum,
      columnWidth: configuration.columnWidth)
    let layout = try WaterfallLayout(configuration, items: items)
    let heights = layout.elements.map(\.frame.height)
    #expect(heights.count == 500)
    #expect(heights.allSatisfy { $0 >= minimum && $0 <= maximum })
    // Spread over the range, not stuck at one end.
    let middle = (minimum + maximum) / 2
    #expect(heights.contains { $0 < middle } && heights.contains { $0 > middle })
  }

  @Test(
    "Along a horizontal axis the lengths lie in the range, wherever the width is",
    arguments: [375.0, 5, 1e-3])
  func horizontalLengthsInRange(width: Double) throws {
    // Rows across the viewport's height: the width does not bound them, and may leave no room
    // for columns across it.
    let configuration = LayoutConfiguration(
      style: .waterfall, width: width, columns: 3, axis: .horizontal)
    var generator = SyntheticFeed.Generator(
      seed: 5, minimumHeight: 100, maximumHeight: 250,
      columnWidth: configuration.working.columnWidth, axis: .horizontal)
    let items = generator.items(count: 300)
    #expect(items.allSatisfy { $0.height == configuration.working.columnWidth })
    let layout = try WaterfallLayout(configuration, items: items)
    #expect(layout.elements.allSatisfy { (100...250).contains($0.frame.width) })
  }

  @Test("The defaults are the seed's 100 to 250 points")
  func defaults() throws {
    #expect(SyntheticFeed.defaultMinimumHeight == 100 && SyntheticFeed.defaultMaximumHeight == 250)
    let items = SyntheticFeed.items(count: 100, seed: 1, columnWidth: 111.5)
    #expect(items.allSatisfy { $0.width == 111.5 && $0.height >= 100 && $0.height <= 250 })
  }

  @Test("The same seed gives the same items; another seed other items")
  func determinism() {
    let a = SyntheticFeed.items(count: 50, seed: 7, columnWidth: 100)
    #expect(a == SyntheticFeed.items(count: 50, seed: 7, columnWidth: 100))
    #expect(a != SyntheticFeed.items(count: 50, seed: 8, columnWidth: 100))
  }

  @Test("Equal bounds give that height; zero items give none")
  func edges() {
    let items = SyntheticFeed.items(
      count: 10, seed: 3, minimumHeight: 42, maximumHeight: 42, columnWidth: 77.7)
    #expect(items.allSatisfy { 77.7 * $0.height / 77.7 == 42 })
    #expect(SyntheticFeed.items(count: 0, seed: 3, columnWidth: 10).isEmpty)
  }

  @Test(
    "Items read by position, in any order, are the items the generator gives in turn",
    arguments: [0, 1, 7, 1000])
  func itemsByPosition(count: Int) {
    var generator = SyntheticFeed.Generator(
      seed: 5, minimumHeight: 10, maximumHeight: 900, columnWidth: 123.4)
    _ = generator.next()
    let items = SyntheticFeed.Items(generator, count: count)
    #expect(items.count == count)
    #expect(Array(items) == generator.items(count: count))
    #expect(items.indices.reversed().map { items[$0] } == Array(items).reversed())
  }

  @Test(
    "A page of generated items lays out as the same items in an array, in every style",
    arguments: LayoutStyle.allCases)
  func generatedPage(style: LayoutStyle) throws {
    var configuration = LayoutConfiguration(style: style, seed: 9)
    if style == .irregular { configuration.alignment = .spread }
    let generator = SyntheticFeed.Generator(
      seed: 9, minimumHeight: 100, maximumHeight: 250, columnWidth: configuration.columnWidth)
    var lazy = try WaterfallLayout(configuration)
    try lazy.append(SyntheticFeed.Items(generator, count: 500))
    var copy = generator
    let eager = try WaterfallLayout(configuration, items: copy.items(count: 500))
    #expect(lazy.elements == eager.elements)
    #expect(lazy.contentSize == eager.contentSize)
    #expect(lazy.transforms == eager.transforms)
    guard style == .irregular else { return }
    // The flat end places the last page again: from generated items as from the array.
    configuration.flatEnd = true
    var flatLazy = try WaterfallLayout(configuration)
    try flatLazy.append(SyntheticFeed.Items(generator, count: 500))
    flatLazy.flattenEnd()
    copy = generator
    var flatEager = try WaterfallLayout(configuration, items: copy.items(count: 500))
    flatEager.flattenEnd()
    #expect(flatLazy.elements == flatEager.elements)
    #expect(flatLazy.elements != lazy.elements)
  }
}
