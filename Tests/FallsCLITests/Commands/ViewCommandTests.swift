import FallsBase
import FallsFeed
import FallsFixtures
import FallsTerminal
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

@Suite(.tags(.process)) struct ViewCommandTests {
  @Test("Without a terminal, falls view refuses with 64 and points to falls layout")
  func needsTerminal() async {
    // Tests run with standard input and output that are not terminals.
    let result = await runCLI(["view"])
    #expect(result.code == .usage)
    #expect(
      result.standardError
        == "falls: error: falls view needs a terminal on standard output, and one to read keys "
        + "from (standard input, or /dev/tty when standard input holds the feed); to print the "
        + "layout, use 'falls layout'\n")
    #expect(result.standardOutput.isEmpty)
  }

  @Test(
    "Output options belong to falls layout; layout options are checked as falls layout checks them",
    arguments: [
      (
        ["--format", "json"],
        "--format is an option of 'falls layout', 'falls probe', 'falls check' and 'falls diff', not of 'falls view'"
      ),
      (
        ["--output=x.svg"],
        "--output is an option of 'falls layout', 'falls probe', 'falls check' and 'falls diff', not of 'falls view'"
      ),
      (
        ["--rect", "0,0,1,1"],
        "--rect is an option of 'falls layout', not of 'falls view'"
      ),
      (
        ["--quiet"],
        "--quiet is an option of 'falls layout', 'falls probe' and 'falls check', not of 'falls view'"
      ),
      (
        ["--keep-partial"],
        "--keep-partial is an option of 'falls layout', 'falls probe' and 'falls check', not of 'falls view'"
      ),
      (["--columns", "0"], "invalid value '0' for '--columns'"),
      (
        ["-f", "json"],
        "--format is an option of 'falls layout', 'falls probe', 'falls check' and 'falls diff', not of 'falls view'"
      ),
      (
        ["-q"],
        "--quiet is an option of 'falls layout', 'falls probe' and 'falls check', not of 'falls view'"
      ),
      (["a.json", "b.json"], "unexpected argument 'b.json'; falls view takes one feed"),
    ])
  func options(arguments: [String], message: String) async {
    let result = await runCLI(["view"] + arguments)
    #expect(result.code == .usage)
    #expect(result.standardError.hasPrefix("falls: error: \(message)"), "\(result.standardError)")
    #expect(result.standardError.hasSuffix("See 'falls view --help' for usage.\n"))
  }

  @Test("Help lists the keys, from falls view --help and falls help view alike")
  func help() async {
    let direct = await runCLI(["view", "--help"])
    let indirect = await runCLI(["help", "view"])
    #expect(direct.code == .success && direct.standardOutput == ViewCommand.help)
    #expect(indirect.standardOutput == ViewCommand.help)
    // One line a key, every description starting in the same column.
    let keyLines = direct.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "KEYS:" }.dropFirst().prefix { !$0.isEmpty }
    #expect(keyLines.count == ViewerKey.all.count)
    let columns = Set(
      zip(keyLines, ViewerKey.all).map { line, key in
        line.distance(
          from: line.startIndex, to: line.range(of: key.help)?.lowerBound ?? line.startIndex)
      })
    #expect(columns.count == 1, "\(keyLines)")
    #expect(direct.standardOutput.contains("  q           quit"))
    #expect(
      direct.standardOutput.contains("  Ctrl-C      quit with status 130, as a shell expects"))
  }

  @Test("A feed given as an argument is the feed, as with --feed")
  func positionalFeed() throws {
    #expect(try ViewCommand.parse(["x.json", "-c", "2"]).feed == .file("x.json"))
    #expect(try ViewCommand.parse(["-"]).feed == .standardInput)
  }

  /// Feeds and flags that make a layout far taller or wider than any screen.
  static let hostileViews: [(arguments: [String], feed: String?)] = [
    (["-"], #"{"data":[{"img":"a","width":1,"height":1e18}]}"#),
    (["-"], #"{"data":[{"img":"a","width":1,"height":1e17}]}"#),
    (["-", "--style", "waterfall"], #"{"data":[{"img":"a","width":1,"height":1e6}]}"#),
    (["-", "-w", "1e9", "-c", "1"], #"{"data":[{"img":"a","width":1,"height":1e290}]}"#),
    (["--header-height", "1e9"], nil), (["--row-spacing", "1e9"], nil),
    (["--style", "circle", "--item-size", "1e9"], nil),
    (["--style", "sphere", "--item-size", "1e9"], nil),
    (["--style", "cube", "--item-size", "1e9", "--height", "1000", "--offset", "1e9"], nil),
    (["--axis", "horizontal", "--height", "1e9", "--row-spacing", "1e9"], nil),
  ]

  @Test(
    "A layout of any size is drawn a screen at a time: top, a line down, the middle, the bottom",
    .timeLimit(.minutes(1)), arguments: hostileViews)
  func hostileScreens(arguments: [String], feed: String?) async throws {
    let options = try LayoutCommand.parse(arguments, for: .view)
    let environment = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data((feed ?? "").utf8)) },
      standardOutput: BufferSink(), standardError: BufferSink())
    for size in [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40)] {
      var viewer = Viewer(options: options, environment: environment, size: size)
      viewer.loadNextPage()
      // Standard input is read on a thread of its own, as the keys go on.
      for _ in 0..<3000 where viewer.isLoading && !viewer.finishLoading() {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(viewer.pages.placed.count > 0, "\(viewer.message ?? "")")
      let contentRows = viewer.renderer.contentRows(columns: size.columns)
      #expect(contentRows >= 1 && contentRows <= ViewRenderer.farthestCell)
      for key in [Key.character("j"), .pageDown, .end, .up, .home] {
        _ = viewer.handle(key)
        let screen = viewer.screen()
        #expect(screen.count == size.rows)
        // Every line of the layout as wide as the terminal (an item larger than the screen
        // may leave it all inside its box, blank).
        for line in screen.dropLast() where !line.hasPrefix(ANSI.inverse) {
          #expect(line.count == size.columns, "\(line)")
        }
      }
      // The middle of the content: a screen of the box's sides, or of its inside.
      viewer.top = contentRows / 2
      #expect(viewer.screen().count == size.rows)
    }
  }

  /// A viewer of the built-in feed at `size`, its first page loaded.
  private func viewer(_ arguments: [String] = [], size: TerminalSize) throws -> Viewer {
    let options = try LayoutCommand.parse(arguments, for: .view)
    let environment = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data()) },
      standardOutput: BufferSink(), standardError: BufferSink())
    var viewer = Viewer(options: options, environment: environment, size: size)
    viewer.loadNextPage()
    return viewer
  }

  @Test(
    "A resize keeps at the top of the screen the point of the content that was there",
    arguments: [(120, 80), (80, 120), (100, 40)])
  func resizeKeepsTop(from: Int, to: Int) throws {
    var viewer = try viewer(size: TerminalSize(columns: from, rows: 24))
    viewer.scroll(to: 60)
    let point = Double(viewer.top) * viewer.renderer.scale(columns: from).down
    viewer.resize(to: TerminalSize(columns: to, rows: 24))
    let down = viewer.renderer.scale(columns: to).down
    // The row now at the top holds that point.
    #expect(Double(viewer.top) * down <= point && point < Double(viewer.top + 1) * down)
  }

  @Test("- at one column says why nothing changed; r keeps the column count")
  func columnKeys() throws {
    var one = try viewer(["-c", "1"], size: TerminalSize(columns: 80, rows: 24))
    _ = one.handle(.character("-"))
    #expect(one.message?.contains("one column is the fewest") == true)
    #expect(one.options.configuration.columns == 1)
    var three = try viewer(size: TerminalSize(columns: 120, rows: 24))
    _ = three.handle(.character("+"))
    _ = three.handle(.character("r"))
    _ = three.finishLoading()
    #expect(three.screen().last?.contains(" · 4 columns") == true)
  }

  @Test(
    "After +, at every size down to 40 × 10: exactly as many lines as rows, each as wide as the terminal, the count of columns once and no line of note",
    arguments: [(40, 10), (50, 15), (80, 24), (120, 40)])
  func screenAfterMoreColumns(columns: Int, rows: Int) throws {
    var viewer = try viewer(size: TerminalSize(columns: columns, rows: rows))
    let count = viewer.options.configuration.columns + 1
    _ = viewer.handle(.character("+"))
    let screen = viewer.screen()
    #expect(screen.count == rows)
    let shown = screen.map {
      $0.replacingOccurrences(of: ANSI.inverse, with: "").replacingOccurrences(
        of: ANSI.reset, with: "")
    }
    for line in shown { #expect(displayWidth(line) == columns, "\(line)") }
    // The layout, then the status line alone: no message wrapped above it.
    #expect(screen.dropLast().allSatisfy { !$0.hasPrefix(ANSI.inverse) }, "\(shown)")
    let text = shown.joined(separator: "\n")
    #expect(text.components(separatedBy: "\(count) columns").count == 2, "\(text)")
    #expect(shown.last?.contains(" · \(count) columns") == true, "\(text)")
  }

  @Test("--sizes in the viewer: a page's images are read apart, then it is laid out as layout's")
  func sizes() async throws {
    let arguments = [Fixtures.path("mis-sized.json"), "--sizes", "images"]
    var viewer = try viewer(arguments, size: TerminalSize(columns: 80, rows: 24))
    #expect(viewer.isLoading)
    for _ in 0..<500 where !viewer.finishLoading() {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(viewer.pages.placed.count == 10, "\(viewer.message ?? "")")
    let layout = await runCLI(
      ["layout"] + arguments + ["-f", "jsonl", "--fields", "x,y,width,height"])
    let frames = viewer.pages.layout.elements.map { element in
      let frame = element.frame
      return "{\"x\":\(formatNumber(frame.x)),\"y\":\(formatNumber(frame.y)),"
        + "\"width\":\(formatNumber(frame.width)),\"height\":\(formatNumber(frame.height))}"
    }
    #expect(frames.joined(separator: "\n") + "\n" == layout.standardOutput)
  }

  @Test("A feed of no valid item, every page seen, is the error that ends falls view (65)")
  func noValidItem() async throws {
    let arguments = [Fixtures.path("no-valid-items.json"), "--skip-invalid"]
    var viewer = try viewer(arguments, size: TerminalSize(columns: 80, rows: 24))
    for _ in 0..<500 where viewer.isLoading && !viewer.finishLoading() {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(viewer.exhausted && viewer.pages.placed.count == 0)
    let error = try #require(viewer.pages.noValidItem)
    #expect(outcome(of: error).code == .dataError)
    #expect(
      outcome(of: error).message.hasPrefix("no valid item: skipped 3 of 3; the first: item 0: "))
  }

  @Test("falls view - with the terminal on standard input is refused at once (64)")
  func standardInputTerminal() async {
    let result = await runCLI(["view", "-"]) { $0.standardInputKind = .terminal }
    #expect(result.code == .usage)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: falls view reads its keys from the terminal on standard input, so the "
          + "feed cannot come from there too ('-')"), "\(result.standardError)")
  }

  @Test("A pending page is fetched by a task of its own; cancelled, it gives up at once")
  func pendingPage() async throws {
    let server = try await TestServer()
    // Ten minutes: a fetch that ends within the minute waited for below ended because it was
    // cancelled. (How soon is not asserted: a loaded test process is late to look.)
    let fetcher = FeedFetcher(policy: FetchPolicy(timeout: 600, retries: 0))
    let url = try #require(URL(string: server.url("/feed/xr-waterfall.json")))
    /// A page that is `url`'s feed, fetched and decoded.
    func page(_ number: Int, _ url: URL) -> PendingPage {
      PendingPage(page: number) {
        do throws(FetchError) {
          let body = try await fetcher.fetchFeed(url)
          do throws(FeedError) {
            return .success(try FeedDecoder.decode(body))
          } catch {
            return .failure(.feed(error))
          }
        } catch {
          return .failure(.fetch(error))
        }
      }
    }
    let pending = page(1, url)
    var outcome = pending.outcome
    for _ in 0..<6000 where outcome == nil {
      try await Task.sleep(nanoseconds: 10_000_000)
      outcome = pending.outcome
    }
    #expect(try outcome?.get().items == Fixtures.feed("xr-waterfall.json").items)
    #expect(try outcome?.get().location == .web(url))
    let hanging = page(2, try #require(URL(string: server.url("/hang"))))
    // Cancelled once the server holds the request.
    for _ in 0..<1000 where try !server.log().contains(where: { $0["path"] == "/hang" }) {
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    hanging.cancel()
    var cancelled = hanging.outcome
    for _ in 0..<6000 where cancelled == nil {
      try await Task.sleep(nanoseconds: 10_000_000)
      cancelled = hanging.outcome
    }
    guard case .failure(.fetch(let error))? = cancelled else {
      Issue.record("the cancelled page came: \(String(describing: cancelled))")
      return
    }
    #expect(error.cause == .transport(.cancelled))
  }
}
