import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation
import Synchronization

/// `falls view`: the layout drawn in the terminal, scrolled with the keyboard; reaching the
/// bottom loads the next page, `r` starts over from page 1.
enum ViewCommand {
  static let name = "view"

  static var help: String {
    let layoutOnly = LayoutFlag.all.filter { !$0.isForView }.map { "--" + $0.name }
    let about =
      "Takes the feed and layout options of 'falls layout' (see 'falls layout --help'), not "
      + layoutOnly.dropLast().joined(separator: ", ") + " or " + (layoutOnly.last ?? "")
      + "; --pages N loads N pages to begin with. Each box is an item at its frame, labelled "
      + "with its feed index: double lines for an enlarged item, ≈ beside an aligned one. "
      + "Reaching the bottom of a URL feed with {page} loads its next page; the keys keep "
      + "working while it loads. Standard output must be a terminal; the keys are read from "
      + "standard input, or from /dev/tty when standard input holds the feed "
      + "(cat feed.json | falls view). To print the layout, use 'falls layout'."
    return """
      OVERVIEW: Show a feed's layout in the terminal and scroll through it.

      USAGE: falls view [FEED] [options]

      \(wrap(about, indent: 0, width: 90))

      KEYS:

      """ + ViewerKey.lines.map { "  " + $0 + "\n" }.joined() + "\n"
  }

  /// Parses `falls view`'s arguments: those of `falls layout` without its output options.
  static func parse(_ arguments: [String], standardInputIsFeed: Bool = false) throws(CLIError)
    -> LayoutOptions
  {
    do {
      return try LayoutCommand.parse(
        arguments, for: name, standardInputIsFeed: standardInputIsFeed)
    } catch {
      guard case .usage(let message, _) = error else { throw error }
      throw .usage(message, command: name)
    }
  }

  /// Runs the viewer until the user quits; Ctrl-C ends it with ``CLIError/interrupted``.
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError) {
    // The keys come from the terminal on standard input: it cannot be the feed as well, and
    // reading a feed from the keyboard in raw mode would never end.
    if options.feed == .standardInput, environment.standardInputKind == .terminal {
      throw .usage(
        "falls view reads its keys from the terminal on standard input, so the feed cannot "
          + "come from there too ('-'); give the feed as a file or a URL", command: name)
    }
    // Keys come from standard input, or, when it holds the feed (a pipe, a file), from the
    // controlling terminal, as less and fzf read them.
    let keysFromInput = options.feed != .standardInput && isatty(0) == 1
    guard isatty(1) == 1, let size = Terminal.size(),
      let terminal = keysFromInput ? Terminal() : Terminal(controlling: ())
    else {
      throw .refused(
        "falls view needs a terminal on standard output, and one to read keys from (standard "
          + "input, or /dev/tty when standard input holds the feed); to print the layout, use "
          + "'falls layout'")
    }
    var viewer = Viewer(options: options, environment: environment, size: size)
    do {
      try terminal.enter()
    } catch {
      throw .usage(
        "cannot use the terminal: \(SystemError(code: error.code).message)", command: name)
    }
    defer { terminal.restore() }
    terminal.watchResizes()
    viewer.terminal = terminal
    var decoder = KeyDecoder()
    var pagesToLoad = max(options.pages, 1)
    viewer.loadNextPage()
    viewer.draw()
    // The keys are read while a page loads: every 20 ms the loop looks whether it has arrived.
    loop: while true {
      let input = terminal.nextInput(waitingAtMost: viewer.isLoading ? 20 : nil)
      switch input {
      case .closed:
        break loop
      case .resized:
        if let size = Terminal.size() { viewer.resize(to: size) }
      case .bytes(let bytes):
        for key in decoder.keys(from: bytes) {
          switch viewer.handle(key) {
          case .goOn: break
          case .quit:
            viewer.cancelLoading()
            break loop
          case .interrupt:
            viewer.cancelLoading()
            throw .interrupted
          }
        }
      case .timedOut:
        break
      }
      if viewer.finishLoading() {
        pagesToLoad -= 1
        // The pages --pages asks for, one after another, to begin with.
        if pagesToLoad > 0 { viewer.loadNextPage() }
      }
      viewer.draw()
    }
  }
}

/// What the viewer does after a key.
enum ViewerOutcome {
  case goOn, quit, interrupt
}

/// A page on its way: fetched by a task of its own while the viewer reads keys.
final class PendingPage: Sendable {
  let page: Int
  private let result = Mutex<Result<Data, FetchError>?>(nil)
  private let task = Mutex<Task<Void, Never>?>(nil)

  /// Starts fetching `url` with `fetcher`.
  init(page: Int, url: URL, fetcher: FeedFetcher) {
    self.page = page
    let started = Task { [self] in
      let body: Result<Data, FetchError>
      do throws(FetchError) {
        body = .success(try await fetcher.fetch(url))
      } catch {
        body = .failure(error)
      }
      result.withLock { $0 = body }
    }
    task.withLock { $0 = started }
  }

  /// The body, or why it did not come, once it is there.
  var outcome: Result<Data, FetchError>? { result.withLock { $0 } }

  func cancel() {
    task.withLock { $0?.cancel() }
  }
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

  /// Starts loading the next page: a URL's is fetched while the keys go on working; a file,
  /// standard input, the built-in feed or generated items are read at once.
  mutating func loadNextPage() {
    guard !exhausted, pending == nil else { return }
    let page = pages.page + 1
    message = "loading page \(page)…"
    guard let url = pages.nextURL else {
      apply(page: page) { (pages) throws(CLIError) in try pages.loadNextAtOnce() }
      return
    }
    pending = PendingPage(page: page, url: url, fetcher: pages.fetcher)
  }

  /// Lays out the page that has arrived, if one has; true when a load ended.
  mutating func finishLoading() -> Bool {
    guard let pending, let outcome = pending.outcome else { return false }
    self.pending = nil
    apply(page: pending.page) { (pages) throws(CLIError) in
      switch outcome {
      case .success(let body): return try pages.add(FeedBytes(data: body))
      case .failure(let error): throw .fetch(error)
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
      message = skipped > 0 ? "page \(page): skipped \(skipped) invalid items" : nil
      if count > 0 { lastFullPage = page }
      if count == 0 || !isPaged { exhausted = true }
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
    guard let fresh = try? WaterfallLayout(configuration, items: pages.placed.layoutItems) else {
      message =
        style == .grid
        ? "the grid's block is \(configuration.pattern.columns) columns wide; give --pattern for "
          + "another width"
        : "\(columns) columns do not fit in \(formatNumber(configuration.width)) pt"
      return
    }
    pages.options.configuration = configuration
    pages.layout = fresh
    top = min(top, lastTop)
    message = "\(columns) column\(columns == 1 ? "" : "s")"
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
    case .synthetic(let count, _, _): "\(count) synthetic items"
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

/// What a key of `falls view` does.
enum ViewerAction {
  case lineDown, lineUp, screenDown, screenUp, top, bottom, moreColumns, fewerColumns, refresh
  case showKeys, quit, interrupt
}

/// One key of `falls view`: the one description of it, from which the help's KEYS, the `?` box,
/// the manual and what a key press does all come.
struct ViewerKey {
  /// The keys as a person reads them: `j ↓`.
  let names: String
  let keys: [Key]
  let action: ViewerAction
  let help: String

  static let all = [
    ViewerKey(
      names: "j ↓", keys: [.character("j"), .down], action: .lineDown, help: "down a line"),
    ViewerKey(names: "k ↑", keys: [.character("k"), .up], action: .lineUp, help: "up a line"),
    ViewerKey(
      names: "space PgDn", keys: [.character(" "), .pageDown], action: .screenDown,
      help: "down a screen"),
    ViewerKey(
      names: "b PgUp", keys: [.character("b"), .pageUp], action: .screenUp, help: "up a screen"),
    ViewerKey(names: "g Home", keys: [.character("g"), .home], action: .top, help: "top"),
    ViewerKey(
      names: "G End", keys: [.character("G"), .end], action: .bottom,
      help: "bottom (loads the next page)"),
    ViewerKey(
      names: "+", keys: [.character("+"), .character("=")], action: .moreColumns,
      help: "one column more, laid out again"),
    ViewerKey(
      names: "-", keys: [.character("-")], action: .fewerColumns,
      help: "one column fewer, laid out again"),
    ViewerKey(
      names: "r", keys: [.character("r")], action: .refresh,
      help: "refresh: load page 1 again and start over"),
    ViewerKey(names: "?", keys: [.character("?")], action: .showKeys, help: "show the keys"),
    ViewerKey(
      names: "q", keys: [.character("q")], action: .quit, help: "quit, also while a page loads"),
    ViewerKey(
      names: "Ctrl-C", keys: [.interrupt], action: .interrupt,
      help: "quit with status 130, as a shell expects"),
  ]

  /// One line a key, its names in a column of their own: for the help and the `?` box.
  static var lines: [String] {
    let width = (all.map(\.names.count).max() ?? 0) + 2
    return all.map { $0.names + String(repeating: " ", count: width - $0.names.count) + $0.help }
  }
}
