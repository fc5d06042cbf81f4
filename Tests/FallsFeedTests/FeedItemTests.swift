import FallsCore
import Testing

@testable import FallsFeed

@Suite struct FeedItemTests {
  @Test("An item's layout size is its image size")
  func layoutItem() {
    let item = FeedItem(index: 4, img: "https://example.com/a.jpg", width: 1200, height: 2249)
    #expect(item.layoutItem == LayoutItem(width: 1200, height: 2249))
  }

  @Test("A feed keeps items and problems apart")
  func feed() {
    let problem = FeedItemProblem(index: 1, field: .width, value: nil, reason: .missing)
    let feed = Feed(items: [FeedItem(index: 0, img: "a", width: 1, height: 1)], problems: [problem])
    #expect(feed.items.count == 1 && feed.problems == [problem])
    #expect(Feed(items: []).problems.isEmpty)
  }

  private static let samples = [
    FeedItem(index: 0, img: "https://a.example/1.jpg", width: 1200, height: 2249),
    FeedItem(index: 2, img: "", width: 1, height: 0.5, span: 2),
    FeedItem(index: 3, img: "café 瀑布流 😀 \"q\"", width: 7.25, height: 3, span: LayoutItem.fullSpan),
    FeedItem(index: 9, img: "x", width: 3, height: 4),
  ]

  @Test("Stored by field, items read back as they were given, one by one or in runs")
  func storage() {
    let items = FeedItems(Self.samples)
    #expect(Array(items) == Self.samples)
    #expect(items.count == 4 && items.feedIndex(at: 3) == 9 && items.span(at: 2) == .max)
    #expect(items.layoutItems(1..<3) == Self.samples[1..<3].map(\.layoutItem))
    for (position, item) in Self.samples.enumerated() {
      #expect(items.withImage(at: position) { Array($0) } == Array(item.img.utf8))
    }
    // Appending a run, or joining two, is appending their items one by one.
    for split in 0...4 {
      var joined = FeedItems(Self.samples[..<split])
      joined.append(contentsOf: FeedItems(Self.samples[split...]))
      #expect(joined == items)
      let first = FeedItems(Self.samples[..<split])
      let second = FeedItems(Self.samples[split...])
      #expect(FeedItems.joined(first, second) == items)
    }
    var trimmed = items
    trimmed.reserveCapacity(100, imageByteCount: 1_000)
    trimmed.trimCapacity()
    #expect(trimmed == items)
  }

  @Test("Feed indices with gaps are kept; the same items are equal however they were built")
  func gaps() {
    let gapped = [0, 1, 5, 6].map { FeedItem(index: $0, img: "i\($0)", width: 1, height: 1) }
    var items = FeedItems(gapped)
    #expect(items.map(\.index) == [0, 1, 5, 6])
    // Removing the item after the gap's start leaves 0, 5, 6; removing 0 then leaves 5, 6,
    // consecutive again, equal to items built as 5, 6.
    items.remove(at: 1)
    #expect(items.map(\.index) == [0, 5, 6])
    items.remove(at: 0)
    #expect(items == FeedItems(gapped[2...]))
    var shifted = FeedItems(gapped[..<2])
    shifted.offsetIndices(by: 5)
    #expect(
      shifted
        == FeedItems(
          gapped[2...].map {
            FeedItem(index: $0.index, img: "i\($0.index - 5)", width: 1, height: 1)
          }))
  }

  @Test("Removing an item, or moving every feed index, changes only that", arguments: 0..<4)
  func editing(position: Int) {
    var items = FeedItems(Self.samples)
    items.remove(at: position)
    var expected = Self.samples
    expected.remove(at: position)
    #expect(Array(items) == expected)
    #expect(items == FeedItems(expected))
    items.offsetIndices(by: 100)
    #expect(items.map(\.index) == expected.map { $0.index + 100 })
  }
}
