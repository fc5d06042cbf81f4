import FallsBase
import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// `falls layout` against the real server on 127.0.0.1, in-process; retries back off 10 ms.
private func run(_ arguments: [String], terminal: Bool = false) async -> CLIResult {
  await runCLI(["layout"] + arguments) { environment in
    environment.backoff = 0.01
    environment.standardErrorIsTerminal = terminal
  }
}

private func lines(_ text: String) -> [Substring] {
  text.split(separator: "\n")
}

/// The three mj-shop pages as one list of layout items.
private func shopItems() throws -> [LayoutItem] {
  try (1...3).flatMap { try Fixtures.layoutItems("mj-shop-\($0).json") }
}

@Suite(.tags(.process)) struct PagedLayoutTests {
  @Test("Generated heights too small for their tops are a usage error naming --min-height")
  func syntheticTooShort() async {
    let result = await run([
      "--synthetic", "10", "--min-height", "1e-300", "--max-height", "2e-300",
    ])
    #expect(result.code == .usage && result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: --min-height 1e-300 makes items too short to lay out"))
  }

  @Test("A URL feed lays out as the same feed read from a file")
  func urlEqualsFile() async throws {
    let server = try await TestServer()
    let fromURL = await run(["--feed", server.url("/feed/xr-waterfall.json"), "--format", "json"])
    let fromFile = await run(["--feed", Fixtures.path("xr-waterfall.json"), "--format", "json"])
    #expect(fromURL.code == .success)
    #expect(fromURL.standardError.isEmpty)
    // The same document, but for the feed it names.
    #expect(
      fromURL.standardOutput
        == fromFile.standardOutput.replacingOccurrences(
          of: #""feed":"\#(Fixtures.path("xr-waterfall.json"))""#,
          with: #""feed":"\#(server.url("/feed/xr-waterfall.json"))""#))
    #expect(try server.log().map { $0["userAgent"] } == ["falls/\(CLI.version)"])
  }

  @Test("Pages of a URL feed may be JSON Lines: each page's values are its items")
  func jsonLinesPages() async throws {
    let server = try await TestServer()
    func layout(_ name: String) async -> CLIResult {
      await run(["--feed", server.url("/feed/\(name)"), "--pages", "2", "--format", "jsonl"])
    }
    let lines = await layout("xr-waterfall.jsonl")
    #expect(lines.code == .success && lines.standardError.isEmpty)
    #expect(lines.standardOutput.split(separator: "\n").count == 2 * 42)
    #expect(lines.standardOutput == (await layout("xr-waterfall.json")).standardOutput)
  }

  @Test(
    "A feed given as an argument, with its scheme and host in any case, is read as --feed",
    arguments: [["HTTP://", "/feed/xr-waterfall.json"], ["Http://", "/feed/xr-waterfall.json"]])
  func positionalURL(parts: [String]) async throws {
    let server = try await TestServer()
    let written = parts[0] + server.url(parts[1]).dropFirst("http://".count)
    let positional = await run([written, "-f", "json"])
    let fromFile = await run(["--feed", Fixtures.path("xr-waterfall.json"), "--format", "json"])
    #expect(positional.code == .success, "\(positional.standardError)")
    // The document names the URL with its scheme and host in lower case, as it was fetched.
    #expect(
      positional.standardOutput
        == fromFile.standardOutput.replacingOccurrences(
          of: #""feed":"\#(Fixtures.path("xr-waterfall.json"))""#,
          with: #""feed":"\#(server.url(parts[1]))""#))
  }

  @Test("A missing path that starts like a host asks whether http:// was meant (66)")
  func missingHostPath() async {
    let result = await run(["127.0.0.1:9/feed.json"])
    #expect(result.code == .noInput && result.standardOutput.isEmpty)
    #expect(
      result.standardError
        == "falls: error: cannot read the feed file '127.0.0.1:9/feed.json': No such file or "
        + "directory; did you mean http://127.0.0.1:9/feed.json?\n")
  }

  @Test("Pages laid out in turn give exactly the layout of their concatenation")
  func pagesEqualConcatenation() async throws {
    let server = try await TestServer()
    let result = await run([
      "--feed", server.url("/pages/{page}?size={size}"), "--pages", "3", "--page-size", "50",
      "--format", "json",
    ])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    let whole = try WaterfallLayout(LayoutConfiguration(), items: try shopItems())
    #expect(document.elements == whole.elements)
    #expect(document.contentHeight == whole.contentHeight)
    #expect(document.items.map(\.index) == Array(0..<150))
    #expect(document.items.map(\.page) == (0..<150).map { $0 / 50 + 1 })
    let paths = try server.log().compactMap { $0["path"] }
    #expect(paths == ["/pages/1?size=50", "/pages/2?size=50", "/pages/3?size=50"])
  }

  @Test("--pages 1 output is a prefix of --pages 3 output")
  func prefix() async throws {
    let server = try await TestServer()
    let url = server.url("/pages/{page}?size={size}")
    let one = await run(["--feed", url, "--pages", "1", "--format", "jsonl"])
    let three = await run(["--feed", url, "--pages", "3", "--format", "jsonl"])
    #expect(lines(one.standardOutput).count == 20)
    #expect(lines(three.standardOutput).count == 60)
    #expect(three.standardOutput.hasPrefix(one.standardOutput))
  }

  @Test("Without {page} the same URL is fetched for every page")
  func sameURL() async throws {
    let server = try await TestServer()
    let result = await run(["--feed", server.url("/same"), "--pages", "3", "--format", "json"])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    #expect(document.elements.count == 150)
    #expect(try server.log().map { $0["path"] } == ["/same", "/same", "/same"])
  }

  @Test("An empty page ends the paging early, with a note")
  func exhausted() async throws {
    let server = try await TestServer()
    let result = await run([
      "--feed", server.url("/pages/{page}?size={size}"), "--pages", "6", "--page-size", "50",
      "--format", "jsonl",
    ])
    #expect(result.code == .success)
    #expect(lines(result.standardOutput).count == 150)
    #expect(
      result.standardError
        == "falls: page 4 of 6 is empty: the feed has no more items after 150\n")
    #expect(try server.log().count == 4)
  }

  @Test("A failing later page fails the run, and nothing reaches standard output")
  func laterPageFails() async throws {
    let server = try await TestServer()
    let url = server.url("/failing/2/{page}?size={size}")
    let result = await run(["--feed", url, "--pages", "3", "--retries", "1"])
    #expect(result.code == .unavailable)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError
        == "falls: error: page 2: GET \(server.url("/failing/2/2?size=20")): HTTP 500 Internal Server Error after 2 attempts; expected a 2xx answer with a finderlist JSON feed\n"
    )
  }

  @Test("--keep-partial prints the pages that arrived and says which page failed")
  func keepPartial() async throws {
    let server = try await TestServer()
    let url = server.url("/failing/3/{page}?size={size}")
    let result = await run([
      "--feed", url, "--pages", "4", "--retries", "0", "--keep-partial", "--format", "jsonl",
    ])
    #expect(result.code == .success)
    // The pages that arrived, then a line that says which failed.
    #expect(lines(result.standardOutput).count == 41)
    #expect(
      lines(result.standardOutput).last
        == #"{"kind":"failedPage","page":3,"pages":4,"error":"GET \#(server.url("/failing/3/3?size=20")): HTTP 500 Internal Server Error; expected a 2xx answer with a finderlist JSON feed"}"#
    )
    #expect(
      result.standardError
        == "falls: page 3 of 4 failed, printing the 2 pages that arrived (40 items): GET \(server.url("/failing/3/3?size=20")): HTTP 500 Internal Server Error; expected a 2xx answer with a finderlist JSON feed\n"
    )
  }

  @Test("--max-time is one deadline over every attempt: a server that never answers ends it")
  func maxTimeOverAttempts() async throws {
    let server = try await TestServer()
    // --timeout 2 with two retries would wait 6 s and more; --max-time 1 ends it at 1 s. (The
    // built binary, a process of its own: the test process's pool may be busy.)
    let run = try await measuredRun([
      "layout", server.url("/hang"), "--timeout", "2", "--max-time", "1",
    ])
    #expect(run.status == 69)
    #expect(run.error.contains("--max-time 1 s passed before an answer came"), "\(run.error)")
    #expect(run.seconds >= 1 && run.seconds < 4, "\(run.seconds) s")
  }

  @Test(
    "--max-time is one deadline over every page; with --keep-partial the pages that came are printed"
  )
  func maxTimeOverPages() async throws {
    let server = try await TestServer()
    let url = shellQuoted(server.url("/late/2/{page}?size={size}"))
    // Page 1 at once, pages 2 and 3 after 2 s each: 3 s is past by page 3.
    let failed = try await shell("\"$FALLS\" layout \(url) --pages 3 --max-time 3 -f jsonl")
    #expect(failed.status == 69 && failed.output.isEmpty)
    #expect(failed.error.hasPrefix("falls: error: page 3: GET "), "\(failed.error)")
    #expect(failed.error.contains("--max-time 3 s passed"))
    let kept = try await shell(
      "\"$FALLS\" layout \(url) --pages 3 --max-time 3 --keep-partial -f jsonl")
    #expect(kept.status == 0)
    // 40 items, then the line that names the failed page.
    #expect(lines(kept.text).count == 41)
    #expect(lines(kept.text).last?.hasPrefix(#"{"kind":"failedPage","page":3,"pages":3,"#) == true)
    #expect(kept.error.contains("page 3 of 3 failed") && kept.error.contains("--max-time 3 s"))
  }

  @Test(
    "-f jsonl --keep-partial streams each page's final lines before the next page comes, the same bytes as written at the end",
    arguments: [
      ("--align planned", 20 - PlannedAlignment.window, 40 - PlannedAlignment.window),
      ("--align seed", 20, 40), ("--align spread --flat-end", 0, 20),
      // A ring places every item again as more come: nothing is final before the end.
      ("--style circle", 0, 0),
    ])
  func streamsFinalItems(options: String, afterPage1: Int, afterPage2: Int) async throws {
    let server = try await TestServer()
    // Page 1 at once, pages 2 and 3 after 3 s each: the lines are counted at 1.5 s and 4.5 s.
    let url = shellQuoted(server.url("/late/3/{page}?size={size}"))
    let command = "\"$FALLS\" layout \(url) --pages 3 --keep-partial -f jsonl \(options)"
    let counted = try await shell(
      "out=$(mktemp); \(command) > \"$out\" & sleep 1.5; wc -l < \"$out\"; sleep 3; "
        + "wc -l < \"$out\"; wait $!; echo \"status $?\"; cat \"$out\"; rm -f \"$out\"")
    let outputLines = lines(counted.text)
    #expect(outputLines.prefix(3) == ["\(afterPage1)", "\(afterPage2)", "status 0"], "\(counted)")
    let buffered = try await shell(
      "out=$(mktemp); \(command) -o \"$out\" && cat \"$out\"; rm -f \"$out\"")
    #expect(Array(outputLines.dropFirst(3)) == lines(buffered.text) && outputLines.count == 63)
  }

  @Test(
    "Streamed with a flat end, a feed that ends early (an empty page) still flattens its last page with items: the same bytes as -o"
  )
  func streamsFlatEndOfShortFeed() async throws {
    let server = try await TestServer()
    let url = shellQuoted(server.url("/pages/{page}?size=40"))
    let command =
      "\"$FALLS\" layout \(url) --pages 5 --keep-partial -f jsonl --align planned --flat-end"
    let streamed = try await shell(command)
    let buffered = try await shell(
      "out=$(mktemp); \(command) -o \"$out\" && cat \"$out\"; rm -f \"$out\"")
    #expect(streamed.status == 0 && streamed.error.contains("page 5 of 5 is empty"))
    #expect(lines(streamed.text) == lines(buffered.text) && !lines(streamed.text).isEmpty)
  }

  @Test("A reader that stops early ends a streamed run quietly (141), as no page's failure")
  func streamToClosedPipe() async throws {
    let server = try await TestServer()
    let url = shellQuoted(server.url("/late/1/{page}?size=20"))
    let run = try await shell(
      "s=$(mktemp); { \"$FALLS\" layout \(url) --pages 4 --keep-partial -f jsonl; "
        + "echo \"status $?\" > \"$s\"; } | head -1 > /dev/null; cat \"$s\"; rm -f \"$s\"")
    #expect(run.text.contains("status 141"), "\(run)")
    #expect(run.error.isEmpty, "\(run.error)")
  }

  @Test("--keep-partial cannot help when the first page fails")
  func keepPartialFirstPage() async throws {
    let server = try await TestServer()
    let result = await run([
      "--feed", server.url("/failing/1/{page}"), "--pages", "2", "--retries", "0", "--keep-partial",
    ])
    #expect(result.code == .unavailable)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("falls: error: page 1: GET "))
  }

  @Test(
    "Each fault ends with 69 and one line naming the URL and what happened",
    arguments: [
      (["/status/404"], "HTTP 404 Not Found; expected a 2xx answer"),
      (["/status/500", "--retries", "1"], "HTTP 500 Internal Server Error after 2 attempts"),
      (["/loop/0"], "too many redirects (a redirect loop)"),
      (["/hang", "--timeout", "0.5", "--retries", "0"], "no complete answer within 0.5 s"),
      (["/trickle", "--timeout", "1", "--retries", "0"], "no complete answer within 1 s"),
      (["/short", "--retries", "0"], "the connection broke off (transfer closed"),
      (
        ["/html"],
        "the answer is not JSON (text/html, starting \"<!DOCTYPE html>\\u000a<html><body><h1>502"
      ),
      (["/broken"], "the answer is not valid JSON (line 1, column 36: unexpected end of input"),
      (["/big/5000", "--max-bytes", "4096"], "the body is larger than 4096 bytes"),
      (["/unsized/5000", "--max-bytes", "4096"], "the body is larger than 4096 bytes"),
    ])
  func faults(route: [String], message: String) async throws {
    let server = try await TestServer()
    let url = server.url(route[0])
    let result = await run(["--feed", url] + route.dropFirst())
    #expect(result.code == .unavailable)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("falls: error: GET \(url): "))
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(lines(result.standardError).count == 1)
  }

  @Test("Connection refused is retried, then ends with 69")
  func refused() async throws {
    let url = "http://127.0.0.1:\(refusedPort())/feed.json"
    let result = await run(["--feed", url, "--retries", "2"])
    #expect(result.code == .unavailable)
    #expect(result.standardError.hasPrefix("falls: error: GET \(url): cannot connect ("))
    #expect(result.standardError.contains("after 3 attempts"))
  }

  @Test("500 then success is retried into a normal run")
  func flaky() async throws {
    let server = try await TestServer()
    let result = await run(["--feed", server.url("/flaky/2/mj-shop-1.json"), "--format", "jsonl"])
    #expect(result.code == .success)
    #expect(lines(result.standardOutput).count == 50)
    #expect(try server.log().count == 3)
  }

  @Test("429 with Retry-After is waited out")
  func retryAfter() async throws {
    let server = try await TestServer()
    let start = ContinuousClock.now
    let result = await run([
      "--feed", server.url("/retry-after/1/mj-shop-2.json"), "--format", "jsonl",
    ])
    #expect(result.code == .success)
    #expect(ContinuousClock.now - start >= .seconds(1))
    #expect(lines(result.standardOutput).count == 50)
  }

  @Test("429 asking for longer than the deadline fails at once")
  func retryAfterTooLong() async throws {
    let server = try await TestServer()
    let result = await run([
      "--feed", server.url("/retry-after/30/mj-shop-2.json"), "--timeout", "2",
    ])
    #expect(result.code == .unavailable)
    #expect(result.standardError.contains("asks to wait 30 s, longer than the --timeout"))
  }

  @Test("A gzip answer and a redirect work")
  func gzipAndRedirect() async throws {
    let server = try await TestServer()
    let file = await run(["--feed", Fixtures.path("mj-shop-3.json"), "--format", "jsonl"])
    let gzip = await run(["--feed", server.url("/gzip/mj-shop-3.json"), "--format", "jsonl"])
    let redirect = await run([
      "--feed", server.url("/redirect/mj-shop-3.json"), "--format", "jsonl",
    ])
    #expect(gzip.standardOutput == file.standardOutput)
    #expect(redirect.standardOutput == file.standardOutput)
  }

  @Test(
    "Bad URLs and paging flags are usage errors",
    arguments: [
      (
        ["--feed", "ftp://example.com/feed"], "--feed 'ftp://example.com/feed' has the scheme 'ftp'"
      ),
      (["--feed", "http://"], "--feed 'http://' has no host"),
      (
        ["--feed", "feed.json", "--pages", "2"],
        "--pages does not apply to a feed file; it is for a URL feed"
      ),
      (["--pages", "3"], "--pages does not apply to the built-in feed; it is for a URL feed"),
      (["--pages", "0"], "invalid value '0' for '--pages'"),
      (["--page-size", "-1"], "invalid value '-1' for '--page-size'"),
      (["--timeout", "0"], "invalid value '0' for '--timeout'"),
      (
        ["--retries", "11"],
        "invalid value '11' for '--retries'; expected a whole number from 0 to 10"
      ),
      (["--max-bytes", "lots"], "invalid value 'lots' for '--max-bytes'"),
    ])
  func usage(arguments: [String], message: String) async {
    let result = await run(arguments)
    #expect(result.code == .usage)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }

  @Test("A page slower than a second says what falls waits for, on a terminal, unless --quiet")
  func slowPage() async throws {
    let server = try await TestServer()
    let url = server.url("/slow/1.6/xr-waterfall.json")
    let shown = await run([url, "-f", "jsonl"], terminal: true)
    #expect(shown.code == .success)
    #expect(
      shown.standardError == "\r\u{1B}[Kfalls: waiting for GET \(url)…\r\u{1B}[K",
      "\(shown.standardError)")
    let quiet = await run([url, "-f", "jsonl", "-q"], terminal: true)
    let piped = await run([url, "-f", "jsonl"], terminal: false)
    #expect(quiet.standardError.isEmpty && piped.standardError.isEmpty)
    #expect(quiet.standardOutput == shown.standardOutput)
    #expect(piped.standardOutput == shown.standardOutput)
  }

  @Test("Each retry is told on a terminal: the wait, what went wrong, the attempt")
  func retriesShown() async throws {
    let server = try await TestServer()
    let url = server.url("/flaky/2/xr-waterfall.json")
    let shown = await run([url, "-f", "jsonl", "--retries", "3"], terminal: true)
    #expect(shown.code == .success)
    // Each retry a line of its own (after the line of a wait, should the machine be slow).
    let lines = shown.standardError.split(separator: "\n").filter { $0.contains("retrying") }
    #expect(lines.count == 2, "\(shown.standardError)")
    for (line, attempt) in zip(lines, 2...) {
      // Backoff 0.01 s in these runs: the wait shows as 0.0 s.
      #expect(
        line.hasSuffix(
          "\r\u{1B}[Kfalls: retrying in 0.0 s: HTTP 500 Internal Server Error, attempt "
            + "\(attempt) of 4"))
    }
    let quiet = await run([url, "-f", "jsonl", "--retries", "3", "--quiet"], terminal: true)
    #expect(quiet.code == .success && quiet.standardError.isEmpty)
  }

  @Test("Progress shows on a terminal's standard error, never on standard output")
  func progress() async throws {
    let server = try await TestServer()
    let url = server.url("/pages/{page}?size={size}")
    let shown = await run(["--feed", url, "--pages", "3", "--format", "jsonl"], terminal: true)
    #expect(shown.code == .success)
    // A request slower than a second adds its line of waiting; the machine may be that slow.
    let erase = "\r\u{1B}[K"
    let parts = shown.standardError.components(separatedBy: erase)
    let withoutWaits = parts.filter { !$0.hasPrefix("falls: waiting for GET ") }
    let expected: String =
      "\r\u{1B}[Kfalls: fetching page 1 of 3, 0 items so far"
      + "\r\u{1B}[Kfalls: fetching page 2 of 3, 20 items so far"
      + "\r\u{1B}[Kfalls: fetching page 3 of 3, 40 items so far"
      + "\r\u{1B}[Kfalls: fetched 3 of 3 pages, 60 items\n"
    #expect(withoutWaits.joined(separator: erase) == expected)
    #expect(!shown.standardOutput.contains("fetch"))
    let quiet = await run(["--feed", url, "--pages", "3", "--quiet"], terminal: true)
    let piped = await run(["--feed", url, "--pages", "3"], terminal: false)
    let onePage = await run(["--feed", url], terminal: true)
    #expect(quiet.standardError.isEmpty && piped.standardError.isEmpty)
    #expect(
      onePage.standardError.components(separatedBy: erase).allSatisfy {
        $0.isEmpty || $0.hasPrefix("falls: waiting for GET ")
      })
    #expect(!quiet.standardOutput.isEmpty)
  }

  @Test(
    "A progress line is cut to one column less than the terminal, with …, so that it never wraps",
    arguments: [20, 40, 80])
  func progressFits(columns: Int) throws {
    let sink = BufferSink()
    let progress = Progress(sink: sink, pages: 3, isShown: true, columns: columns)
    let url = "http://127.0.0.1:9/" + String(repeating: "瀑布/", count: 40) + "feed.json"
    progress.fetching(page: 2, items: 20)
    progress.waiting(for: url, page: 2)
    progress.retrying(in: 1, after: .status(503, reason: "Service Unavailable"), attempt: 2, of: 3)
    progress.finish(pages: 3, items: 60)
    let lines = sink.text.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
    #expect(lines.count == 4)
    for line in lines {
      let body = line.hasSuffix("\n") ? String(line.dropLast()) : line
      #expect(displayWidth(body) <= columns - 1, "\(body)")
      #expect(!body.contains("\n"))
    }
    #expect(lines[1].hasPrefix("falls: waiting") && lines[1].hasSuffix("…"))
    // The retry keeps a line of its own; the others are written over.
    #expect(lines[2].hasSuffix("\n") && !lines[1].hasSuffix("\n"))
  }

  @Test("An invalid item on a later page is named by its index in the whole feed and its page")
  func invalidOnLaterPage() async throws {
    let server = try await TestServer()
    let url = server.url("/sequence/mj-shop-1.json,invalid-items.json/{page}")
    let failed = await run(["--feed", url, "--pages", "2"])
    #expect(failed.code == .dataError)
    #expect(failed.standardOutput.isEmpty)
    #expect(
      failed.standardError.hasPrefix("falls: error: page 2: feed item 52: \"width\" is \"wide\""))
    let skipped = await run(["--feed", url, "--pages", "3", "--skip-invalid", "--format", "jsonl"])
    #expect(skipped.code == .success)
    let indices = try itemIndices(ofJSONLines: skipped.standardOutput).map(String.init)
    #expect(indices == (0..<52).map(String.init) + ["53"])
    #expect(
      skipped.standardError
        == """
        falls: skipped item 52: "width" is "wide"; expected a positive number, as a string like "1200" or a JSON number
        falls: skipped 1 of 54 items; laid out 53
        falls: page 3 of 3 is empty: the feed has no more items after 54

        """)
  }

  @Test(
    "--skip-invalid that leaves no item over the whole run is 65, with the first reason",
    arguments: [
      (["no-valid-items.json"], 3), (["no-valid-items.json", "no-valid-items.json"], 6),
    ])
  func noValidItem(pages: [String], skipped: Int) async throws {
    let server = try await TestServer()
    let url = server.url("/sequence/\(pages.joined(separator: ","))/{page}")
    for format in ["table", "json", "jsonl", "svg"] {
      let result = await run([
        "--feed", url, "--pages", "\(pages.count + 1)", "--skip-invalid", "-f", format,
      ])
      #expect(result.code == .dataError && result.standardOutput.isEmpty)
      #expect(
        result.standardError.hasPrefix(
          "falls: error: no valid item: skipped \(skipped) of \(skipped); the first: item 0: "),
        "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
  }

  @Test("A page of invalid items among valid ones is skipped as ever: no item is over the run")
  func invalidPageAmongValid() async throws {
    let server = try await TestServer()
    let url = server.url("/sequence/no-valid-items.json,mj-shop-1.json/{page}")
    let result = await run(["--feed", url, "--pages", "2", "--skip-invalid", "-f", "jsonl"])
    #expect(result.code == .success)
    #expect(
      try itemIndices(ofJSONLines: result.standardOutput).map(String.init)
        == (3..<53).map(String.init))
    #expect(result.standardError.contains("falls: skipped 3 of 53 items; laid out 50\n"))
  }

  @Test("A feed without items is an empty layout, not an error")
  func emptyFeed() async {
    let result = await runCLI(
      ["layout", "-", "--skip-invalid", "-f", "jsonl"], input: #"{"data": []}"#)
    #expect(result.code == .success && result.standardError.isEmpty)
  }

  @Test("--synthetic lays out generated items with heights in range in the waterfall style")
  func synthetic() async throws {
    let result = await run([
      "--synthetic", "300", "--style", "waterfall", "--columns", "4", "--min-height", "80",
      "--max-height", "90", "--seed", "5", "--format", "json",
    ])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    #expect(document.elements.count == 300)
    #expect(document.elements.allSatisfy { $0.frame.height >= 80 && $0.frame.height <= 90 })
    #expect(document.items.map(\.img).prefix(2) == ["synthetic:0", "synthetic:1"])
    let again = await run([
      "--synthetic", "300", "--style", "waterfall", "--columns", "4", "--min-height", "80",
      "--max-height", "90", "--seed", "5", "--format", "json",
    ])
    #expect(again.standardOutput == result.standardOutput)
  }

  @Test("Every style runs end to end on a URL feed", arguments: LayoutStyle.allCases)
  func stylesOverURL(style: LayoutStyle) async throws {
    let server = try await TestServer()
    let result = await run([
      "--feed", server.url("/pages/{page}"), "--pages", "2", "--style", style.rawValue,
      "--format", "jsonl",
    ])
    #expect(result.code == .success)
    #expect(lines(result.standardOutput).count == 40)
  }

  @Test("A span wider than the columns is clamped with a note; other styles say they ignore spans")
  func spanNotes() async throws {
    let feed =
      #"{"data": [{"img": "a", "width": "1", "height": "1", "span": 5}, {"img": "b", "width": "1", "height": "1", "span": "full"}]}"#
    let clamped = await runCLI(["layout", "--feed", "-", "--format", "jsonl"], input: feed)
    #expect(clamped.code == .success)
    #expect(
      clamped.standardError == "falls: item 0 asks to span 5 columns; clamped to the 3 there are\n")
    let spans = try lines(clamped.standardOutput).map { line in
      try JSONDecoder().decode([String: AnyCodableSpan].self, from: Data(line.utf8))["span"]?.value
    }
    #expect(spans == [3, 3])
    let grid = await runCLI(["layout", "--feed", "-", "--style", "grid"], input: feed)
    #expect(grid.standardError == "falls: the grid style ignores the span of 2 items on page 1\n")
  }
}

/// Reads only numbers from a JSON object's values, ignoring others.
private struct AnyCodableSpan: Decodable, Equatable {
  var value: Int?
  init(from decoder: any Decoder) throws {
    value = try? decoder.singleValueContainer().decode(Int.self)
  }
}

@Suite struct PlacedItemsTests {
  private func items(_ count: Int, from first: Int) -> [FeedItem] {
    (first..<first + count).map { FeedItem(index: $0, img: "i\($0)", width: 1, height: 1) }
  }

  @Test(
    "Each position knows its page, across runs of any length and pages that brought nothing",
    arguments: [
      [(3, 1)], [(1, 1), (1, 2), (1, 3)], [(2, 1), (0, 2), (5, 3)], [(4, 1), (1, 4), (3, 7)],
      [(0, 1), (2, 2)],
    ])
  func pages(runs: [(count: Int, page: Int)]) {
    var placed = PlacedItems()
    var expected: [Int] = []
    for run in runs {
      placed.append(FeedItems(items(run.count, from: expected.count)), page: run.page)
      expected += Array(repeating: run.page, count: run.count)
    }
    #expect(placed.count == expected.count)
    #expect((0..<placed.count).map(placed.page(at:)) == expected)
    #expect((0..<placed.count).map(placed.feedIndex(at:)) == Array(0..<expected.count))
  }

  @Test("Generated items are item i, synthetic:i, of page 1, their sizes made again on demand")
  func syntheticItems() {
    let generator = SyntheticFeed.Generator(
      seed: 7, minimumHeight: 100, maximumHeight: 250, columnWidth: 111)
    let placed = PlacedItems(generated: generator, count: 12)
    #expect(placed.count == 12)
    #expect(
      placed.layoutItems
        == SyntheticFeed.items(
          count: 12, seed: 7, minimumHeight: 100, maximumHeight: 250, columnWidth: 111))
    #expect((0..<12).map(placed.feedIndex(at:)) == Array(0..<12))
    #expect((0..<12).map(placed.page(at:)) == Array(repeating: 1, count: 12))
    #expect(placed.withImage(at: 11) { String(decoding: $0, as: UTF8.self) } == "synthetic:11")
  }

}

@Suite struct PageAddingTests {
  /// A page longer than one batch whose item `tall` is too tall to lay out.
  private func longPage(tall: Int) -> Feed {
    let count = PageBatches.batchSize + 500
    return Feed(
      items: (0..<count).map { index in
        FeedItem(
          index: index, img: "i\(index)", width: index == tall ? 1e-300 : 1,
          height: index == tall ? 1e300 : 1)
      })
  }

  @Test("A page that fails in a later batch leaves the layout and the placed items as they were")
  func failedPageChangesNothing() throws {
    var layout = try WaterfallLayout(LayoutConfiguration(columns: 3))
    var placed = PlacedItems()
    var first = Feed(items: [FeedItem(index: 0, img: "a", width: 1, height: 1)])
    try PageBatches.add(
      &first, page: 1, firstIndex: 0, skipInvalid: false, to: &layout, placed: &placed)
    let before = layout
    var page = longPage(tall: PageBatches.batchSize + 100)
    #expect(throws: CLIError.self) {
      try PageBatches.add(
        &page, page: 2, firstIndex: 1, skipInvalid: false, to: &layout, placed: &placed)
    }
    #expect(layout.elements == before.elements && layout.columnBottoms == before.columnBottoms)
    #expect(placed.count == 1)
  }

  @Test("With --skip-invalid the too-tall item becomes a problem and the rest of the page goes in")
  func skipsTooTall() throws {
    var layout = try WaterfallLayout(LayoutConfiguration(columns: 3))
    var placed = PlacedItems()
    let tall = PageBatches.batchSize + 100
    var page = longPage(tall: tall)
    try PageBatches.add(
      &page, page: 1, firstIndex: 10, skipInvalid: true, to: &layout, placed: &placed)
    #expect(page.problems.map(\.index) == [tall + 10])
    #expect(layout.elements.count == PageBatches.batchSize + 499)
    #expect(placed.count == layout.elements.count)
    #expect(placed.feedIndex(at: tall) == tall + 11)
  }
}
