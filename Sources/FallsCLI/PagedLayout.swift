import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The body of `falls layout`: loads the feed page by page, appends each page to one layout, and
/// reports skipped items, empty and failed pages on standard error.
enum PagedLayout {
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError)
    -> LayoutReport
  {
    let progress = Progress(
      sink: environment.standardError, pages: options.pages,
      isShown: environment.standardErrorIsTerminal && !options.quiet,
      columns: environment.standardErrorColumns)
    var pages = FeedPages(options: options, environment: environment, progress: progress)
    var skipped: [FeedItemProblem] = []
    var notes: [String] = []
    var pagesLoaded = 0
    for page in 1...options.pages {
      progress.fetching(page: page, items: pages.placed.count)
      do throws(CLIError) {
        let (feed, count) = try await pages.loadNext()
        if count == 0, options.pages > 1 {
          notes.append(
            "page \(page) of \(options.pages) is empty: the feed has no more items after "
              + "\(pages.nextIndex)")
          break
        }
        notes += spanNotes(feed.items, page: page, configuration: options.configuration)
        skipped += feed.problems
        pagesLoaded = page
      } catch {
        progress.clear()
        guard page > 1, options.keepPartial else {
          throw options.pages > 1 ? .page(page, error) : error
        }
        let message = outcome(of: error).message
        notes.append(
          "page \(page) of \(options.pages) failed, printing the \(page - 1) "
            + "page\(page == 2 ? "" : "s") that arrived (\(pages.placed.count) items): \(message)")
        break
      }
    }
    progress.finish(pages: pagesLoaded, items: pages.placed.count)
    if options.configuration.flatEnd { pages.flattenEnd() }
    // Output that goes to standard output, with or without --output, is fitted to its terminal.
    let toStandardOutput =
      options.output.map { (try? OutputFile.target(for: $0)) == .descriptor(1) } ?? true
    var text = ""
    for problem in skipped { text += "falls: skipped \(problem.message)\n" }
    if !skipped.isEmpty {
      let (laidOut, total) = (pages.placed.count, pages.placed.count + skipped.count)
      text += "falls: skipped \(skipped.count) of \(total) items; laid out \(laidOut)\n"
    }
    for note in notes { text += "falls: \(note)\n" }
    if !text.isEmpty {
      try? environment.standardError.write(escapingControlCharacters(text, keepingNewlines: true))
    }
    return LayoutReport(
      sectioned: pages.sectioned, items: pages.placed, rect: options.rect,
      fields: options.fields.map(Set.init),
      terminalColumns: toStandardOutput ? environment.standardOutputColumns : nil,
      showsQualityOnly: options.quality, feed: options.feed.name)
  }

  /// What happens to the spans of page `page`'s items: a style outside the columns family
  /// ignores them, and the columns clamp a span wider than they are.
  static func spanNotes(_ items: FeedItems, page: Int, configuration: LayoutConfiguration)
    -> [String]
  {
    let columns = configuration.columns
    guard configuration.style.family == .columns else {
      let spanning = items.indices.count { items.span(at: $0) != 1 }
      guard spanning > 0 else { return [] }
      return [
        "the \(configuration.style.rawValue) style ignores the span of \(spanning) "
          + "item\(spanning == 1 ? "" : "s") on page \(page)"
      ]
    }
    return items.indices.compactMap { position in
      let span = items.span(at: position)
      guard span > columns, span != LayoutItem.fullSpan else { return nil }
      return "item \(items.feedIndex(at: position)) asks to span \(span) columns; clamped to "
        + "the \(columns) there are"
    }
  }
}

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

  /// Where a slow request and each retry are told, if anywhere.
  private let progress: Progress?

  init(options: LayoutOptions, environment: CLIEnvironment, progress: Progress? = nil) {
    self.options = options
    self.environment = environment
    self.progress = progress
    var policy = options.fetchPolicy
    policy.backoff = environment.backoff
    var fetcher = FeedFetcher(transport: environment.transport, policy: policy)
    if let progress {
      let attempts = policy.retries + 1
      fetcher.onRetry = { wait, cause, attempt in
        progress.retrying(in: wait, after: cause, attempt: attempt, of: attempts)
      }
    }
    self.fetcher = fetcher
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
    guard let url = nextURL else { return try loadNextAtOnce() }
    // A request that takes more than a second says what it waits for: on a queue of its own,
    // which a busy pool of tasks does not hold up.
    let next = page + 1
    let waiting = progress.map { progress in
      DispatchWorkItem { progress.waiting(for: url.absoluteString, page: next) }
    }
    if let waiting { DispatchQueue.global().asyncAfter(deadline: .now() + 1, execute: waiting) }
    defer { waiting?.cancel() }
    let body: Data
    do {
      body = try await fetcher.fetch(url)
    } catch {
      throw .fetch(error)
    }
    return try add(FeedBytes(data: body))
  }

  /// Reads or generates the next page of a feed that is not a URL's, and lays it out.
  ///
  /// - Precondition: the feed is not a URL's (``nextURL`` is `nil`).
  mutating func loadNextAtOnce() throws(CLIError) -> (feed: Feed, count: Int) {
    switch options.feed {
    case .synthetic(let count, let minimumHeight, let maximumHeight):
      try generate(count: count, minimumHeight: minimumHeight, maximumHeight: maximumHeight)
      return (Feed(items: FeedItems()), count)
    case .embedded:
      return try add(FeedBytes(data: Data(EmbeddedFeed.json.utf8)))
    case .standardInput:
      let limit = options.fetchPolicy.maxBytes
      let bytes: FeedBytes
      do throws(FeedError) {
        bytes = try environment.readStandardInput(limit, limitsRegularFile)
      } catch {
        throw .feed(error)
      }
      // Bytes in memory are held to the limit here too, whoever read them.
      if !bytes.isFileMapping, bytes.data.count > limit,
        environment.standardInputKind != .file || limitsRegularFile
      {
        throw .feed(.tooLarge(path: "-", limit: limit))
      }
      return try add(bytes)
    case .file(let path):
      let bytes: FeedBytes
      do throws(FeedError) {
        bytes = try FeedReader.load(
          path: path, maxBytes: options.fetchPolicy.maxBytes,
          limitsRegularFile: limitsRegularFile,
          writerTimeout: options.given["timeout"] != nil ? options.fetchPolicy.timeout : nil)
      } catch {
        // A URL given without its scheme reads as a path that is not there.
        if case .unreadable(_, let reason) = error, access(path, F_OK) != 0,
          let url = FeedURLTemplate.url(meantBy: path)
        {
          throw .feed(.unreadable(path: path, reason: "\(reason); did you mean \(url)?"))
        }
        throw .feed(error)
      }
      return try add(bytes)
    case .url:
      preconditionFailure("a URL's pages are fetched by loadNext()")
    }
  }

  /// Whether a regular file (given by path or as standard input) is held to `--max-bytes`:
  /// only when the flag is given. Its size is known, and it can be neither endless nor a bomb,
  /// which is what the default guards against.
  private var limitsRegularFile: Bool { options.given["max-bytes"] != nil }

  /// The URL of the next page, for a URL feed.
  var nextURL: URL? {
    guard case .url(let template) = options.feed else { return nil }
    return template.url(page: page + 1, size: options.pageSize)
  }

  /// Lays out the next page, its bytes read or fetched (from ``nextURL``) already: what
  /// ``loadNext()`` does once it has them.
  mutating func add(_ bytes: FeedBytes) throws(CLIError) -> (feed: Feed, count: Int) {
    let next = page + 1
    var feed = try decode(bytes, page: next)
    let count = feed.items.count + feed.problems.count
    try Self.add(
      &feed, page: next, firstIndex: nextIndex, skipInvalid: options.skipInvalid, to: &layout,
      placed: &placed)
    (page, nextIndex) = (next, nextIndex + count)
    return (feed, count)
  }

  /// Lays out `count` generated items as the one page: made a batch at a time and never kept,
  /// so that only the layout holds them.
  private mutating func generate(count: Int, minimumHeight: Double, maximumHeight: Double)
    throws(CLIError)
  {
    let generator = SyntheticFeed.Generator(
      seed: options.configuration.seed, minimumHeight: minimumHeight,
      maximumHeight: maximumHeight, columnWidth: options.configuration.columnWidth)
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
  private func decode(_ bytes: FeedBytes, page: Int) throws(CLIError) -> Feed {
    do {
      return try FeedDecoder.decode(bytes)
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
    to layout: inout WaterfallLayout, placed: inout PlacedItems
  ) throws(CLIError) {
    if firstIndex > 0 {
      feed.items.offsetIndices(by: firstIndex)
      for position in feed.problems.indices { feed.problems[position].index += firstIndex }
    }
    if !feed.problems.isEmpty, !skipInvalid { throw .feed(.invalidItems(feed.problems)) }
    // A page of several batches may fail after some of them went in: keep the layout as it was
    // (a copy costs nothing until the layout changes, and then once per long page).
    let before = feed.items.count > batchSize(for: layout.configuration) ? layout : nil
    do {
      try append(&feed, to: &layout, skipInvalid: skipInvalid)
    } catch {
      if let before { layout = before }
      throw error
    }
    placed.append(feed.items, page: page)
  }

  /// Appends a page's items; an item too tall to lay out is a feed problem like any other.
  private static func append(
    _ feed: inout Feed, to layout: inout WaterfallLayout, skipInvalid: Bool
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
          index: item.index, field: .height, value: formatNumber(item.height), reason: reason)
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
    (placed, page, nextIndex) = (PlacedItems(), 0, 0)
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
  /// Where each page's items start, and the page's number, in order.
  private var pageStarts: [(position: Int, page: Int)] = []

  init() {}

  /// The items of one page.
  init(_ pageItems: FeedItems, page: Int) {
    append(pageItems, page: page)
  }

  /// The first `count` items of `generator`, of page 1.
  init(generated generator: SyntheticFeed.Generator, count: Int) {
    storage = .generated(count: count, generator)
    pageStarts = [(0, 1)]
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

  /// Adds the items of page `page` after those already placed.
  ///
  /// - Precondition: the items placed so far are a feed's.
  mutating func append(_ pageItems: FeedItems, page: Int) {
    guard !pageItems.isEmpty else { return }
    guard case .feed(var items) = storage else {
      preconditionFailure("pages are added to a feed's items only")
    }
    pageStarts.append((items.count, page))
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
        try body(Contents(feed: contents))
      }
    case .generated:
      return try body(Contents(feed: nil))
    }
  }

  /// The fields of the items during ``withContents(_:)``.
  struct Contents {
    /// A feed's fields, or `nil` for generated items.
    let feed: FeedItems.Contents?

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
    var low = 0
    var high = pageStarts.count
    // The last run starting at or before `position`.
    while high - low > 1 {
      let middle = (low + high) / 2
      if pageStarts[middle].position <= position { low = middle } else { high = middle }
    }
    return pageStarts[low].page
  }
}

/// What `falls layout` is doing, on a terminal's standard error: the page it fetches when there
/// are several, a request that has taken more than a second, and each retry. One line, written
/// again in place and cleared at the end; a retry keeps a line of its own. Every line is cut to
/// one column less than the terminal, with `…`, so that none wraps (a wrapped line could not be
/// cleared in place). Shown only on a terminal and without `--quiet`, and never on standard
/// output.
///
/// Sendable: its line is written under its lock, from the run and from the task that tells of
/// a slow request.
final class Progress: @unchecked Sendable {
  private let sink: any ByteSink
  let pages: Int
  let isShown: Bool
  /// The terminal's width, if known.
  let columns: Int?
  private let lock = NSLock()
  /// Whether a line is shown that a next one, or the end, writes over.
  private var hasLine = false

  init(sink: any ByteSink, pages: Int, isShown: Bool, columns: Int? = nil) {
    self.sink = sink
    self.pages = pages
    self.isShown = isShown
    self.columns = columns
  }

  func fetching(page: Int, items: Int) {
    guard pages > 1 else { return }
    show("falls: fetching page \(page) of \(pages), \(items) items so far")
  }

  func waiting(for url: String, page: Int) {
    let shown = shownInMessage(redactingCredentials(url))
    let which = pages > 1 ? " (page \(page) of \(pages))" : ""
    show("falls: waiting for GET \(shown)\(which)…")
  }

  func retrying(in seconds: Double, after cause: FetchError.Cause, attempt: Int, of attempts: Int) {
    let tenths = Int((seconds * 10).rounded())
    show(
      "falls: retrying in \(tenths / 10).\(tenths % 10) s: "
        + "\(shownInMessage(cause.description)), attempt \(attempt) of \(attempts)\n")
  }

  /// Clears the line, if one is shown.
  func clear() {
    show("")
  }

  func finish(pages loaded: Int, items: Int) {
    guard pages > 1 else { return clear() }
    show("falls: fetched \(loaded) of \(pages) pages, \(items) items\n")
  }

  /// Writes `text` over the line shown; an empty text clears it, if there is one.
  private func show(_ text: String) {
    guard isShown else { return }
    let isLine = text.hasSuffix("\n")
    let body = isLine ? String(text.dropLast()) : text
    // The last column is left free: a line that fills it moves some terminals to the next.
    let shown = columns.map { truncated(body, columns: max($0 - 1, 8)) } ?? body
    lock.withLock {
      guard !text.isEmpty || hasLine else { return }
      try? sink.write("\r\u{1B}[K" + shown + (isLine ? "\n" : ""))
      hasLine = !text.isEmpty && !isLine
    }
  }
}
