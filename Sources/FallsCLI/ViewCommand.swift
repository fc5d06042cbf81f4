import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation

/// `falls view`: the layout drawn in the terminal, scrolled with the keyboard; reaching the
/// bottom loads the next page, `r` starts over from page 1.
enum ViewCommand {
  static let name = "view"

  static let help = """
    OVERVIEW: Show a feed's layout in the terminal and scroll through it.

    USAGE: falls view [--feed URL|PATH|-] [--style STYLE] [--columns N] [options]

    Takes the feed and layout options of 'falls layout' (see 'falls layout --help'), not
    --format, --output, --rect, --keep-partial or --quiet; --pages N loads N pages to begin
    with. Each box is an item at its frame, labelled with its feed index: double lines for an
    enlarged item, ≈ beside an aligned one. Reaching the bottom of a URL feed with {page} loads
    its next page. Standard input and output must be a terminal; to print the layout, use
    'falls layout'.

    KEYS:
      j ↓ / k ↑          down / up a line
      space PgDn / b PgUp  down / up a screen
      g Home / G End     top / bottom (loads the next page)
      + / -              one column more / fewer, laid out again
      r                  refresh: load page 1 again and start over
      ?                  show the keys
      q Ctrl-C           quit

    """

  /// Parses `falls view`'s arguments: those of `falls layout` without its output options.
  static func parse(_ arguments: [String]) throws(CLIError) -> LayoutOptions {
    do {
      return try LayoutCommand.parse(arguments, for: name)
    } catch {
      guard case .usage(let message, _) = error else { throw error }
      throw .usage(message, command: name)
    }
  }

  /// Runs the viewer until the user quits.
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError) {
    guard Terminal.isInteractive, let size = Terminal.size() else {
      throw .refused(
        "falls view needs a terminal on standard input and output; to print the layout, use "
          + "'falls layout'")
    }
    var viewer = Viewer(options: options, environment: environment, size: size)
    let terminal = Terminal()
    do {
      try terminal.enter()
    } catch {
      throw .usage(
        "cannot use the terminal: \(SystemError(code: error.code).message)", command: name)
    }
    defer { terminal.restore() }
    terminal.watchResizes()
    viewer.terminal = terminal
    await viewer.loadFirstPages()
    var decoder = KeyDecoder()
    viewer.draw()
    loop: while true {
      switch terminal.nextInput() {
      case .closed:
        break loop
      case .resized:
        if let size = Terminal.size() { viewer.resize(to: size) }
      case .bytes(let bytes):
        for key in decoder.keys(from: bytes) {
          guard await viewer.handle(key) else { break loop }
        }
      }
      viewer.draw()
    }
  }
}

/// The viewer's state: the pages loaded into the layout so far, the scroll position.
struct Viewer {
  var pages: FeedPages
  var size: TerminalSize
  /// Whether the last page has been seen (an empty page, or a feed that is not paged).
  var exhausted = false
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

  /// Loads the pages `--pages` asks for (one by default).
  mutating func loadFirstPages() async {
    for _ in 0..<max(options.pages, 1) where !exhausted {
      await loadNextPage()
    }
  }

  /// Loads the next page and appends it; a failure goes to the status line.
  mutating func loadNextPage() async {
    guard !exhausted else { return }
    let page = pages.page + 1
    // Fetching blocks the keys; say so while it lasts.
    message = "loading page \(page)…"
    draw()
    do throws(CLIError) {
      let (feed, count) = try await pages.loadNext()
      let skipped = feed.problems.count
      message = skipped > 0 ? "page \(page): skipped \(skipped) invalid items" : nil
      if count == 0 || !isPaged { exhausted = true }
      if count == 0 { message = "no more items after page \(page - 1)" }
    } catch {
      message = "page \(page): " + outcome(of: error).message
    }
  }

  /// Whether the feed has pages beyond the first: a URL with `{page}`.
  private var isPaged: Bool {
    if case .url(let template) = options.feed { return template.isPaginated }
    return false
  }

  mutating func refresh() async {
    pages.reset()
    exhausted = false
    top = 0
    await loadNextPage()
  }

  /// Lays out every item again with `columns` columns.
  mutating func relayout(columns: Int) {
    var configuration = options.configuration
    configuration.columns = columns
    guard var fresh = try? WaterfallLayout(configuration) else {
      message = "\(columns) columns do not fit"
      return
    }
    do {
      try fresh.append(pages.placed.layoutItems)
    } catch {
      message = "\(columns) columns: \(error)"
      return
    }
    pages.options.configuration = configuration
    pages.layout = fresh
    top = min(top, lastTop)
    message = "\(columns) column\(columns == 1 ? "" : "s")"
  }

  mutating func resize(to size: TerminalSize) {
    self.size = size
    shown = []
    top = min(top, lastTop)
  }

  /// Acts on `key`; false to quit.
  mutating func handle(_ key: Key) async -> Bool {
    if showsKeys, key != .character("q"), key != .interrupt {
      showsKeys = false
      return true
    }
    switch key {
    case .character("q"), .interrupt:
      return false
    case .character("j"), .down:
      await scroll(to: top + 1)
    case .character("k"), .up:
      await scroll(to: top - 1)
    case .character(" "), .pageDown:
      await scroll(to: top + pageRows)
    case .character("b"), .pageUp:
      await scroll(to: top - pageRows)
    case .character("g"), .home:
      await scroll(to: 0)
    case .character("G"), .end:
      await scroll(to: Int.max / 2)
    case .character("+"), .character("="):
      relayout(columns: options.configuration.columns + 1)
    case .character("-"):
      if options.configuration.columns > 1 { relayout(columns: options.configuration.columns - 1) }
    case .character("r"):
      message = "refreshing"
      await refresh()
    case .character("?"):
      showsKeys = true
    default:
      break
    }
    return true
  }

  /// Scrolls to `row`; at the bottom, loads the next page (pull-up).
  mutating func scroll(to row: Int) async {
    if row > lastTop, !exhausted {
      await loadNextPage()
    }
    top = max(0, min(row, lastTop))
  }

  /// The lines of the screen: the layout, then the status line.
  func screen() -> [String] {
    let renderer = renderer
    var lines = renderer.lines(top: top, columns: size.columns, rows: pageRows)
    if showsKeys { lines = ViewRenderer.withKeyHelp(lines, columns: size.columns) }
    let status = ViewRenderer.statusLine(
      feed: feedName, pages: pages.page, items: pages.placed.count, top: top, rows: pageRows,
      contentRows: renderer.contentRows(columns: size.columns), message: message,
      columns: size.columns)
    return lines + [ANSI.inverse + status + ANSI.reset]
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
