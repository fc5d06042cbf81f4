import FallsCore
import Foundation
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

  @Test(
    "Lent in place, the URLs and feed indices are those of the items, with or without gaps",
    arguments: [[0, 2, 3, 9], [5, 6, 7, 8]])
  func contents(indices: [Int]) {
    let samples = zip(Self.samples, indices).map { sample, index in
      FeedItem(
        index: index, img: sample.img, width: sample.width, height: sample.height,
        span: sample.span)
    }
    let items = FeedItems(samples)
    let (images, feedIndices) = items.withContents { contents in
      (
        samples.indices.map { Array(contents.image(at: $0)) },
        samples.indices.map { contents.feedIndex(at: $0) }
      )
    }
    #expect(images == samples.map { Array($0.img.utf8) })
    #expect(feedIndices == indices)
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

  @Test(
    "The count of images a JSON string must escape follows every change", arguments: 0..<6)
  func escapingImages(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let images = [
      "https://example.com/a.jpg", "caf\u{E9}.png", "a\"b", "back\\slash", "tab\there",
      "line\u{1}", "",
    ]
    func item(_ index: Int) -> FeedItem {
      FeedItem(
        index: index, img: images[Int(random.next() % UInt64(images.count))], width: 10, height: 20)
    }
    /// By an independent rule: the items whose URL holds a quote, a backslash or a control byte.
    func expected(_ items: FeedItems) -> Int {
      items.filter { $0.img.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }.count
    }
    var items = FeedItems((0..<12).map(item))
    #expect(items.imagesNeedingJSONEscapes == expected(items))
    for step in 0..<40 {
      switch random.next() % 4 {
      case 0: items.append(item(100 + step))
      case 1: items.append(contentsOf: FeedItems((0..<3).map { item(200 + step * 3 + $0) }))
      case 2 where !items.isEmpty: items.remove(at: Int(random.next() % UInt64(items.count)))
      default:
        items = FeedItems.joined(items, FeedItems((0..<2).map { item(400 + step * 2 + $0) }))
      }
      #expect(items.imagesNeedingJSONEscapes == expected(items), "step \(step)")
    }
    // Built again from the same items, the count is the same: part of what equal values share.
    #expect(FeedItems(Array(items)) == items)
  }

  @Test("The parser knows a URL without escapes needs none; others are looked at")
  func parsedImages() throws {
    let text = """
      {"data":[{"img":"https://a.example/1.jpg","width":"1","height":"1"},
      {"img":"caf\\u00e9","width":"1","height":"1"},
      {"img":"a\\"b","width":"1","height":"1"},
      {"img":"x\\/y","width":"1","height":"1"}]}
      """
    let feed = try FeedDecoder.decode(Data(text.utf8))
    #expect(feed.items.map(\.img) == ["https://a.example/1.jpg", "caf\u{E9}", "a\"b", "x/y"])
    #expect(feed.items.imagesNeedingJSONEscapes == 1)
  }
}
