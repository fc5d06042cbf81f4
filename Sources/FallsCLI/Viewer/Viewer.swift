import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation

/// What the viewer does after a key.
enum ViewerOutcome {
  case goOn, quit, interrupt
}

/// The viewer's state: the pages loaded into the layout so far, the scroll position.
struct Viewer {
  var pages: FeedPages
  var size: TerminalSize
  /// Whether the last page has been seen (an empty page, or a feed that is not paged).
  var exhausted = false
  /// The last page that held items, 0 before one did.
  var lastFullPage = 0
  /// The page being fetched, if one is.
  var pending: PendingPage?
  var top = 0
  var message: String?
  var showsKeys = false
  /// The lines last written, so that only changed lines are written again.
  var shown: [String] = []
  /// Where to draw; none in tests of the state alone.
  var terminal: Terminal?

  init(options: LayoutOptions, environment: CLIEnvironment, size: TerminalSize) {
    pages = FeedPages(options: options, environment: environment)
    self.size = size
  }

  var options: LayoutOptions { pages.options }

  var renderer: ViewRenderer { ViewRenderer(sectioned: pages.sectioned, items: pages.placed) }

  var pageRows: Int { max(size.rows - 1, 1) }

  var lastTop: Int { max(renderer.contentRows(columns: size.columns) - pageRows, 0) }

  var isLoading: Bool { pending != nil }

  /// Starts loading the next page: a URL's is fetched, a file's or standard input's read, and
  /// its images read for their sizes, while the keys go on working (a pipe or a FIFO may give
  /// nothing for as long as it likes); the built-in feed and generated items are made at once.
  mutating func loadNextPage() {
    guard !exhausted, pending == nil else { return }
    let page = pages.page + 1
    message = "loading page \(page)…"
    let url = pages.nextURL
    let isAtOnce: Bool =
      switch options.feed {
      case .embedded, .synthetic: true
      case .file, .standardInput, .url: false
      }
    guard !isAtOnce || options.sizes != .feed else {
      apply(page: page) { (pages) throws(CLIError) in try pages.loadNextAtOnce() }
      return
    }
    // Read on a thread of its own: a read that blocks holds up neither the keys nor the tasks.
    let reader = BlockingReader(source: pages.source)
    let (options, fetcher, firstIndex) = (options, pages.fetcher, pages.nextIndex)
    pending = PendingPage(page: page) {
      do throws(CLIError) {
        let read: FeedBytes
        if let url {
          do throws(FetchError) {
            read = try await fetcher.fetchFeed(url)
          } catch {
            throw .fetch(error)
          }
        } else {
          read = try await reader.bytes().get()
        }
        let feed = try PageSource.decode(read, options: options)
        return .success(
          try await PageSource.sized(
            feed, options: options, fetcher: fetcher, progress: nil, firstIndex: firstIndex))
      } catch {
        return .failure(error)
      }
    }
  }

  /// Lays out the page that has arrived, if one has; true when a load ended.
  mutating func finishLoading() -> Bool {
    guard let pending, let outcome = pending.outcome else { return false }
    self.pending = nil
    apply(page: pending.page) { (pages) throws(CLIError) in
      switch outcome {
      case .success(let feed): return try pages.add(feed)
      case .failure(let error): throw error
      }
    }
    return true
  }

  /// Stops a page that is being fetched; nothing of it is laid out.
  mutating func cancelLoading() {
    pending?.cancel()
    pending = nil
  }

  /// Lays out page `page` by `load`, and says on the status line what came of it.
  private mutating func apply(
    page: Int, _ load: (inout FeedPages) throws(CLIError) -> (feed: Feed, count: Int)
  ) {
    do throws(CLIError) {
      let (feed, count) = try load(&pages)
      let skipped = feed.problems.count
      message =
        skipped > 0 ? "page \(page): skipped \(ViewRenderer.grouped(skipped)) invalid items" : nil
      if count > 0 { lastFullPage = page }
      if count == 0 || !isPaged {
        // The feed has ended: the items held back for the next page are final.
        exhausted = true
        pages.finish()
      }
      if count == 0 { message = "page \(page) is empty: no more items after page \(page - 1)" }
    } catch {
      message = "page \(page): " + outcome(of: error).message
    }
  }

  /// Whether the feed has pages beyond the first: a URL with `{page}`.
  private var isPaged: Bool {
    if case .url(let template) = options.feed { return template.isPaginated }
    return false
  }

  mutating func refresh() {
    cancelLoading()
    pages.reset()
    (exhausted, lastFullPage, top) = (false, 0, 0)
    loadNextPage()
  }

  /// Lays out every item again with `columns` columns.
  mutating func relayout(columns: Int) {
    let style = options.configuration.style
    guard options.configuration.uses(.columns) else {
      message =
        "+ and - change the number of columns, which the \(style.rawValue) style does not have"
      return
    }
    var configuration = options.configuration
    configuration.columns = columns
    guard var fresh = try? WaterfallLayout(configuration, items: pages.placed.layoutItems) else {
      message =
        configuration.uses(.pattern)
        ? "the grid's block is \(configuration.pattern.columns) columns wide; give --pattern for "
          + "another width"
        : "\(columns) columns do not fit in \(formatNumber(configuration.width)) pt"
      return
    }
    // After the feed's end, nothing is held back for a next page.
    if exhausted { fresh.finish() }
    pages.options.configuration = configuration
    pages.layout = fresh
    top = min(top, lastTop)
    // The status line shows the new count; a page that is loading goes on saying so.
    if !isLoading { message = nil }
  }

  /// Draws at `size` from now on, keeping at the top of the screen the point of the content
  /// that was there: the content is fitted to the width, so a row of one width is not a row of
  /// another.
  mutating func resize(to size: TerminalSize) {
    let point = Double(top) * renderer.scale(columns: self.size.columns).down
    self.size = size
    shown = []
    let down = renderer.scale(columns: size.columns).down
    top = max(0, min(ViewRenderer.cell((point / down).rounded(.down)), lastTop))
  }

  /// Acts on `key`.
  mutating func handle(_ key: Key) -> ViewerOutcome {
    let action = ViewerKey.all.first { $0.keys.contains(key) }?.action
    if showsKeys, action != .quit, action != .interrupt {
      showsKeys = false
      return .goOn
    }
    switch action {
    case .quit?: return .quit
    case .interrupt?: return .interrupt
    case .lineDown?: scroll(to: top + 1)
    case .lineUp?: scroll(to: top - 1)
    case .screenDown?: scroll(to: top + pageRows)
    case .screenUp?: scroll(to: top - pageRows)
    case .top?: scroll(to: 0)
    case .bottom?: scroll(to: Int.max / 2)
    case .moreColumns?: relayout(columns: options.configuration.columns + 1)
    case .fewerColumns?
    where options.configuration.uses(.columns) && options.configuration.columns == 1:
      message = "one column is the fewest: - has nothing to take away"
    case .fewerColumns?: relayout(columns: options.configuration.columns - 1)
    case .refresh?: refresh()
    case .showKeys?: showsKeys = true
    case nil: break
    }
    return .goOn
  }

  /// Scrolls to `row`; at the bottom, starts loading the next page (pull-up).
  mutating func scroll(to row: Int) {
    if row > lastTop, !exhausted { loadNextPage() }
    top = max(0, min(row, lastTop))
  }

  /// The lines of the screen: the layout, then the status line. A message too long for the
  /// status line is written whole, wrapped, on the lines above it.
  func screen() -> [String] {
    let renderer = renderer
    var lines = renderer.lines(top: top, columns: size.columns, rows: pageRows)
    if showsKeys { lines = ViewRenderer.withKeyHelp(lines, columns: size.columns) }
    let status = ViewRenderer.statusLine(
      feed: feedName, pages: lastFullPage, items: pages.placed.count,
      layoutColumns: options.configuration.uses(.columns) ? options.configuration.columns : nil,
      top: top, rows: pageRows,
      contentRows: renderer.contentRows(columns: size.columns), message: message,
      columns: size.columns)
    if let message, !status.holdsMessage {
      let wrapped = wrap(escapingControlCharacters(message), indent: 0, width: size.columns)
        .split(separator: "\n").map {
          ANSI.inverse + ViewRenderer.fitted(String($0), to: size.columns) + ANSI.reset
        }
      let kept = max(lines.count - wrapped.count, 0)
      lines = Array(lines.prefix(kept)) + wrapped.suffix(lines.count - kept)
    }
    return lines + [ANSI.inverse + status.line + ANSI.reset]
  }

  private var feedName: String {
    switch options.feed {
    case .embedded: "built-in feed"
    case .standardInput: "standard input"
    case .file(let path): path
    case .url(let template): redactingCredentials(template.text)
    case .synthetic(let count, _, _): "\(ViewRenderer.grouped(count)) synthetic items"
    }
  }

  /// Writes the lines that changed since the last draw.
  mutating func draw() {
    guard let terminal else { return }
    let lines = screen()
    var output = ""
    for (row, line) in lines.enumerated() where row >= shown.count || shown[row] != line {
      output += ANSI.move(row: row + 1, column: 1) + line + ANSI.clearLine
    }
    if !output.isEmpty { terminal.write(output) }
    shown = lines
  }
}

/// Reads the bytes of a feed that is not a URL's (``PageSource/bytesAtOnce()``) on a thread of its
/// own, which may block as long as the file, the pipe or the FIFO does.
///
/// `@unchecked Sendable`: it holds a copy of the page source, whose environment's reader of standard
/// input is a closure; the copy is used by the one thread that reads, and the viewer reads its
/// keys elsewhere (from the terminal, or /dev/tty when standard input holds the feed).
private struct BlockingReader: @unchecked Sendable {
  let source: PageSource

  func bytes() async -> Result<FeedBytes, CLIError> {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: Result { () throws(CLIError) in try source.bytesAtOnce() })
      }.start()
    }
  }
}
