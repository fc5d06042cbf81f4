import FallsBase
import FallsCheckers
import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

private func golden(_ name: String) throws -> String {
  String(decoding: try Fixtures.data("golden/\(name)"), as: UTF8.self)
}

@Suite struct CLITests {
  // MARK: Help and version

  @Test(
    "falls --help, and falls alone, print the overview on standard output",
    arguments: [["--help"], ["-h"], ["help"], []])
  func help(arguments: [String]) async throws {
    let result = await runCLI(arguments)
    #expect(result.code == .success)
    #expect(result.standardOutput == (try golden("help.txt")))
    #expect(result.standardError.isEmpty)
  }

  @Test(
    "falls layout --help prints every option",
    arguments: [
      ["layout", "--help"], ["layout", "-h"], ["help", "layout"],
      ["layout", "--columns", "0", "--help"],
    ])
  func layoutHelp(arguments: [String]) async throws {
    let result = await runCLI(arguments)
    #expect(result.code == .success)
    #expect(result.standardOutput == (try golden("layout-help.txt")))
    for flag in [
      "--feed", "--style", "--columns", "--width", "--column-spacing", "--row-spacing",
      "--spacing", "--insets", "--seed", "--enlarge-chance", "--align-tolerance", "--format",
      "--skip-invalid",
    ] {
      #expect(result.standardOutput.contains(flag), "\(flag) is missing from the help")
    }
  }

  @Test("The help's examples run on files that exist in a clone, and name every format")
  func helpExamples() throws {
    let examples = HelpText.layout.components(separatedBy: "EXAMPLES:").last ?? ""
    let paths = examples.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter {
      $0.hasSuffix(".json") && !$0.contains("://")
    }
    #expect(!paths.isEmpty)
    let root = URL(fileURLWithPath: Fixtures.path("xr-waterfall.json")).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    for path in paths {
      #expect(
        FileManager.default.fileExists(atPath: root.appendingPathComponent(String(path)).path),
        "\(path)")
    }
    for format in OutputFormat.allCases { #expect(HelpText.layout.contains(format.rawValue)) }
  }

  @Test(
    "--version prints the version after any command, among any other flags",
    arguments: [
      ["--version"], ["layout", "--version"], ["view", "--version"],
      ["layout", "-c", "4", "--version"], ["view", "--feed", "-", "--version"],
    ])
  func version(arguments: [String]) async {
    let result = await runCLI(arguments)
    #expect(result.code == .success)
    #expect(result.standardOutput == "falls \(CLI.version)\n")
    #expect(result.standardError.isEmpty)
  }

  @Test(
    "Unknown commands are usage errors that list the commands",
    arguments: [
      (
        ["lay"],
        "falls: error: unknown command 'lay'; did you mean 'layout'? The commands are: layout, view, probe, check, diff, completions, manual\nSee 'falls --help' for usage.\n"
      ),
      (
        ["--colour"],
        "falls: error: unknown option '--colour'; the commands are: layout, view, probe, check, diff, completions, manual\nSee 'falls --help' for usage.\n"
      ),
    ])
  func badCommands(arguments: [String], message: String) async {
    let result = await runCLI(arguments)
    #expect(result.code == .usage)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError == message)
  }

  @Test(
    "A flag or a near word as the command suggests the whole line meant",
    arguments: [
      (["-c", "4"], "unknown option '-c'; did you mean: falls layout -c 4?"),
      (["-c4", "-f", "json"], "unknown option '-c4'; did you mean: falls layout -c4 -f json?"),
      (["--columns=4"], "unknown option '--columns=4'; did you mean: falls layout --columns=4?"),
      (
        ["--feed", "a b's.json"],
        #"unknown option '--feed'; did you mean: falls layout --feed 'a b'\''s.json'?"#
      ),
      (["version"], "unknown command 'version'; did you mean: falls --version?"),
      (["-V"], "unknown option '-V'; did you mean: falls --version?"),
      // A feed where the command should be.
      (
        ["./feed.json", "-c", "4"],
        "unknown command './feed.json'; did you mean: falls layout ./feed.json -c 4?"
      ),
      (["feed.JSONL"], "unknown command 'feed.JSONL'; did you mean: falls layout feed.JSONL?"),
      (
        ["https://example.com/list?page={page}"],
        "unknown command 'https://example.com/list?page={page}'; did you mean: falls layout "
          + "'https://example.com/list?page={page}'?"
      ),
      (["xyzzy"], "unknown command 'xyzzy'; the commands are:"),
      (["--colour"], "unknown option '--colour'; the commands are:"),
      (["-x", "4"], "unknown option '-x'; the commands are:"),
    ])
  func meantLine(arguments: [String], message: String) async {
    let result = await runCLI(arguments)
    #expect(result.code == .usage)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("falls: error: " + message))
  }

  // MARK: Layout output

  @Test("With --scale, the summary names the grid and the content height is on it")
  func scaleSummary() async throws {
    let table = await runCLI(["layout", "--scale", "2"])
    let summary = String(table.standardOutput.prefix { $0 != "\n" })
    let json = await runCLI(["layout", "--scale", "2", "-f", "json"])
    let document = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let lowest = document.elements.map(\.frame.maxY).max() ?? 0
    #expect(document.contentHeight == lowest + 10)
    #expect(
      summary.hasPrefix(
        "irregular layout: 50 items in 3 columns of 111.67 pt on the 1/2 pt grid, width 375 "
          + "pt, --align seed, content height \(String(format: "%.2f", lowest + 10)) pt; "
          + "enlarged "))
    #expect(summary.contains(".50 pt; "))
  }

  @Test("The default run prints the golden JSON of the embedded feed")
  func goldenJSON() async throws {
    let result = await runCLI(["layout", "--format", "json"])
    #expect(result.code == .success)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput == (try golden("embedded-default.json")))
  }

  @Test("The golden JSON obeys every layout rule, checked independently of the engine")
  func goldenObeysRules() async throws {
    let document = try ParsedLayout(json: try Fixtures.data("golden/embedded-default.json"))
    let items = try Fixtures.feed("jkr-gz-1plist-urldims.json").items
    #expect(document.configuration == LayoutConfiguration())
    #expect(document.items.map(\.img) == items.map(\.img))
    let problems = LayoutChecker(
      configuration: document.configuration, items: items.map(\.layoutItem)
    )
    .violations(of: document.elements, contentHeight: document.contentHeight)
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(document.elements.filter(\.isEnlarged).count > 0)
    #expect(document.elements.filter(\.isAligned).count > 0)
  }

  @Test("The seed's three items, worked out by hand")
  func seedExcerptByHand() async throws {
    let result = await runCLI([
      "layout", "--feed", Fixtures.path("jkr-finderlist-excerpt.json"), "--format", "json",
    ])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    let w = 335.0 / 3
    let h0 = w * 2249 / 1200
    // Seed 1's first unit draw is 0x910A2DEC89025CC1 / 2^64 ≈ 0.567 < 0.67: item 0 is enlarged.
    #expect(document.elements[0].isEnlarged)
    #expect(document.elements[0].frame.y == 10 && document.elements[0].frame.x == 10)
    #expect(abs(document.elements[0].frame.height - (2 * h0 + 10)) < 1e-9)
    // Item 1 goes to the empty last column; item 2 below it, 10 under its bottom.
    let h1 = w * 872 / 658
    #expect(document.elements[1].column == 2 && document.elements[1].frame.y == 10)
    #expect(abs(document.elements[1].frame.height - h1) < 1e-9)
    #expect(document.elements[2].column == 2)
    #expect(abs(document.elements[2].frame.y - (10 + h1 + 10)) < 1e-9)
    #expect(!document.elements[1].isAligned && !document.elements[2].isAligned)
    #expect(abs(document.contentHeight - (10 + 2 * h0 + 10 + 10)) < 1e-9)
  }

  @Test(
    "jsonl prints exactly the items of json, one per line", arguments: ["irregular", "waterfall"])
  func jsonLines(style: String) async throws {
    let json = await runCLI(["layout", "--style", style, "--format", "json"])
    let lines = await runCLI(["layout", "--style", style, "--format", "jsonl"])
    #expect(lines.code == .success)
    let document = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let rows = lines.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows.last == "")
    #expect(rows.count == document.items.count + 1)
    // Each line is the item object as it appears inside the json document.
    for row in rows.dropLast() {
      #expect(json.standardOutput.contains(String(row)))
    }
  }

  @Test("The table has a summary, a header and one aligned row per item")
  func table() async throws {
    let result = await runCLI(["layout", "--feed", Fixtures.path("jkr-finderlist-excerpt.json")])
    #expect(result.code == .success)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    // One of the three items is enlarged; none is aligned.
    #expect(
      lines[0].hasPrefix(
        "irregular layout: 3 items in 3 columns of 111.67 pt, width 375 pt, --align seed, "
          + "content height 448.56 pt; enlarged 33.3%, corrected 0.0% (distortion mean 0.0%, "
          + "max 0.0%), "))
    #expect(
      lines[1].hasPrefix("index  page  column  span       x       y   width  height  flags     img")
    )
    #expect(
      lines[2].hasPrefix(
        "    0     1       0     2   10.00   10.00  233.33  428.56  enlarged  https://"))
    #expect(
      lines[3].hasPrefix(
        "    1     1       2     1  253.33   10.00  111.67  147.98  -         https://"))
    #expect(
      lines[4].hasPrefix(
        "    2     1       2     1  253.33  167.98  111.67  111.83  -         https://"))
  }

  @Test("Standard input is read with --feed -")
  func standardInput() async throws {
    let feed = String(decoding: try Fixtures.data("zx-shopdata.json"), as: UTF8.self)
    let fromInput = await runCLI(["layout", "--feed", "-", "--format", "jsonl"], input: feed)
    let fromFile = await runCLI([
      "layout", "--feed", Fixtures.path("zx-shopdata.json"), "--format", "jsonl",
    ])
    #expect(fromInput.code == .success)
    #expect(fromInput.standardOutput == fromFile.standardOutput)
    #expect(fromInput.standardOutput.split(separator: "\n").count == 21)
  }

  @Test(
    "Without a feed, a pipe or a file on standard input is read, as jq reads it; a terminal, /dev/null or a closed one means the built-in feed",
    arguments: [
      (StandardInputKind.pipe, "-"), (.file, "-"), (.terminal, "built-in"), (.none, "built-in"),
      (.closed, "built-in"),
    ])
  func standardInputWithoutFeed(kind: StandardInputKind, feed: String) async throws {
    let input = String(decoding: try Fixtures.data("zx-shopdata.json"), as: UTF8.self)
    let result = await runCLI(["layout", "-f", "json"], input: input) {
      $0.standardInputKind = kind
    }
    #expect(result.code == .success, "\(result.standardError)")
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    #expect(result.standardOutput.hasPrefix(#"{"schema":"falls.layout/1","feed":"\#(feed)","#))
    #expect(document.elements.count == (feed == "-" ? 21 : 50))
  }

  @Test("The JSON document names its feed: the URL, the path, -, built-in or synthetic")
  func feedNamed() async throws {
    let path = Fixtures.path("zx-shopdata.json")
    for (arguments, name) in [
      (["--feed", path], path), (["--", path], path), (["-"], "-"), ([], "built-in"),
      (["--synthetic", "3"], "synthetic"),
    ] {
      let result = await runCLI(["layout", "-f", "json"] + arguments, input: "{\"data\":[]}")
      struct Document: Decodable { var feed: String }
      let document = try JSONDecoder().decode(Document.self, from: Data(result.standardOutput.utf8))
      #expect(document.feed == name)
    }
  }

  @Test("A closed standard output is refused before any work with 74, unless a file takes it")
  func closedStandardOutput() async {
    let closed = await runCLI(["layout"]) {
      $0.standardOutputIsClosed = true
      $0.standardOutput = ClosedSink()
    }
    #expect(closed.code == .ioError)
    #expect(closed.standardError.hasPrefix("falls: error: standard output is closed"))
    let help = await runCLI(["--help"]) { $0.standardOutput = ClosedSink() }
    #expect(help.code == .ioError)
  }

  @Test(
    "A misspelt command is suggested, as a misspelt flag is",
    arguments: [
      ("layot", "layout"), ("veiw", "view"), ("completion", "completions"), ("manul", "manual"),
    ])
  func commandSuggestion(typed: String, meant: String) async {
    let result = await runCLI([typed])
    #expect(result.code == .usage)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: unknown command '\(typed)'; did you mean '\(meant)'? The commands are: "),
      "\(result.standardError)")
  }

  @Test("A file: URL is read as the file it names, as curl reads it; another host's is refused")
  func fileURLs() async throws {
    let path = Fixtures.path("zx-shopdata.json")
    let fromURL = await runCLI(["layout", "file://" + path, "-f", "jsonl"])
    let fromPath = await runCLI(["layout", path, "-f", "jsonl"])
    #expect(fromURL.code == .success && fromURL.standardOutput == fromPath.standardOutput)
    let localhost = await runCLI(["layout", "--feed", "FILE://localhost" + path, "-f", "jsonl"])
    #expect(localhost.standardOutput == fromPath.standardOutput)
    let spaced = await runCLI(["layout", "file:///no/such%20feed.json"])
    #expect(spaced.code == .noInput)
    #expect(spaced.standardError.contains("'/no/such feed.json'"), "\(spaced.standardError)")
    let remote = await runCLI(["layout", "file://example.com/feed.json"])
    #expect(remote.code == .usage)
    #expect(remote.standardError.contains("expected a file URL of this machine"))
  }

  @Test("An HTML page given as the feed is named, and said to look like one (65)")
  func htmlFile() async throws {
    let page = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-page-\(UInt64.random(in: 0 ... .max)).html")
    defer { try? FileManager.default.removeItem(at: page) }
    try Data("\n  <!DOCTYPE html>\n<html><body>502</body></html>\n".utf8).write(to: page)
    let file = await runCLI(["layout", page.path])
    #expect(file.code == .dataError)
    #expect(
      file.standardError.contains(
        "the file '\(page.path)' looks like an HTML or XML page (it starts \"<!DOCTYPE html>\")"),
      "\(file.standardError)")
    #expect(file.standardError.contains("line 2, column 3"))
    let input = await runCLI(["layout", "-"], input: "<rss></rss>")
    #expect(input.standardError.contains("standard input looks like an HTML or XML page"))
  }

  @Test("With headers or footers, every JSON object keeps its kind, whatever --fields chose")
  func fieldsKeepKind() async throws {
    let result = await runCLI([
      "layout", "--fields", "index,y", "--header-height", "20", "--footer-height", "5", "-f",
      "jsonl",
    ])
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.first == #"{"kind":"header","y":0}"#)
    #expect(lines.last?.hasPrefix(#"{"kind":"footer","y":"#) == true)
    #expect(lines.dropFirst().first?.hasPrefix(#"{"kind":"item","index":0,"y":"#) == true)
    // Without bands, only what was chosen.
    let plain = await runCLI(["layout", "--fields", "index,y", "-f", "jsonl"])
    #expect(plain.standardOutput.hasPrefix(#"{"index":0,"y":10}"#))
  }

  @Test("Every flag reaches the layout")
  func flagsReachLayout() async throws {
    let result = await runCLI([
      "layout", "--style", "waterfall", "--columns", "2", "--width", "220", "--column-spacing", "0",
      "--row-spacing", "4", "--insets", "1,10,3,10", "--synthetic", "40", "--seed", "9",
      "--format", "json",
    ])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    let expected = LayoutConfiguration(
      style: .waterfall, width: 220, columns: 2, columnSpacing: 0, rowSpacing: 4,
      insets: EdgeInsets(top: 1, left: 10, bottom: 3, right: 10), seed: 9)
    #expect(document.configuration.style == expected.style)
    #expect(document.configuration.insets == expected.insets)
    #expect(document.configuration.rowSpacing == 4 && document.configuration.seed == 9)
    // Column width (220 − 20) / 2 = 100: the first two items sit at x 10 and 110, y 1.
    #expect(
      document.elements[0].frame
        == Rect(x: 10, y: 1, width: 100, height: document.elements[0].frame.height))
    #expect(document.elements[1].frame.x == 110 && document.elements[1].frame.y == 1)
  }

  @Test("The same flags and seed give byte-identical output; another seed does not")
  func determinism() async {
    let a = await runCLI(["layout", "--format", "json", "--seed", "77"])
    let b = await runCLI(["layout", "--format", "json", "--seed", "77"])
    let c = await runCLI(["layout", "--format", "json", "--seed", "78"])
    #expect(a.standardOutput == b.standardOutput)
    #expect(a.standardOutput != c.standardOutput)
  }

  // MARK: Errors and exit codes

  @Test(
    "Bad usage exits 64 naming the flag and the value",
    arguments: [
      (
        ["layout", "--columns", "0"],
        "invalid value '0' for '--columns'; expected a whole number from 1 to 10000 (e.g. --columns 3)"
      ),
      (["layout", "--columns", "three"], "invalid value 'three' for '--columns'"),
      (["layout", "--columns", "10001"], "invalid value '10001' for '--columns'"),
      (["layout", "--columns"], "missing value for '--columns <N>'"),
      (["layout", "--columns", "--width", "3"], "missing value for '--columns <N>'"),
      (["layout", "--colums", "3"], "unknown option '--colums'; did you mean '--columns'?"),
      (
        ["layout", "--spacing", "-1"],
        "invalid value '-1' for '--spacing'; expected a number from 0 to 1000000000"
      ),
      (
        ["layout", "--row-spacing", "nan"],
        "invalid value 'nan' for '--row-spacing'; expected a decimal number"
      ),
      (["layout", "--column-spacing=1e999"], "invalid value '1e999' for '--column-spacing'"),
      (
        ["layout", "--width", "0"],
        "invalid value '0' for '--width'; expected a number above 0, at most 1000000000"
      ),
      (
        ["layout", "--insets", "1,2,3,4,5"],
        "invalid value '1,2,3,4,5' for '--insets'; expected 1 to 4 numbers as CSS's padding "
          + "takes them: ALL, V,H, T,H,B or T,R,B,L"
      ),
      (
        ["layout", "--insets", "-5"],
        "invalid value '-5' for '--insets'; expected a number from 0 to 1000000000"
      ),
      (
        ["layout", "--enlarge-chance", "1.5"],
        "invalid value '1.5' for '--enlarge-chance'; expected a probability from 0 to 1"
      ),
      (["layout", "--align-tolerance", "1"], "invalid value '1' for '--align-tolerance'"),
      (
        ["layout", "--seed", "-1"],
        "invalid value '-1' for '--seed'; expected a whole number from 0 to 18446744073709551615"
      ),
      (
        ["layout", "--style", "masonry"],
        "invalid value 'masonry' for '--style'; expected one of irregular, waterfall, grid, circle, cube, sphere"
      ),
      (
        ["layout", "--format", "csv"],
        "invalid value 'csv' for '--format'; expected one of table, json, jsonl, svg, html"
      ),
      (["layout", "--width", "30", "--columns", "3"], "--width 30 leaves no room for 3 columns"),
      (
        ["layout", "--width", "1e308"],
        "invalid value '1e308' for '--width'; expected a number above 0, at most 1000000000"
      ),
      (["layout", "--skip-invalid=yes"], "'--skip-invalid' takes no value"),
      (
        ["layout", "a.json", "b.json"], "unexpected argument 'b.json'; falls layout takes one feed"
      ),
      (
        ["layout", "a.json", "--feed", "b.json"], "give the feed once: 'a.json' or --feed, not both"
      ),
      (["layout", "-x"], "unknown option '-x'; the one-letter options are -q -c -w -s -f -o -h"),
      (["layout", "-c"], "missing value for '--columns <N>'"),
      (["layout", "-qq"], "'--quiet' takes no value"),
      (
        ["layout", "--feed", "http://127.0.0.1:9/{pg}.json"],
        "has the placeholder {pg}, which falls does not fill in; the placeholders are {page}"
      ),
      (
        ["layout", "--retries", "3"],
        "--retries does not apply to the built-in feed; it is for a URL feed"
      ),
      (
        ["layout", "--timeout", "3", "--feed", "-"],
        "--timeout does not apply to standard input; it is for a feed file or a URL feed"
      ),
      (
        ["layout", "--pages", "1", "x.json"],
        "--pages does not apply to a feed file; it is for a URL feed"
      ),
      (
        ["layout", "--skip-invalid", "--synthetic", "3"],
        "--skip-invalid does not apply to generated items (--synthetic); it is for a feed file"
      ),
      (["layout", "--feed", ""], "invalid value '' for '--feed'"),
      (
        ["layout", "--feed", "gopher://example.com/feed"],
        "--feed 'gopher://example.com/feed' has the scheme 'gopher'; expected an http or https URL"
      ),
    ])
  func usageErrors(arguments: [String], message: String) async {
    let result = await runCLI(arguments)
    #expect(result.code == .usage)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("falls: error: "))
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(result.standardError.hasSuffix("\nSee 'falls layout --help' for usage.\n"))
  }

  @Test(
    "Bad feed data exits 65 naming the item, the field and the value",
    arguments: [
      ("not json", "the feed is not valid JSON: line 1, column 2: unexpected 'o'; expected null"),
      (#"{"items": []}"#, "the feed has no \"data\" array"),
      (
        #"{"data": [{"img": "a", "width": "1", "height": "2"}, {"img": "b", "width": "wide", "height": "2"}]}"#,
        "feed item 1: \"width\" is \"wide\""
      ),
      (
        #"{"data": [{"img": "a", "width": "0", "height": "2"}, {"img": "b", "height": "2"}]}"#,
        "feed item 0: \"width\" is \"0\"; expected a positive number, as a string like \"1200\" or a JSON number (and 1 more invalid item); use --skip-invalid"
      ),
      (
        #"{"data": [{"img": "a", "width": 1e-300, "height": 1e300}]}"#,
        "feed item 0: \"height\" 1e+300 makes it too tall to lay out"
      ),
      (
        #"{"data": [{"img": "a", "width": "1e308", "height": "4.9e-324"}]}"#,
        "feed item 0: \"height\" 5e-324 makes it too short to lay out"
      ),
    ])
  func dataErrors(feed: String, message: String) async {
    let result = await runCLI(["layout", "--feed", "-", "--format", "json"], input: feed)
    #expect(result.code == .dataError)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }

  @Test("--skip-invalid lays out the valid items, keeps their index and lists every skipped one")
  func skipInvalid() async throws {
    let feed =
      #"{"data": [{"img": "a", "width": "1", "height": "2"}, {"img": "b", "width": "x", "height": "2"}, 7, {"img": "d", "width": 1e-300, "height": 1e300}, {"img": "e", "width": 3, "height": 4}]}"#
    let result = await runCLI(
      ["layout", "--feed", "-", "--format", "jsonl", "--skip-invalid"], input: feed)
    #expect(result.code == .success)
    let indices = try itemIndices(ofJSONLines: result.standardOutput).map(String.init)
    #expect(indices == ["0", "4"])
    #expect(
      result.standardError == """
        falls: skipped item 1: "width" is "x"; expected a positive number, as a string like "1200" or a JSON number
        falls: skipped item 2: the item is 7, not an object; expected an object like {"img": …, "width": "1200", "height": "2249"}
        falls: skipped item 3: "height" 1e+300 makes it too tall to lay out; expected a height/width ratio whose height in points is at most 1e300
        falls: skipped 3 of 5 items; laid out 2

        """)
  }

  @Test("A feed file that cannot be read exits 66 with the system's reason")
  func unreadableFile() async {
    let missing = await runCLI(["layout", "--feed", "/nonexistent/feed.json"])
    #expect(missing.code == .noInput)
    #expect(
      missing.standardError
        == "falls: error: cannot read the feed file '/nonexistent/feed.json': No such file or directory\n"
    )
    let directory = await runCLI(["layout", "--feed", "/tmp"])
    #expect(directory.code == .noInput)
    #expect(directory.standardError.contains("it is a directory"))
    #expect(missing.standardOutput.isEmpty && directory.standardOutput.isEmpty)
  }

  @Test("Standard input that cannot be read exits 66")
  func unreadableInput() async {
    let error = BufferSink()
    let output = BufferSink()
    let environment = CLIEnvironment(
      readStandardInput: { (_, _) throws(FeedError) in
        throw .unreadable(path: "-", reason: SystemError(code: 5).message)
      },
      standardOutput: output, standardError: error)
    #expect(await CLI.run(["layout", "--feed", "-"], environment: environment) == .noInput)
    #expect(error.text == "falls: error: cannot read the feed file '-': Input/output error\n")
    #expect(output.bytes.isEmpty)
  }

  @Test("A closed pipe ends quietly with 141; another write failure exits 74 with a message")
  func writeFailures() async {
    let quiet = BufferSink()
    let closed = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data()) },
      standardOutput: FailingSink(code: 32), standardError: quiet)
    #expect(await CLI.run(["layout", "--format", "jsonl"], environment: closed) == .brokenPipe)
    #expect(quiet.bytes.isEmpty)

    let messages = BufferSink()
    let full = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data()) },
      standardOutput: FailingSink(code: 28), standardError: messages)
    #expect(await CLI.run(["layout"], environment: full) == .ioError)
    #expect(messages.text == "falls: error: cannot write the output: No space left on device\n")
  }

  @Test("A help text that cannot be written is an output error, not success")
  func helpWriteFailure() async {
    let environment = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data()) },
      standardOutput: FailingSink(code: 28), standardError: BufferSink())
    #expect(await CLI.run(["--help"], environment: environment) == .ioError)
  }

  @Test("Control characters in a feed's URLs reach the table escaped: no row can be forged")
  func tableEscapes() async throws {
    let urls = [
      "https://a.example/\u{1B}]0;owned\u{7}.jpg", "https://b.example/\u{1B}[2J",
      "https://c.example/x\r\n    9     1       0     1   10.00   10.00  111.67  111.67  -  fake",
      "https://d.example/\u{9B}31m", "https://e.example/gpj.\u{202E}exe\u{2028}\u{2066}",
    ]
    let items = urls.map { #"{"img":"# + jsonString($0) + #","width":"1","height":"1"}"# }
    let feed = #"{"data":["# + items.joined(separator: ",") + "]}"
    let result = await runCLI(["layout", "--feed", "-", "--style", "waterfall"], input: feed)
    #expect(result.code == .success)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    // A summary, a header, five rows and the final newline's empty rest.
    #expect(lines.count == 8, "\(lines)")
    #expect(
      !result.standardOutput.unicodeScalars.contains {
        $0 != "\n" && isEscapedForPeople($0)
      })
    #expect(lines[6].hasSuffix("https://e.example/gpj.\\u202eexe\\u2028\\u2066"))
    #expect(!result.standardOutput.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(!result.standardOutput.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
    #expect(lines[2].hasSuffix("https://a.example/\\u001b]0;owned\\u0007.jpg"))
    #expect(lines[4].contains("https://c.example/x\\u000d\\u000a    9"))
    #expect(lines[5].hasSuffix("https://d.example/\\u009b31m"))
    // JSON stays exact JSON: the URL reads back as it was.
    let json = await runCLI(["layout", "--feed", "-", "--format", "jsonl"], input: feed)
    let first = try JSONDecoder().decode(
      ParsedLayout.Item.self,
      from: Data((json.standardOutput.split(separator: "\n").first ?? "").utf8))
    #expect(first.img == urls[0])
  }

  @Test(
    "Control characters and passwords from arguments are never printed raw",
    arguments: [
      (["layout", "--feed", "/no/such/\u{1B}[2J\nfile"], "'/no/such/\\u001b[2J\\u000afile'"),
      (["layout", "--columns", "\u{1B}]0;x\u{7}"], "invalid value '\\u001b]0;x\\u0007'"),
      (["layout", "--col\u{1B}umns", "3"], "unknown option '--col\\u001bumns'"),
      (["\u{1B}[31mlayout"], "unknown command '\\u001b[31mlayout'"),
      (["layout", "--feed", "gopher://me:s3cret@example.com/"], "'gopher://me:***@example.com/'"),
      (["layout", "--feed", "/no/such/\u{202E}txt.exe"], "'/no/such/\\u202etxt.exe'"),
      (["layout", "--columns", "3\u{2029}4"], "invalid value '3\\u20294'"),
    ])
  func escapedArguments(arguments: [String], shown: String) async {
    let result = await runCLI(arguments)
    #expect(result.code != .success)
    #expect(result.standardError.contains(shown), "\(result.standardError)")
    #expect(!result.standardError.unicodeScalars.contains { $0 != "\n" && isEscapedForPeople($0) })
    #expect(!result.standardError.contains("s3cret"))
  }

  @Test(
    "A value of 100,000 characters is quoted shortened in the middle, the message short",
    arguments: [
      ["layout", "--fields", "LONG"], ["layout", "--columns", "LONG"], ["layout", "--LONG"],
      ["LONG"], ["layout", "/no/such/LONG"], ["layout", "--pattern", "LONG", "--style", "grid"],
      ["layout", "a.json", "LONG"], ["completions", "LONG"],
    ])
  func longValues(arguments: [String]) async {
    let long = "q" + String(repeating: "x", count: 100_000) + "z"
    let result = await runCLI(arguments.map { $0.replacingOccurrences(of: "LONG", with: long) })
    #expect(result.code != .success)
    #expect(result.standardError.count < 1_000, "\(result.standardError.count) characters")
    #expect(result.standardError.contains("qxxx") && result.standardError.contains("…"))
    #expect(result.standardError.contains("xxz"))
  }

  @Test("A URL's password is not repeated when the fetch fails")
  func redactedFetch() async {
    let url = "http://reader:s3cret@127.0.0.1:\(refusedPort())/feed.json"
    let result = await runCLI(["layout", "--feed", url, "--retries", "0"])
    #expect(result.code == .unavailable)
    #expect(result.standardError.contains("GET http://reader:***@127.0.0.1:"))
    #expect(!result.standardError.contains("s3cret"))
  }

  @Test(
    "--skip-invalid skips invalid items of valid JSON, never bytes that are not JSON",
    arguments: [
      "{\"data\": [{\"img\": \"a\u{1}\", \"width\": 1, \"height\": 1}, {\"img\": \"b\", \"width\": 1, \"height\": 1}]}",
      "{\"data\": [{\"img\": \"\\ud800x\", \"width\": 1, \"height\": 1}]}",
      "{\"data\": [{\"img\": \"b\", \"width\": 007, \"height\": 1}]}",
    ])
  func skipInvalidRefusesNonJSON(feed: String) async {
    let result = await runCLI(["layout", "--feed", "-", "--skip-invalid"], input: feed)
    #expect(result.code == .dataError)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("falls: error: the feed is not valid JSON: line 1"))
  }
}
