import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// A feed's pages, loaded one after another into one layout: as `falls layout` loads them, and
/// as `falls view` loads them while the user scrolls.
struct FeedPages {
  /// Where the pages come from, and how each is read; it holds the run's options.
  private(set) var source: PageSource
  /// The layout of the items loaded so far, and the items it placed.
  var layout: WaterfallLayout
  var placed = PlacedItems()
  /// The number of the last page loaded, 0 before the first.
  private(set) var page = 0
  /// The feed index of the next page's first item.
  private(set) var nextIndex = 0
  /// The first item skipped over the pages loaded, if one was.
  private(set) var firstSkipped: FeedItemProblem?

  init(options: LayoutOptions, environment: CLIEnvironment, progress: Progress? = nil) {
    source = PageSource(options: options, environment: environment, progress: progress)
    do {
      layout = try WaterfallLayout(options.configuration)
    } catch {
      preconditionFailure("a checked configuration was refused: \(error)")
    }
  }

  /// Reads, fetches or generates the next page and lays out its items after those before:
  /// returns its feed (the invalid items skipped are its problems) and how many items it held,
  /// valid or not.
  ///
  /// On error nothing changes.
  mutating func loadNext() async throws(CLIError) -> (feed: Feed, count: Int) {
    if case .synthetic = options.feed { return try loadNextAtOnce() }
    let feed = try await sized(try decode(try await source.bytes(page: page + 1)))
    return try add(feed)
  }

  /// The next page's feed, read, fetched or generated, its items numbered after the pages
  /// before and not laid out (for `falls probe`); an invalid item is an error unless skipped.
  mutating func readNextFeed() async throws(CLIError) -> Feed {
    let next = page + 1
    var feed = try decode(try await source.bytes(page: next))
    let count = feed.items.count + feed.problems.count
    PageBatches.number(&feed, from: nextIndex)
    if !feed.problems.isEmpty, !options.skipInvalid { throw .feed(.invalidItems(feed.problems)) }
    (page, nextIndex) = (next, nextIndex + count)
    return feed
  }

  /// Reads or generates the next page of a feed that is not a URL's, and lays it out.
  ///
  /// - Precondition: the feed is not a URL's (``nextURL`` is `nil`).
  mutating func loadNextAtOnce() throws(CLIError) -> (feed: Feed, count: Int) {
    switch options.feed {
    case .synthetic(let count, let minimumHeight, let maximumHeight):
      try generate(count: count, minimumHeight: minimumHeight, maximumHeight: maximumHeight)
      return (Feed(items: FeedItems()), count)
    case .embedded, .standardInput, .file:
      return try add(source.bytesAtOnce())
    case .url:
      preconditionFailure("a URL's pages are fetched by loadNext()")
    }
  }

  /// The run's options, held once by ``source``; the viewer changes their configuration (its
  /// column count), which neither the fetcher nor the reading of pages uses.
  var options: LayoutOptions {
    get { source.options }
    set { source.options = newValue }
  }

  /// The URL of the next page, for a URL feed.
  var nextURL: URL? { source.url(page: page + 1) }

  /// The fetcher of the feed's pages and images.
  var fetcher: FeedFetcher { source.fetcher }

  /// Lays out the next page, its bytes read or fetched (from ``nextURL``) already: what
  /// ``loadNext()`` does once it has them.
  mutating func add(_ bytes: FeedBytes) throws(CLIError) -> (feed: Feed, count: Int) {
    try add(try decode(bytes))
  }

  /// Decodes a page of this feed (``PageSource/decode(_:options:)``).
  func decode(_ bytes: FeedBytes) throws(CLIError) -> Feed {
    try PageSource.decode(bytes, options: options)
  }

  /// Lays out the next page's feed, decoded (and its sizes read) already.
  mutating func add(_ decoded: Feed) throws(CLIError) -> (feed: Feed, count: Int) {
    let next = page + 1
    var feed = decoded
    let count = feed.items.count + feed.problems.count
    try PageBatches.add(
      &feed, page: next, firstIndex: nextIndex, skipInvalid: options.skipInvalid,
      shape: options.shape, to: &layout, placed: &placed)
    (page, nextIndex) = (next, nextIndex + count)
    firstSkipped = firstSkipped ?? feed.problems.first
    return (feed, count)
  }

  /// The error of a run that laid no item out though its pages held some: `--skip-invalid`
  /// skipped every one. Judged over the pages loaded, not page by page: a page of invalid
  /// items among valid pages is skipped as ever. A feed without items is no such error.
  var noValidItem: CLIError? {
    Self.noValidItem(read: nextIndex, kept: placed.count, first: firstSkipped)
  }

  /// The error of a run that read `read` items and kept `kept`, the first it skipped `first`.
  static func noValidItem(read: Int, kept: Int, first: FeedItemProblem?) -> CLIError? {
    guard kept == 0, let first else { return nil }
    return .noValidItem(skipped: read, first: first)
  }

  /// `feed`, the next page, with its sizes read from its images as `--sizes` asks
  /// (``PageSource/sized(_:options:fetcher:progress:firstIndex:)``).
  func sized(_ feed: Feed) async throws(CLIError) -> Feed {
    try await PageSource.sized(
      feed, options: options, fetcher: source.fetcher, progress: source.progress,
      firstIndex: nextIndex)
  }

  /// Lays out `count` generated items as the one page: made a batch at a time and never kept,
  /// so that only the layout holds them.
  private mutating func generate(count: Int, minimumHeight: Double, maximumHeight: Double)
    throws(CLIError)
  {
    let generator = SyntheticFeed.Generator(
      seed: options.configuration.seed, minimumHeight: minimumHeight,
      maximumHeight: maximumHeight, columnWidth: options.configuration.working.columnWidth,
      axis: options.configuration.axis)
    var batches = generator
    var fresh = layout
    fresh.reserveCapacity(count)
    while fresh.elements.count < count {
      do {
        let batch = min(
          PageBatches.batchSize(for: fresh.configuration), count - fresh.elements.count)
        if batch == count {
          // One page of them all (where each append is a page): made as they are placed.
          try fresh.append(SyntheticFeed.Items(batches, count: count))
        } else {
          try fresh.append(batches.items(count: batch))
        }
      } catch {
        // Generated sizes are valid, and their bottoms far from any limit; only a height too
        // small for the tops it is added to is lost.
        guard case .heightUnderflow = error else {
          preconditionFailure("a generated item was refused: \(error)")
        }
        throw LayoutCommand.usage(
          "--min-height \(formatNumber(minimumHeight)) makes items too short to lay out: their "
            + "heights are lost in rounding against their tops; give a larger --min-height")
      }
    }
    (layout, page, nextIndex) = (fresh, 1, count)
    placed = PlacedItems(generated: generator, count: count)
  }

  /// Marks the end of the feed: the items held back are final (``WaterfallLayout/finish()``).
  mutating func finish() {
    layout.finish()
  }

  /// Brings the column ends of the last page to one line (``WaterfallLayout/flattenEnd()``).
  mutating func flattenEnd() {
    layout.flattenEnd()
  }

  /// Starts over from the first page, as a pull-down refresh does.
  mutating func reset() {
    layout.reset()
    (placed, page, nextIndex, firstSkipped) = (PlacedItems(), 0, 0, nil)
  }

  /// The layout as its one section, with the header, the footer and the least content height.
  var sectioned: SectionedLayout {
    let section = Section(
      configuration: options.configuration, headerHeight: options.headerHeight,
      footerHeight: options.footerHeight)
    do {
      return try SectionedLayout(
        sections: [section], layouts: [layout], minimumContentHeight: options.minimumContentHeight)
    } catch {
      preconditionFailure("one section of checked lengths was refused: \(error)")
    }
  }
}
