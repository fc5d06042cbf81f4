import FallsBase
import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

private let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

private let jqPath = ["/usr/bin/jq", "/usr/local/bin/jq"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// A tmux session on its own server socket, running `command` in a `width`-column terminal
/// that stays open for 30 s after the command ends, with a last line saying that it ended.
private struct TerminalSession {
  let socket = "falls-test-\(UInt64.random(in: 0 ... .max))"
  /// Printed when the command has ended; a wait for text that is not there by then fails at once.
  static let endMarker = "[falls-test: the command ended]"

  init(_ command: String, width: Int, height: Int = 20) async throws {
    let script = "\(command); echo '\(Self.endMarker)'; sleep 30"
    let start = try await shell(
      "tmux -L \(socket) new-session -d -x \(width) -y \(height) \(shellQuoted(script))",
      capture: false)
    guard start.status == 0 else { throw TerminalFailure(screen: "tmux did not start") }
  }

  /// The command ended, or 15 s went by, without `text` on the screen.
  struct TerminalFailure: Error, CustomStringConvertible {
    var screen: String
    var description: String { "the screen never showed the text awaited:\n\(screen)" }
  }

  /// The screen once it contains `text`.
  ///
  /// - Throws: ``TerminalFailure`` when the command ends without showing it, or after 15 s.
  func screen(containing text: String) async throws -> String {
    try await screen { $0.contains(text) }
  }

  /// The screen once `isAwaited` holds for it.
  ///
  /// - Throws: ``TerminalFailure`` when the command ends first, or after 15 s.
  func screen(where isAwaited: (String) -> Bool) async throws -> String {
    var screen = ""
    for _ in 0..<150 {
      screen = String(
        decoding: try await shell("tmux -L \(socket) capture-pane -p", timeout: 10).output,
        as: UTF8.self)
      if isAwaited(screen) { return screen }
      if screen.contains(Self.endMarker) { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw TerminalFailure(screen: screen)
  }

  /// Types `keys` (tmux key names, such as `j`, `Space` or `C-c`).
  func send(_ keys: String...) async throws {
    _ = try await shell(
      "tmux -L \(socket) send-keys \(keys.joined(separator: " "))", capture: false)
  }

  /// Types `key`, waits for `text` on the screen, expects it there, and returns the screen.
  @discardableResult
  func press(
    _ key: String, thenExpect text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> String {
    try await send(key)
    let screen = try await screen(containing: text)
    #expect(screen.contains(text), "\(screen)", sourceLocation: sourceLocation)
    return screen
  }

  func close() {
    _ = try? shell("tmux -L \(socket) kill-server", capture: false)
  }
}

@Suite(.serialized, .tags(.process)) struct MainTests {
  @Test("The built binary lays out the embedded feed as the in-process CLI does")
  func builtBinary() async throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: fallsBinary.path),
      "no binary at \(fallsBinary.path)")
    let run = try await shell("\"$FALLS\" layout --format json")
    #expect(run.status == 0)
    #expect(run.error.isEmpty)
    #expect(run.output == (try Fixtures.data("golden/embedded-default.json")))
  }

  @Test(
    "The binary's exit status is the CLI's",
    arguments: [
      ("--version", 0), ("layout --columns 0", 64), ("layout --feed /nonexistent", 66),
      ("layout --feed - < \(Fixtures.path("images/not-an-image.txt"))", 65),
      ("nonsense", 64),
    ] as [(String, Int32)])
  func exitStatus(arguments: String, status: Int32) async throws {
    let run = try await shell("\"$FALLS\" \(arguments)")
    #expect(run.status == status)
    if status != 0 {
      #expect(run.output.isEmpty)
      #expect(run.error.hasPrefix("falls: error: "))
    }
  }

  @Test("A standard output closed at the start is refused with 74, before any work")
  func closedStandardOutput() async throws {
    let run = try await shell("\"$FALLS\" layout >&-")
    #expect(run.status == 74)
    #expect(run.error.hasPrefix("falls: error: standard output is closed"), "\(run.error)")
    // With --output the result has somewhere to go.
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-closed-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: path) }
    let file = try await shell(
      "\"$FALLS\" layout -f json -o \(shellQuoted(path.path)) >&-")
    #expect(file.status == 0, "\(file.error)")
    #expect(try Data(contentsOf: path) == (try Fixtures.data("golden/embedded-default.json")))
  }

  @Test(
    "Standard input or error closed at the start: the built-in feed, and output as usual",
    arguments: ["<&-", "2>&-", "<&- 2>&-"])
  func closedInputOrError(redirection: String) async throws {
    let run = try await shell("\"$FALLS\" layout --format json \(redirection)")
    #expect(run.status == 0)
    #expect(run.output == (try Fixtures.data("golden/embedded-default.json")))
  }

  @Test(
    "Without a feed, a pipe, a FIFO or a file on standard input is the feed; /dev/null is not",
    arguments: [
      ("cat FEED | \"$FALLS\" layout -f json", "-"),
      ("\"$FALLS\" layout -f json < FEED", "-"),
      ("mkfifo \"$T/fifo\"; cat FEED > \"$T/fifo\" & \"$FALLS\" layout -f json < \"$T/fifo\"", "-"),
      ("\"$FALLS\" layout -f json < /dev/null", "built-in"),
    ])
  func pipedFeed(command: String, feed: String) async throws {
    let path = Fixtures.path("zx-shopdata.json")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-piped-\(UInt64.random(in: 0 ... .max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script =
      "T=\(shellQuoted(folder.path)); "
      + command.replacingOccurrences(of: "FEED", with: shellQuoted(path))
    let run = try await shell(script, timeout: 30)
    #expect(run.status == 0, "\(run.error)")
    let document = try ParsedLayout(json: run.output)
    #expect(run.text.hasPrefix(#"{"schema":"falls.layout/1","feed":"\#(feed)","#))
    let expected =
      feed == "-"
      ? try WaterfallLayout(
        LayoutConfiguration(), items: try Fixtures.feed("zx-shopdata.json").items.map(\.layoutItem)
      ).elements
      : try ParsedLayout(json: try Fixtures.data("golden/embedded-default.json")).elements
    #expect(document.elements == expected)
  }

  @Test(
    "On one processor a long layout is written whole, as on many (the writer's workers never wait for each other)",
    arguments: ["jsonl", "json"])
  func oneProcessor(format: String) async throws {
    let arguments = ["layout", "--synthetic", "20000", "--format", format]
    let pinned = try await shell(
      "taskset -c 0 \"$FALLS\" \(arguments.joined(separator: " "))", timeout: 30)
    #expect(pinned.status == 0, "taskset -c 0: status \(pinned.status)")
    let inProcess = await runCLI(arguments)
    #expect(String(decoding: pinned.output, as: UTF8.self) == inProcess.standardOutput)
  }

  @Test(
    "--max-bytes bounds every source: an endless device and endless standard input end with 66",
    arguments: [
      "layout --feed /dev/zero --max-bytes 1000", "layout --feed - --max-bytes 1000 < /dev/zero",
      "layout --feed /dev/urandom",
    ])
  func endlessInput(arguments: String) async throws {
    let run = try await shell("\"$FALLS\" \(arguments)", timeout: 60)
    #expect(run.status == 66)
    #expect(run.output.isEmpty)
    #expect(run.error.contains("more than --max-bytes"), "\(run.error)")
  }

  @Test(
    "A regular file is read whatever its size, on a path or on standard input; --max-bytes given refuses it before it is read"
  )
  func fileOverLimit() async throws {
    let directory = FileManager.default.temporaryDirectory
    let path = directory.appendingPathComponent("falls-big-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: path) }
    // A sparse file of 2 GiB with a bad first byte: read (mapped), its error is found at the
    // first byte without reading (or copying) the rest.
    #expect(FileManager.default.createFile(atPath: path.path, contents: Data("x".utf8)))
    #expect(truncate(path.path, 2 << 30) == 0)
    for redirection in ["", "<"] {
      let measured = try await measuredRun(
        ["layout"] + (redirection.isEmpty ? ["--feed", path.path] : []),
        input: redirection.isEmpty ? nil : path.path, timeout: 60)
      #expect(measured.status == 65, "\(measured.error)")
      #expect(measured.error.contains("line 1, column 1: unexpected 'x'"), "\(measured.error)")
      #expect(
        measured.peakBytes > 0 && measured.peakBytes < 200 << 20, "\(measured.peakBytes) bytes")
    }
    // Given, --max-bytes holds a regular file to it, before anything is read.
    for command in [
      "\"$FALLS\" layout --max-bytes 1000000 --feed \(shellQuoted(path.path))",
      "\"$FALLS\" layout --max-bytes 1000000 < \(shellQuoted(path.path))",
    ] {
      let refused = try await shell(command)
      #expect(refused.status == 66)
      #expect(
        refused.error.contains("more than --max-bytes 1000000 bytes; give a larger --max-bytes"),
        "\(refused.error)")
    }
    // A pipe keeps the default limit: it could be endless.
    let piped = try await shell("head -c 100000000 \(shellQuoted(path.path)) | \"$FALLS\" layout")
    #expect(piped.status == 66)
    #expect(piped.error.contains("standard input holds more than --max-bytes 67108864 bytes"))
  }

  @Test("A feed file past the 64 MiB default of --max-bytes lays out, as jq reads it")
  func largeValidFile() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-large-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: path) }
    var feed = Data(#"{"data":[{"img":"a","width":"1","height":"2"}],"padding":""#.utf8)
    feed.append(Data(repeating: UInt8(ascii: "x"), count: 65 << 20))
    feed.append(Data(#""}"#.utf8))
    try feed.write(to: path)
    let run = try await shell("\"$FALLS\" layout -f jsonl --feed \(shellQuoted(path.path))")
    #expect(run.status == 0, "\(run.error)")
    #expect(try itemIndices(ofJSONLines: run.text) == [0])
  }

  @Test(
    "Generated items cost about the layout's 48 bytes each in every format, and no more",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"),
    arguments: ["table", "json", "jsonl", "svg"])
  func memoryPerItem(format: String) async throws {
    let count = 300_000
    let base = try await measuredRun(["layout", "--synthetic", "0", "--format", format])
    let run = try await measuredRun(["layout", "--synthetic", String(count), "--format", format])
    #expect(base.status == 0 && run.status == 0)
    let perItem = Double(run.peakBytes - base.peakBytes) / Double(count)
    // The elements take 48 bytes and the index of blocks about 3; a table kept as rows took
    // 480, items kept with their URLs about 100.
    #expect(perItem > 0 && perItem < 80, "\(perItem) bytes per item")
  }

  @Test(
    "Spread alignment and the flat end cost at most 1.3 and 1.5 times the seed's memory",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"))
  func memoryOfMovingLayouts() async throws {
    // One page of 300,000 generated items: spread holds its runs (16 bytes an item) beside the
    // elements (48); the flat end places the page again up to 21 times, holding it once.
    let base = ["layout", "--synthetic", "300000", "--format", "jsonl"]
    let seed = try await measuredRun(base)
    let spread = try await measuredRun(base + ["--align", "spread"])
    let flat = try await measuredRun(base + ["--align", "spread", "--flat-end"])
    #expect(seed.status == 0 && spread.status == 0 && flat.status == 0)
    let (spreadRatio, flatRatio) = (
      Double(spread.peakBytes) / Double(seed.peakBytes),
      Double(flat.peakBytes) / Double(seed.peakBytes)
    )
    #expect(
      spreadRatio <= 1.3, "spread \(spread.peakBytes >> 20) MiB, seed \(seed.peakBytes >> 20)")
    #expect(flatRatio <= 1.5, "flat end \(flat.peakBytes >> 20) MiB, seed \(seed.peakBytes >> 20)")
  }

  @Test(
    "A URL of 30 MB costs the table no more than 1.25 times what it costs JSON Lines",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"))
  func memoryOfLongText() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-long-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: path) }
    var feed = Data(#"{"data":[{"img":"https://example.com/"#.utf8)
    feed.append(Data(repeating: UInt8(ascii: "x"), count: 30 << 20))
    feed.append(Data(#"","width":1,"height":1}]}"#.utf8))
    try feed.write(to: path)
    let jsonl = try await measuredRun(["layout", path.path, "-f", "jsonl"])
    let table = try await measuredRun(["layout", path.path, "-f", "table"])
    #expect(jsonl.status == 0 && table.status == 0, "\(table.error)")
    #expect(
      Double(table.peakBytes) <= 1.25 * Double(jsonl.peakBytes),
      "table \(table.peakBytes >> 20) MiB, jsonl \(jsonl.peakBytes >> 20) MiB")
  }

  @Test(
    "Waiting two seconds, for a first request or a later page, costs next to no processor time",
    .disabled(if: isSanitized, "a sanitizer's runtime has its own cost"),
    arguments: ["/late/2/{page}?size={size}", "/slow/2/mj-shop-1.json"])
  func waitingIsCheap(path: String) async throws {
    let server = try await TestServer()
    // Page 1 at once and page 2 after two seconds, or one page after two seconds: either wait
    // costs ~1% of a core (BENCHMARKS.md, "Waiting"; over URLSession a new connection's cost
    // ~75%).
    let pages = path.hasPrefix("/late") ? ["--pages", "2"] : []
    let run = try await measuredRun(["layout", server.url(path), "-f", "jsonl"] + pages)
    #expect(run.status == 0, "\(run.error)")
    #expect(run.seconds >= 2)
    #expect(run.processorSeconds < 0.5, "\(run.processorSeconds) s of processor time")
  }

  @Test(
    "A gzip bomb stops at --max-bytes: memory stays near the limit, not near the expansion",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"))
  func gzipBomb() async throws {
    let server = try await TestServer()
    // 512 MiB once expanded; falls must stop at 1 MB.
    let run = try await measuredRun(
      [
        "layout", "--feed", server.url("/gzip-bomb/512"), "--max-bytes", "1000000", "--retries",
        "0",
      ],
      timeout: 120)
    #expect(run.status == 69)
    #expect(run.error.contains("the body is larger than 1000000 bytes"), "\(run.error)")
    #expect(run.peakBytes > 0 && run.peakBytes < 120 << 20, "peak \(run.peakBytes >> 20) MiB")
  }

  @Test("Writing into a closed pipe ends quietly, without a crash report")
  func closedPipe() async throws {
    // 5,000 items are far more than a pipe buffer holds, so falls meets the closed pipe.
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-pipe-\(UInt64.random(in: 0 ... .max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = directory.appendingPathComponent("big.json")
    let items = (0..<5_000).map {
      #"{"img":"https://example.com/\#($0).jpg","width":"200","height":"\#(150 + $0 % 200)"}"#
    }
    try Data(("{\"data\":[" + items.joined(separator: ",") + "]}").utf8).write(to: feed)
    let run = try await shell(
      "\"$FALLS\" layout --feed '\(feed.path)' --format jsonl | head -1; "
        + "\"$FALLS\" layout --feed '\(feed.path)' --format jsonl | (head -c 10 > /dev/null); "
        + "status=0; { \"$FALLS\" layout --feed '\(feed.path)' --format jsonl; echo \"status $?\" >&2; } | head -1 > /dev/null"
    )
    #expect(run.status == 0)
    #expect(
      String(decoding: run.output, as: UTF8.self).hasPrefix("{\"kind\":\"item\",\"index\":0,"))
    #expect(String(decoding: run.output, as: UTF8.self).split(separator: "\n").count == 1)
    #expect(run.error == "status 141\n", "stderr: \(run.error)")
  }

  @Test("jq reads the JSON and the JSON Lines", .enabled(if: jqPath != nil, "jq is not installed"))
  func jqReads() async throws {
    let count = try await shell("\"$FALLS\" layout --format json | jq '.items | length'")
    #expect(String(decoding: count.output, as: UTF8.self) == "50\n")
    let enlarged = try await shell(
      "\"$FALLS\" layout --format jsonl | jq -s 'map(select(.enlarged)) | length'")
    let golden = try ParsedLayout(json: try Fixtures.data("golden/embedded-default.json"))
    #expect(
      String(decoding: enlarged.output, as: UTF8.self)
        == "\(golden.elements.filter(\.isEnlarged).count)\n")
    // jq reads every number as the same Double: its sum of heights equals ours.
    let sum = try await shell("\"$FALLS\" layout --format json | jq '[.items[].height] | add'")
    let ours = golden.elements.reduce(0) { $0 + $1.frame.height }
    #expect(
      Double(
        String(decoding: sum.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        == ours)
  }

  @Test(
    "In a real terminal the table reads as aligned columns",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func terminal() async throws {
    let feed = Fixtures.path("jkr-finderlist-excerpt.json")
    // A terminal wide enough that no row wraps.
    let terminal = try await TerminalSession("\"$FALLS\" layout --feed '\(feed)'", width: 400)
    defer { terminal.close() }
    let screen = try await terminal.screen(containing: "111.83")
    let lines = screen.split(separator: "\n").map(String.init)
    #expect(lines.count >= 5, "screen: \(screen)")
    guard lines.count >= 5 else { return }
    #expect(lines[0].hasPrefix("irregular layout: 3 items in 3 columns"))
    #expect(
      lines[1].hasPrefix("index  page  column  span       x       y   width  height  flags     img")
    )
    #expect(
      lines[4].hasPrefix(
        "    2     1       2     1  253.33  167.98  111.67  111.83  -         https://"))
    // No escape sequences or stray characters reach the screen.
    #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } })
  }

  @Test(
    "In a real terminal of 40, 80 and 120 columns, no line of the table wraps, wide characters and all",
    .enabled(if: tmuxPath != nil, "tmux is not installed"), arguments: [40, 80, 120])
  func terminalFits(width: Int) async throws {
    let feed = Fixtures.path("wide-urls.json")
    let terminal = try await TerminalSession(
      "\"$FALLS\" layout --feed '\(feed)'", width: width, height: 40)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: TerminalSession.endMarker)
    // Joined (-J), a line the terminal wrapped comes back as one, wider than the terminal.
    let joined = try await shell("tmux -L \(terminal.socket) capture-pane -p -J", timeout: 10)
    let lines = joined.text.split(separator: "\n").filter {
      !$0.contains(TerminalSession.endMarker)
    }
    #expect(lines.count >= 8, "\(joined.text)")
    for line in lines { #expect(displayWidth(line) <= width, "\(line)") }
    #expect(lines.contains { $0.hasPrefix("index") && $0.hasSuffix("img") })
    #expect(lines.contains { $0.hasSuffix("瀑布流的第一张很长的图片名称.jpg") || $0.hasSuffix("名称.jpg") })
  }

  @Test(
    "In a real terminal, paging shows its progress on standard error only",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func terminalProgress() async throws {
    let server = try await TestServer()
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-progress-\(UInt64.random(in: 0 ... .max)).jsonl")
    defer { try? FileManager.default.removeItem(at: output) }
    let url = server.url("/pages/{page}?size={size}")
    let terminal = try await TerminalSession(
      "\"$FALLS\" layout --feed '\(url)' --pages 3 --format jsonl > '\(output.path)'", width: 200)
    defer { terminal.close() }
    let screen = try await terminal.screen(containing: "fetched")
    // The progress line was rewritten in place: only its final state is on the screen.
    let lines = screen.split(separator: "\n")
    #expect(lines.first == "falls: fetched 3 of 3 pages, 60 items", "screen: \(screen)")
    #expect(!screen.contains("fetching page"))
    let written = try String(contentsOf: output, encoding: .utf8)
    #expect(written.split(separator: "\n").count == 60)
    #expect(!written.contains("fetch"))
  }

  @Test(
    "In a real terminal of 60 columns, a long progress line is cut to fit and leaves nothing behind",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func terminalProgressFits() async throws {
    let server = try await TestServer()
    let query = String(repeating: "long-query-part-", count: 12)
    let url = server.url("/slow/1.5/mj-shop-1.json?\(query)")
    let terminal = try await TerminalSession(
      "\"$FALLS\" layout '\(url)' --format jsonl > /dev/null; echo \"status $?\"", width: 60,
      height: 10)
    defer { terminal.close() }
    // While it waits, the line fits in one row.
    let waiting = try await terminal.screen(containing: "falls: waiting for GET")
    let line = waiting.split(separator: "\n").first { $0.hasPrefix("falls: waiting") } ?? ""
    #expect(displayWidth(line) < 60 && line.hasSuffix("…"), "\(waiting)")
    // Once done, no fragment of it stays.
    let done = try await terminal.screen(containing: "status 0")
    #expect(!done.contains("long-query") && !done.contains("waiting"), "\(done)")
  }

  @Test(
    "falls view in a real terminal: first screen, scrolling, +, the next page, r, and q leaves the terminal as it was",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewer() async throws {
    let server = try await TestServer()
    let url = server.url("/pages/{page}?size={size}")
    let script =
      "stty -g > /tmp/falls-view-$$.before; \"$FALLS\" view --feed '\(url)' --page-size 20; "
      + "echo \"status $?\"; stty -g | cmp -s - /tmp/falls-view-$$.before "
      + "&& echo 'terminal restored'; rm -f /tmp/falls-view-$$.before"
    let terminal = try await TerminalSession(script, width: 80, height: 24)
    defer { terminal.close() }
    var screen = try await terminal.screen(containing: "20 items")
    // Boxes, the first labelled 0 (single lines, or double when enlarged).
    #expect(screen.contains("┌") && (screen.contains("│0 ") || screen.contains("║0 ")), "\(screen)")
    #expect(screen.contains(" page 1 · 20 items · rows 1–23 of "), "\(screen)")
    screen = try await terminal.press("j", thenExpect: "rows 2–24")
    // A wider terminal fits the same content in more, smaller cells: fewer rows in all.
    func totalRows(_ screen: String) -> Substring? {
      screen.firstRange(of: "rows 2–24 of ").map {
        screen[$0.upperBound...].prefix { $0.isNumber || $0 == "," }
      }
    }
    let rowsAt80 = totalRows(screen)
    _ = try await shell("tmux -L \(terminal.socket) resize-window -x 120", capture: false)
    for _ in 0..<100 where totalRows(screen) == rowsAt80 {
      try await Task.sleep(for: .milliseconds(100))
      screen = try await terminal.screen(containing: "rows 2–24 of ")
    }
    #expect(
      rowsAt80 != nil && totalRows(screen) != nil && totalRows(screen) != rowsAt80, "\(screen)")
    #expect(
      screen.split(separator: "\n").contains { $0.count > 100 }, "redrawn at 120 columns: \(screen)"
    )
    screen = try await terminal.press("+", thenExpect: "4 columns")
    // The bottom loads the next page from the server.
    screen = try await terminal.press("G", thenExpect: "pages 1–2 · 40 items")
    #expect(try server.log().contains { $0["path"]?.hasPrefix("/pages/2") == true })
    // The count of columns + gave stays through r.
    screen = try await terminal.press("r", thenExpect: "page 1 · 20 items · rows 1–")
    #expect(screen.contains(" · 4 columns"), "\(screen)")
    try await terminal.send("q")
    screen = try await terminal.screen(containing: "terminal restored")
    #expect(screen.contains("status 0") && screen.contains("terminal restored"), "\(screen)")
    #expect(!screen.contains(" · rows "), "the viewer's screen should be gone: \(screen)")
  }

  @Test(
    "falls view --align planned at 80 columns: the last items of the newest page have dashed sides until the feed ends",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewerHeldBack() async throws {
    let server = try await TestServer()
    let url = server.url("/pages/{page}?size={size}")
    let terminal = try await TerminalSession(
      "\"$FALLS\" view --feed '\(url)' --page-size 20 --align planned; echo \"status $?\"",
      width: 80, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "20 items")
    // At the bottom, the next page loads; its last items may still move, and are dashed.
    var screen = try await terminal.press("G", thenExpect: "pages 1–2 · 40 items")
    screen = try await terminal.press("G", thenExpect: "40 items")
    #expect(screen.contains("╎") && screen.contains("╌"), "\(screen)")
    try await terminal.press("q", thenExpect: "status 0")
    // A feed file has no next page: nothing is held back, at the bottom either.
    let file = try await TerminalSession(
      "\"$FALLS\" view --align planned; echo \"status $?\"", width: 80, height: 24)
    defer { file.close() }
    _ = try await file.screen(containing: "50 items")
    screen = try await file.press("G", thenExpect: "49 ")
    #expect(!screen.contains("╎") && !screen.contains("╌") && screen.contains("┌"), "\(screen)")
    try await file.press("q", thenExpect: "status 0")
  }

  @Test(
    "falls view ended by SIGTERM puts the terminal back and exits 143",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewerTerminated() async throws {
    let marker = UInt64.random(in: 1...UInt64(Int32.max))
    let script =
      "stty -g > /tmp/falls-term-$$.before; \"$FALLS\" view --seed \(marker); echo \"status $?\"; "
      + "stty -g | cmp -s - /tmp/falls-term-$$.before && echo 'terminal restored'; "
      + "rm -f /tmp/falls-term-$$.before"
    let terminal = try await TerminalSession(script, width: 80, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "50 items")
    _ = try await shell("pkill -TERM -f 'falls view --seed \(marker)'", capture: false)
    let screen = try await terminal.screen(containing: "terminal restored")
    #expect(screen.contains("status 143") && screen.contains("terminal restored"), "\(screen)")
  }

  @Test(
    "falls view shows a failed page in its status line, keeps running, and ends on Ctrl-C",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewerFetchError() async throws {
    let server = try await TestServer()
    let url = server.url("/failing/2/{page}?size={size}")
    let terminal = try await TerminalSession(
      "\"$FALLS\" view --feed '\(url)' --retries 0; echo \"status $?\"", width: 120, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "20 items")
    let screen = try await terminal.press("G", thenExpect: "page 2: GET ")
    // The whole message, wrapped above the status line where it does not fit in it.
    let joined = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    #expect(
      joined.contains(
        "HTTP 500 Internal Server Error; expected a 2xx answer with a finderlist JSON")
        && joined.contains("feed"), "\(screen)")
    // Still running: the keys still work, and Ctrl-C (a key in raw mode) ends it with 130.
    try await terminal.press("g", thenExpect: "page 1 · 20 items · rows 1–")
    try await terminal.press("C-c", thenExpect: "status 130")
  }

  @Test(
    "falls view reads keys before its feed comes: against a server that never answers, a silent pipe or a writerless FIFO, q and Ctrl-C quit at once and the terminal is as it was",
    .enabled(if: tmuxPath != nil, "tmux is not installed"),
    arguments: [
      ("server", "q", 0), ("server", "C-c", 130), ("pipe", "q", 0), ("pipe", "C-c", 130),
      ("fifo", "q", 0), ("fifo", "C-c", 130),
    ])
  func viewerQuitsBeforeTheFeed(source: String, key: String, status: Int) async throws {
    let server = try await TestServer()
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-view-fifo-\(UInt64.random(in: 0 ... .max))").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    // What follows falls is in the pipe's reading end, so that it runs when falls ends, not
    // when the pipe's writer does; the terminal is read from /dev/tty, as the pipe is standard
    // input there.
    let before = "/tmp/falls-quiet-\(UInt64.random(in: 0 ... .max))"
    defer { try? FileManager.default.removeItem(atPath: before) }
    let after =
      "echo \"status $?\"; stty -a < /dev/tty | cmp -s - \(before) && echo 'terminal restored'"
    let view: String =
      switch source {
      case "server": "\"$FALLS\" view \(shellQuoted(server.url("/hang"))); \(after)"
      case "pipe": "sleep 100 | { \"$FALLS\" view; \(after); }"
      default: "\"$FALLS\" view --timeout 100 \(shellQuoted(fifo)); \(after)"
      }
    let terminal = try await TerminalSession("stty -a > \(before); \(view)", width: 80, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "loading page 1…")
    // A key that does not quit is read while the page loads.
    try await terminal.press("?", thenExpect: "show the keys")
    let start = Date()
    try await terminal.send(key)
    let screen = try await terminal.screen(containing: "terminal restored")
    let elapsed = Date().timeIntervalSince(start)
    #expect(screen.contains("status \(status)"), "\(screen)")
    // The viewer quits within 100 ms; tmux is looked at every 100 ms, and the shell runs stty.
    #expect(elapsed < 1, "\(key) took \(elapsed) s")
  }

  @Test("A directory as standard input cannot be read (66), not passed over for the built-in feed")
  func directoryOnStandardInput() async throws {
    let run = try await shell("\"$FALLS\" layout < /tmp")
    #expect(run.status == 66, "\(run.error)")
    #expect(run.error.contains("it is a directory"), "\(run.error)")
    #expect(run.output.isEmpty)
  }

  @Test("A FIFO feed that no writer opens ends at the default --timeout, 15 s, with 66")
  func fifoFeedDefaultTimeout() async throws {
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-fifo-\(UInt64.random(in: 0 ... .max))").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    let start = Date()
    let run = try await shell("\"$FALLS\" layout \(shellQuoted(fifo))", timeout: 60)
    let elapsed = Date().timeIntervalSince(start)
    #expect(run.status == 66, "\(run.error)")
    #expect(run.error.contains("no writer opened the FIFO within 15 s (--timeout)"), "\(run.error)")
    #expect(elapsed >= 14.5, "ended after \(elapsed) s")
  }

  @Test(
    "falls view of a layout far larger than the screen draws at once and quits on q within a second, the terminal as it was",
    .enabled(if: tmuxPath != nil, "tmux is not installed"),
    arguments: [
      ("--feed TALL", #"{"data":[{"img":"a","width":1,"height":1e18}]}"#),
      ("--feed TALL", #"{"data":[{"img":"a","width":1,"height":1e17}]}"#),
      ("--feed TALL", #"{"data":[{"img":"a","width":1,"height":1e6}]}"#),
      ("--header-height 1e9", ""), ("--row-spacing 1e9", ""),
      ("--style circle --item-size 1e9", ""), ("--style sphere --item-size 1e9", ""),
    ])
  func viewerHostile(arguments: String, feed: String) async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-tall-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data(feed.utf8).write(to: path)
    let given = arguments.replacingOccurrences(of: "TALL", with: shellQuoted(path.path))
    let script =
      "stty -a > /tmp/falls-tall-$$.before; \"$FALLS\" view \(given); echo \"status $?\"; "
      + "stty -a | cmp -s - /tmp/falls-tall-$$.before && echo 'terminal restored'; "
      + "rm -f /tmp/falls-tall-$$.before"
    // 120 columns: room on the status line for rows of 2^52 with their total.
    let terminal = try await TerminalSession(script, width: 120, height: 24)
    defer { terminal.close() }
    let items = feed.isEmpty ? "50 items" : "1 item"
    _ = try await terminal.screen(containing: items)
    // The bottom, a line up and a screen down: each drawn at once. The status line says
    // "rows A–B of N"; at the bottom, B is N.
    func lastRows(_ screen: String) -> (shown: Substring, total: Substring)? {
      guard let match = screen.firstMatch(of: /rows [0-9,]+–([0-9,]+) of ([0-9,]+)/) else {
        return nil
      }
      return (match.1, match.2)
    }
    try await terminal.send("G")
    var screen = try await terminal.screen { lastRows($0).map { $0.shown == $0.total } == true }
    try await terminal.send("k")
    screen = try await terminal.screen { lastRows($0).map { $0.shown != $0.total } == true }
    #expect(screen.contains(items))
    try await terminal.send("Space")
    _ = try await terminal.screen { lastRows($0).map { $0.shown == $0.total } == true }
    let start = Date()
    try await terminal.send("q")
    screen = try await terminal.screen(containing: "terminal restored")
    let elapsed = Date().timeIntervalSince(start)
    #expect(screen.contains("status 0"), "\(screen)")
    #expect(elapsed < 1, "q took \(elapsed) s")
  }

  @Test(
    "falls view after an empty page names the pages that held items",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewerEmptyPage() async throws {
    let server = try await TestServer()
    let url = server.url("/pages/{page}?size={size}")
    let terminal = try await TerminalSession(
      "\"$FALLS\" view '\(url)' --page-size 75; echo \"status $?\"", width: 120, height: 24)
    defer { terminal.close() }
    // The server has 150 items: two pages of 75, then an empty one.
    _ = try await terminal.screen(containing: "page 1 · 75 items")
    try await terminal.press("G", thenExpect: "pages 1–2 · 150 items")
    let screen = try await terminal.press("G", thenExpect: "page 3 is empty")
    #expect(screen.contains("pages 1–2 · 150 items"), "\(screen)")
    try await terminal.press("q", thenExpect: "status 0")
  }

  @Test(
    "In a terminal, falls layout without a feed lays out the built-in feed; falls view - is refused at once",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func terminalInput() async throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-tty-\(UInt64.random(in: 0 ... .max)).json")
    defer { try? FileManager.default.removeItem(at: output) }
    let terminal = try await TerminalSession(
      "\"$FALLS\" layout -f json > '\(output.path)'; echo \"layout status $?\"; "
        + "\"$FALLS\" view -; echo \"view status $?\"", width: 80, height: 24)
    defer { terminal.close() }
    let screen = try await terminal.screen(containing: "view status")
    #expect(screen.contains("layout status 0") && screen.contains("view status 64"), "\(screen)")
    #expect(screen.contains("falls view reads its keys from the terminal"), "\(screen)")
    #expect(try Data(contentsOf: output) == (try Fixtures.data("golden/embedded-default.json")))
  }

  @Test(
    "falls view reads a piped feed, or one on standard input, and its keys from the terminal, as less does",
    .enabled(if: tmuxPath != nil, "tmux is not installed"),
    arguments: ["cat FEED | \"$FALLS\" view", "\"$FALLS\" view - < FEED"])
  func viewerPipedFeed(command: String) async throws {
    let feed = shellQuoted(Fixtures.path("zx-shopdata.json"))
    let script =
      "stty -a < /dev/tty > /tmp/falls-piped-$$.before; "
      + command.replacingOccurrences(of: "FEED", with: feed) + "; echo \"status $?\"; "
      + "stty -a < /dev/tty | cmp -s - /tmp/falls-piped-$$.before && echo 'terminal restored'; "
      + "rm -f /tmp/falls-piped-$$.before"
    let terminal = try await TerminalSession(script, width: 80, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "21 items")
    try await terminal.press("j", thenExpect: "rows 2–")
    try await terminal.send("q")
    let screen = try await terminal.screen(containing: "terminal restored")
    #expect(screen.contains("status 0"), "\(screen)")
  }

  @Test(
    "falls view says that + and - do not apply to a style without columns",
    .enabled(if: tmuxPath != nil, "tmux is not installed"))
  func viewerKeysThatDoNotApply() async throws {
    let terminal = try await TerminalSession(
      "\"$FALLS\" view --style circle; echo \"status $?\"", width: 120, height: 24)
    defer { terminal.close() }
    _ = try await terminal.screen(containing: "50 items")
    let screen = try await terminal.press("+", thenExpect: "which the circle style does not have")
    #expect(!screen.contains("4 columns"))
    try await terminal.press("q", thenExpect: "status 0")
  }
}
