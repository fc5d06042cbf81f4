import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// A feed's pages, loaded one after another into one layout: as `falls layout` loads them, and
/// as `falls view` loads them while the user scrolls.
struct FeedPages {
  var options: LayoutOptions
  private let environment: CLIEnvironment
  let fetcher: FeedFetcher
  /// The layout of the items loaded so far, and the items it placed.
  var layout: WaterfallLayout
  var placed = PlacedItems()
  /// The number of the last page loaded, 0 before the first.
  private(set) var page = 0
  /// The feed index of the next page's first item.
  private(set) var nextIndex = 0
  /// The first item skipped over the pages loaded, if one was.
  private(set) var firstSkipped: FeedItemProblem?

  /// Where a slow request and each retry are told, if anywhere.
  private let progress: Progress?

  init(options: LayoutOptions, environment: CLIEnvironment, progress: Progress? = nil) {
    self.options = options
    self.environment = environment
    self.progress = progress
    fetcher = options.fetcher(environment: environment, progress: progress)
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
    let next = page + 1
    let feed = try await sized(try decode(try await nextBytes(), page: next))
    return try add(feed)
  }

  /// The next page's feed, read, fetched or generated, its items numbered after the pages
  /// before and not laid out (for `falls probe`); an invalid item is an error unless skipped.
  mutating func readNextFeed() async throws(CLIError) -> Feed {
    let next = page + 1
    var feed = try decode(try await nextBytes(), page: next)
    let count = feed.items.count + feed.problems.count
    Self.number(&feed, from: nextIndex)
    if !feed.problems.isEmpty, !options.skipInvalid { throw .feed(.invalidItems(feed.problems)) }
    (page, nextIndex) = (next, nextIndex + count)
    return feed
  }

  /// The next page's bytes: fetched from its URL, or read from the file, standard input or
  /// the built-in feed.
  private func nextBytes() async throws(CLIError) -> FeedBytes {
    guard let url = nextURL else { return try bytesAtOnce() }
    // A request that takes more than a second says what it waits for: on a queue of its own,
    // which a busy pool of tasks does not hold up.
    let next = page + 1
    let waiting = progress.map { progress in
      DispatchWorkItem { progress.waiting(for: url.absoluteString, page: next) }
    }
    if let waiting { DispatchQueue.global().asyncAfter(deadline: .now() + 1, execute: waiting) }
    defer { waiting?.cancel() }
    do {
      return try await fetcher.fetchFeed(url)
    } catch {
      throw .fetch(error)
    }
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
      return try add(bytesAtOnce())
    case .url:
      preconditionFailure("a URL's pages are fetched by loadNext()")
    }
  }

  /// The bytes of a feed that is not a URL's, nor generated.
  func bytesAtOnce() throws(CLIError) -> FeedBytes {
    switch options.feed {
    case .embedded:
      return FeedBytes(data: Data(EmbeddedFeed.json.utf8))
    case .standardInput:
      do throws(FeedError) {
        return try environment.standardInput(
          atMost: options.fetchPolicy.maxBytes, limitsRegularFile: limitsRegularFile)
      } catch {
        throw .feed(error)
      }
    case .file(let path):
      let bytes: FeedBytes
      do throws(FeedError) {
        bytes = try FeedReader.load(
          path: path, maxBytes: options.fetchPolicy.maxBytes,
          limitsRegularFile: limitsRegularFile, writerTimeout: options.fetchPolicy.timeout)
      } catch {
        // A URL given without its scheme reads as a path that is not there.
        if case .unreadable(_, let reason) = error, access(path, F_OK) != 0,
          let url = FeedURLTemplate.url(meantBy: path)
        {
          throw .feed(.unreadable(path: path, reason: "\(reason); did you mean \(url)?"))
        }
        throw .feed(error)
      }
      var located = bytes
      located.location = .file(path: path)
      return located
    case .url, .synthetic:
      preconditionFailure("only a feed's own bytes are read at once")
    }
  }

  /// Whether a regular file (given by path or as standard input) is held to `--max-bytes`:
  /// only when the flag is given. Its size is known, and it can be neither endless nor a bomb,
  /// which is what the default guards against.
  private var limitsRegularFile: Bool { options.given[.maxBytes] != nil }

  /// The URL of the next page, for a URL feed.
  var nextURL: URL? {
    guard case .url(let template) = options.feed else { return nil }
    return template.url(page: page + 1, size: options.pageSize)
  }

  /// Lays out the next page, its bytes read or fetched (from ``nextURL``) already: what
  /// ``loadNext()`` does once it has them.
  mutating func add(_ bytes: FeedBytes) throws(CLIError) -> (feed: Feed, count: Int) {
    try add(try decode(bytes, page: page + 1))
  }

  /// Lays out the next page's feed, decoded (and its sizes read) already.
  mutating func add(_ decoded: Feed) throws(CLIError) -> (feed: Feed, count: Int) {
    let next = page + 1
    var feed = decoded
    let count = feed.items.count + feed.problems.count
    try Self.add(
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

  /// Numbers a page's items (and problems) after the `firstIndex` items of the pages before.
  static func number(_ feed: inout Feed, from firstIndex: Int) {
    guard firstIndex > 0 else { return }
    feed.items.offsetIndices(by: firstIndex)
    for position in feed.problems.indices { feed.problems[position].index += firstIndex }
    for position in feed.sizeProblems.indices { feed.sizeProblems[position].index += firstIndex }
  }

  /// `feed` with its items' sizes read from their images, as `--sizes` asks: every item's, or
  /// those the feed gives none (missing, or refused by the rules). An image that cannot be read
  /// is an error naming it (69 when it cannot be had, 65 when it is no image), or with
  /// `--skip-invalid` the item is skipped and listed as a problem. An item whose declared size
  /// was refused and whose image cannot be read has no size at all: its size's problem is the
  /// error (65) or the reason it is skipped.
  func sized(_ feed: Feed) async throws(CLIError) -> Feed {
    try await Self.sized(
      feed, options: options, fetcher: fetcher, progress: progress, firstIndex: nextIndex)
  }

  /// `feed`, the page whose first item is feed index `firstIndex`, with its sizes read as
  /// `options` ask, over `fetcher`.
  static func sized(
    _ feed: Feed, options: LayoutOptions, fetcher: FeedFetcher, progress: Progress?,
    firstIndex: Int
  ) async throws(CLIError) -> Feed {
    guard options.sizes != .feed else { return feed }
    var feed = feed
    let positions = feed.items.indices.filter {
      options.sizes == .images || !feed.items[$0].hasSize
    }
    let items = positions.map { feed.items[$0] }
    let probes = await options.images(over: fetcher).probeAll(
      items.map { ($0.img, feed.location) }, done: progress?.probedImages)
    var failed: [Int] = []
    for (position, (item, probe)) in zip(positions, zip(items, probes)) {
      let reason: FeedItemProblem.Reason
      switch probe.outcome {
      case .header(let header):
        feed.items.setSize(
          at: position, width: Double(header.displayedWidth),
          height: Double(header.displayedHeight))
        continue
      case .unreachable(let why): reason = .imageUnreachable(why)
      case .refused(let why): reason = .imageRefused(why)
      case .notAnImage(let why): reason = .notAnImage(why)
      }
      // The image is what failed: a declared size it was to replace (or fill) is no reason.
      let problem = FeedItemProblem(
        index: item.index, field: .img, value: FeedItemProblem.quoted(item.img),
        reason: reason, key: options.shape.key(of: .img))
      guard options.skipInvalid else {
        var numbered = problem
        numbered.index += firstIndex
        throw problem.isImages ? .image(numbered) : .feed(.invalidItems([numbered]))
      }
      feed.problems.append(problem)
      failed.append(position)
    }
    for position in failed.reversed() { feed.items.remove(at: position) }
    feed.problems.sort { $0.index < $1.index }
    return feed
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
        let batch = min(Self.batchSize(for: fresh.configuration), count - fresh.elements.count)
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

  /// Decodes one page; a URL's body that is not JSON is a fetch failure (69), not bad data.
  func decode(_ bytes: FeedBytes, page: Int) throws(CLIError) -> Feed {
    try Self.decode(bytes, page: page, options: options)
  }

  /// Decodes page `page` of the feed `options` name.
  static func decode(_ bytes: FeedBytes, page: Int, options: LayoutOptions) throws(CLIError)
    -> Feed
  {
    do {
      // Sizes to be read from the images may be missing from the feed.
      return try FeedDecoder.decode(
        bytes, shape: options.shape,
        allowingMissingSizes: options.command == .probe || options.sizes != .feed)
    } catch {
      guard case .notJSON(let detail) = error else { throw .feed(error) }
      if case .url(let template) = options.feed {
        let url = template.url(page: page, size: options.pageSize).absoluteString
        throw .fetch(FetchError(url: url, cause: .invalidJSON(detail: detail), attempts: 1))
      }
      // Markup where JSON should be: a page saved from a browser, say. It is named as such.
      let start = bytes.data.prefix(256).drop {
        [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0)
      }
      guard start.first == UInt8(ascii: "<") else { throw .feed(error) }
      let name: String =
        switch options.feed {
        case .file(let path): "the file '\(shownInMessage(path))'"
        default: "standard input"
        }
      let opening =
        String(decoding: start.prefix(40), as: UTF8.self).split(separator: "\n").first ?? ""
      throw .feed(
        .notJSON(
          detail:
            "\(name) looks like an HTML or XML page (it starts \"\(escapingControlCharacters(String(opening)))\"), "
            + "not a finderlist JSON feed (\(detail))"))
    }
  }

  /// Items per batch appended to the layout: the sizes are never all copied out at once.
  static let batchSize = 1 << 14

  /// The batch size for a layout of `configuration`: a whole page where each append is a page
  /// (``LayoutConfiguration/appendsArePages``), so that the layout is the library's.
  static func batchSize(for configuration: LayoutConfiguration) -> Int {
    configuration.appendsArePages ? Int.max : batchSize
  }

  /// Numbers page `page`'s items (and problems) after the `firstIndex` items of the pages before,
  /// lays out the valid ones after `layout`'s, and adds them to `placed`. An invalid item (one
  /// too tall to lay out included) is an error without `skipInvalid`, and then neither `layout`
  /// nor `placed` changes; with it, it is left in `feed.problems`.
  static func add(
    _ feed: inout Feed, page: Int, firstIndex: Int, skipInvalid: Bool,
    shape: FeedShape = .finderlist, to layout: inout WaterfallLayout,
    placed: inout PlacedItems
  ) throws(CLIError) {
    number(&feed, from: firstIndex)
    if !feed.problems.isEmpty, !skipInvalid { throw .feed(.invalidItems(feed.problems)) }
    // A page of several batches may fail after some of them went in: keep the layout as it was
    // (a copy costs nothing until the layout changes, and then once per long page).
    let before = feed.items.count > batchSize(for: layout.configuration) ? layout : nil
    do {
      try append(&feed, to: &layout, skipInvalid: skipInvalid, shape: shape)
    } catch {
      if let before { layout = before }
      throw error
    }
    placed.append(feed.items, page: page, location: feed.location)
  }

  /// Appends a page's items; an item too tall to lay out is a feed problem like any other.
  private static func append(
    _ feed: inout Feed, to layout: inout WaterfallLayout, skipInvalid: Bool, shape: FeedShape
  )
    throws(CLIError)
  {
    // In batches; a batch is appended whole or not at all. Where an append is a page, the page
    // is one batch.
    layout.reserveCapacity(layout.elements.count + feed.items.count)
    let size = batchSize(for: layout.configuration)
    var next = 0
    while next < feed.items.count {
      let batch = next..<min(next + size, feed.items.count)
      do {
        try layout.append(feed.items.layoutItems(batch))
        next = batch.upperBound
      } catch {
        let position: Int
        let reason: FeedItemProblem.Reason
        switch error {
        case .heightOverflow(let index): (position, reason) = (index, .tooTall)
        case .heightUnderflow(let index): (position, reason) = (index, .tooShort)
        case .invalidItemSize, .invalidColumnCount, .invalidValue, .noRoomForColumns,
          .patternWidth, .notApplicable:
          preconditionFailure("a feed's checked item or a checked layout was refused: \(error)")
        }
        // Nothing of the batch was appended, so the position counts from the layout's end.
        let local = next + position - layout.elements.count
        let item = feed.items[local]
        let problem = FeedItemProblem(
          index: item.index, field: .height, value: formatNumber(item.height), reason: reason,
          key: shape.key(of: .height))
        guard skipInvalid else { throw .feed(.invalidItems([problem])) }
        feed.items.remove(at: local)
        feed.problems.append(problem)
        feed.problems.sort { $0.index < $1.index }
      }
    }
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
