import FallsCore
import FallsFeed
import Testing

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
}
