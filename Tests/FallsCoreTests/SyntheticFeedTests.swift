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
}
