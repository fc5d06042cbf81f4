import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The laid-out feed items in layout order, and the page each came from.
///
/// Pages are kept as runs, not per item: a one-page feed of a million items shares the decoded
/// items instead of copying them. Generated items (`--synthetic`) are not kept at all: item *i*
/// is `synthetic:i` of page 1, and its size is made again from the generator when needed.
struct PlacedItems {
  fileprivate enum Storage {
    case feed(FeedItems)
    case generated(count: Int, SyntheticFeed.Generator)
  }

  private var storage = Storage.feed(FeedItems())
  /// Where each page's items start, the page's number and where it came from, in order.
  private var pageStarts: [(position: Int, page: Int, location: FeedLocation)] = []

  init() {}

  /// The items of one page.
  init(_ pageItems: FeedItems, page: Int, location: FeedLocation = .currentFolder) {
    append(pageItems, page: page, location: location)
  }

  /// The first `count` items of `generator`, of page 1.
  init(generated generator: SyntheticFeed.Generator, count: Int) {
    storage = .generated(count: count, generator)
    pageStarts = [(0, 1, .currentFolder)]
  }

  /// The `img` of generated item `index`.
  static func syntheticImage(_ index: Int) -> String { "synthetic:\(index)" }

  var count: Int {
    switch storage {
    case .feed(let items): items.count
    case .generated(let count, _): count
    }
  }

  /// The size and span of every item, to lay them out again.
  var layoutItems: [LayoutItem] {
    switch storage {
    case .feed(let items): items.layoutItems(items.indices)
    case .generated(let count, var generator): generator.items(count: count)
    }
  }

  /// The size and span of the item at `position`.
  func layoutItem(at position: Int) -> LayoutItem {
    switch storage {
    case .feed(let items): items.layoutItem(at: position)
    case .generated(let count, let generator):
      SyntheticFeed.Items(generator, count: count)[position]
    }
  }

  /// The quality figures of `layout`, which placed these items in order; `nil` for a style
  /// that is not columnar.
  func quality(of layout: WaterfallLayout) -> LayoutQuality? {
    LayoutQuality(of: layout, items: sizes)
  }

  /// The distortion of each element of `layout` (``LayoutQuality/distortions(of:items:)``).
  func distortions(of layout: WaterfallLayout) -> [Double]? {
    LayoutQuality.distortions(of: layout, items: sizes)
  }

  /// The size and span of every item, in order, made as they are read (generated ones made
  /// again from their generator): for a pass over them without an array of them all.
  var sizes: Sizes { Sizes(storage: storage) }

  /// The items' sizes as a sequence; see ``sizes``.
  struct Sizes: Sequence {
    fileprivate let storage: Storage

    func makeIterator() -> Iterator {
      switch storage {
      case .feed(let items): Iterator(feed: items, generator: nil, count: items.count)
      case .generated(let count, let generator):
        Iterator(feed: nil, generator: generator, count: count)
      }
    }

    /// Reads a feed's items in order, or makes `count` generated ones.
    struct Iterator: IteratorProtocol {
      fileprivate let feed: FeedItems?
      fileprivate var generator: SyntheticFeed.Generator?
      fileprivate let count: Int
      private var position = 0

      fileprivate init(feed: FeedItems?, generator: SyntheticFeed.Generator?, count: Int) {
        (self.feed, self.generator, self.count) = (feed, generator, count)
      }

      mutating func next() -> LayoutItem? {
        guard position < count else { return nil }
        defer { position += 1 }
        return feed?.layoutItem(at: position) ?? generator?.next()
      }
    }
  }

  /// The feed's items, or `nil` for generated ones.
  private var feedItems: FeedItems? {
    guard case .feed(let items) = storage else { return nil }
    return items
  }

  /// How many URLs need escaping in JSON.
  var imagesNeedingJSONEscapes: Int { feedItems?.imagesNeedingJSONEscapes ?? 0 }

  /// Adds the items of page `page`, which came from `location`, after those already placed.
  ///
  /// - Precondition: the items placed so far are a feed's.
  mutating func append(
    _ pageItems: FeedItems, page: Int, location: FeedLocation = .currentFolder
  ) {
    guard !pageItems.isEmpty else { return }
    guard case .feed(var items) = storage else {
      preconditionFailure("pages are added to a feed's items only")
    }
    pageStarts.append((items.count, page, location))
    // Let go of the stored value first, so that the items are appended in place.
    storage = .feed(FeedItems())
    items.append(contentsOf: pageItems)
    storage = .feed(items)
  }

  /// The feed index of the item at `position`.
  func feedIndex(at position: Int) -> Int {
    switch storage {
    case .feed(let items): items.feedIndex(at: position)
    case .generated: position
    }
  }

  /// Calls `body` with the UTF-8 bytes of the `img` of the item at `position`.
  func withImage<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    withContents { $0.withImage(at: position, body) }
  }

  /// Calls `body` with the items' fields as the JSON writers read them, element after element.
  func withContents<Result, Failure: Error>(
    _ body: (Contents) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    switch storage {
    case .feed(let items):
      return try items.withContents { (contents) throws(Failure) in
        try body(Contents(feed: contents, items: items, generated: nil))
      }
    case .generated(let count, let generator):
      return try body(
        Contents(feed: nil, items: nil, generated: SyntheticFeed.Items(generator, count: count)))
    }
  }

  /// The fields of the items during ``withContents(_:)``.
  struct Contents {
    /// A feed's fields, or `nil` for generated items.
    let feed: FeedItems.Contents?
    /// The feed's items, for their sizes, or `nil` for generated items.
    let items: FeedItems?
    /// The generated items, or `nil` for a feed's.
    let generated: SyntheticFeed.Items?

    /// The size and span of the item at `position`.
    @inline(__always)
    func layoutItem(at position: Int) -> LayoutItem {
      if let items { return items.layoutItem(at: position) }
      return generated?[position] ?? LayoutItem(width: 1, height: 1)
    }

    @inline(__always)
    func feedIndex(at position: Int) -> Int {
      feed?.feedIndex(at: position) ?? position
    }

    /// Calls `body` with the UTF-8 bytes of the item's `img`: the feed's bytes where they lie,
    /// or a generated item's name written into a buffer of the stack.
    @inline(__always)
    func withImage<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
      -> Result
    {
      if let feed { return body(feed.image(at: position)) }
      var name = PlacedItems.syntheticImage(position)
      return name.withUTF8(body)
    }
  }

  /// The page of the item at `position`.
  ///
  /// - Complexity: O(log *p*) for *p* pages.
  func page(at position: Int) -> Int {
    pageStarts[run(at: position)].page
  }

  /// Where the page of the item at `position` came from.
  func location(at position: Int) -> FeedLocation {
    pageStarts[run(at: position)].location
  }

  /// The last run starting at or before `position`.
  private func run(at position: Int) -> Int {
    var low = 0
    var high = pageStarts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if pageStarts[middle].position <= position { low = middle } else { high = middle }
    }
    return low
  }
}
