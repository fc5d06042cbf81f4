import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation

/// `falls view`: the layout drawn in the terminal, scrolled with the keyboard; reaching the
/// bottom loads the next page, `r` starts over from page 1.
enum ViewCommand {
  static let name = "view"

  static var help: String {
    let about =
      "Takes the options of 'falls layout' that read the feed and make the layout, listed "
      + "below; --pages N loads N pages to begin with. Each box is an item at its frame, "
      + "labelled with its feed index: double lines for an enlarged item, ≈ beside an aligned "
      + "one, dashed sides for an item the next page may still move (--align planned). "
      + "Reaching the bottom of a URL feed with {page} loads its next page; the keys keep "
      + "working while it loads. Standard output must be a terminal; the keys are read from "
      + "standard input, or from /dev/tty when standard input holds the feed "
      + "(cat feed.json | falls view). To print the layout, use 'falls layout'."
    return HelpText.page(
      .view, overview: "Show a feed's layout in the terminal and scroll through it.",
      about: about, keys: ViewerKey.lines)
  }

  /// Parses `falls view`'s arguments: those of `falls layout` without its output options.
  static func parse(_ arguments: [String], standardInputIsFeed: Bool = false) throws(CLIError)
    -> LayoutOptions
  {
    try LayoutCommand.parse(arguments, for: .view, standardInputIsFeed: standardInputIsFeed)
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
            // A run that showed no item, every one skipped, ends as a layout's would.
            if let error = viewer.pages.noValidItem { throw error }
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
        // The last page seen and no item among them all: nothing to show.
        if viewer.exhausted, let error = viewer.pages.noValidItem { throw error }
        pagesToLoad -= 1
        // The pages --pages asks for, one after another, to begin with.
        if pagesToLoad > 0 { viewer.loadNextPage() }
      }
      viewer.draw()
    }
  }
}
