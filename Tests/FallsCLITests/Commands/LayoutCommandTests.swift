import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

private func parse(_ arguments: [String]) throws -> LayoutOptions {
  try LayoutCommand.parse(arguments)
}

@Suite(.tags(.process)) struct LayoutCommandTests {
  @Test("No flags give the seeds' defaults and the embedded feed")
  func defaults() throws {
    let options = try parse([])
    #expect(options.configuration == LayoutConfiguration())
    #expect(options.feed == .embedded)
    #expect(options.format == .table)
    #expect(!options.skipInvalid)
  }

  @Test(
    "A value may follow the flag or an equals sign",
    arguments: [["--columns", "4"], ["--columns=4"]])
  func valueForms(arguments: [String]) throws {
    #expect(try parse(arguments).configuration.columns == 4)
  }

  @Test(
    "--spacing sets both gaps; the specific flags win in any order",
    arguments: [
      (["--spacing", "5"], 5.0, 5.0),
      (["--spacing", "5", "--row-spacing", "2"], 5, 2),
      (["--row-spacing", "2", "--spacing", "5"], 5, 2),
      (["--column-spacing", "0", "--spacing", "5"], 0, 5),
    ])
  func spacing(arguments: [String], column: Double, row: Double) throws {
    let configuration = try parse(arguments).configuration
    #expect(configuration.columnSpacing == column)
    #expect(configuration.rowSpacing == row)
  }

  // CSS's padding, by hand: one value for every edge, V,H, T,H,B, and T,R,B,L clockwise.
  @Test(
    "Insets take CSS's four forms of padding, by commas or blanks",
    arguments: [
      ("7", EdgeInsets(all: 7)),
      ("10,20", EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)),
      ("10 20", EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)),
      ("1,2,3", EdgeInsets(top: 1, left: 2, bottom: 3, right: 2)),
      ("1,2,3,4", EdgeInsets(top: 1, left: 4, bottom: 3, right: 2)),
      ("1 2  3\t4", EdgeInsets(top: 1, left: 4, bottom: 3, right: 2)),
      ("0,0.5,0,1e1", EdgeInsets(top: 0, left: 10, bottom: 0, right: 0.5)),
      ("10, 20, 30, 40", EdgeInsets(top: 10, left: 40, bottom: 30, right: 20)),
    ])
  func insets(text: String, expected: EdgeInsets) throws {
    #expect(try parse(["--insets", text]).configuration.insets == expected)
  }

  @Test(
    "Insets of no value, five, or a blank between commas are refused",
    arguments: ["", "1,2,3,4,5", ",1", "1,,2", "1 2 3 4 5", "x", "1,2,3,x"])
  func insetsRefused(text: String) throws {
    #expect(throws: CLIError.self) { try parse(["--insets", text]) }
  }

  @Test(
    "-o FILE without --format writes the format its extension names; --format wins",
    arguments: [
      (["-o", "x.json"], OutputFormat.json), (["-o", "dir.d/x.JSONL"], .jsonl),
      (["-o", "x.svg"], .svg), (["--output=x.Html"], .html), (["-o", "x.txt"], .table),
      (["-o", "x"], .table), (["-o", ".json"], .table), (["-o", "json"], .table),
      (["-o", "-"], .table), (["-o", "x.svg", "-f", "json"], .json),
      (["-f", "jsonl", "-o", "x.html"], .jsonl),
    ])
  func outputExtension(arguments: [String], format: OutputFormat) throws {
    #expect(try parse(arguments).format == format)
  }

  @Test("-o FILE naming a format the command does not write is refused, naming the formats")
  func outputExtensionForeign() throws {
    do {
      _ = try LayoutCommand.parse(["-o", "report.svg"], for: .check)
      Issue.record("not refused")
    } catch {
      let error = try #require(error as? CLIError)
      #expect(
        outcome(of: error).message.hasPrefix(
          "-o 'report.svg': falls check does not write svg; it writes table or json: give "
            + "--format, or another file name"))
    }
    #expect(try LayoutCommand.parse(["-o", "r.json"], for: .check).format == .json)
    #expect(try LayoutCommand.parse(["-o", "r.svg", "-f", "table"], for: .check).format == .table)
  }

  @Test("Generated items along a horizontal axis, with a width too narrow for columns across it")
  func syntheticHorizontalNarrow() async throws {
    // The fuzzer's case: the rows run across the viewport's height, not the width.
    let result = await runCLI([
      "layout", "--synthetic", "5", "--axis", "horizontal", "--width", "5", "-f", "jsonl",
      "--style", "waterfall",
    ])
    #expect(result.code == .success, "\(result.standardError)")
    let widths = try result.standardOutput.split(separator: "\n").map {
      try JSONDecoder().decode(ParsedLayout.Item.self, from: Data($0.utf8)).width
    }
    #expect(widths.count == 5 && widths.allSatisfy { (100...250).contains($0) })
  }

  @Test(
    "Each command's usage errors name it and send the user to its help; -f lists what it writes",
    arguments: [
      (["probe", "-f", "svg"], "falls probe writes table, json or jsonl", "falls probe --help"),
      (["check", "-f", "jsonl"], "falls check writes table or json", "falls check --help"),
      (["check", "--columns", "0"], "--columns", "falls check --help"),
      (["view", "--nope"], "unknown option", "falls view --help"),
      (["probe", "--align", "spread"], "--align", "falls probe --help"),
    ])
  func usageNamesTheCommand(arguments: [String], message: String, help: String) async {
    let result = await runCLI(arguments)
    #expect(result.code == .usage)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(result.standardError.contains(help), "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
  }

  @Test(
    "--quality is refused, with what it takes, where it would print nothing of use",
    arguments: [
      (["--style", "grid"], "the irregular and waterfall styles, not grid"),
      (["--format", "svg"], "as table (the default) or json, not svg"),
      (["--format", "jsonl"], "as table (the default) or json, not jsonl"),
      (["--fields", "x"], "give it without --fields"),
      (["--rect", "0,0,10,10"], "give it without --rect"),
    ])
  func qualityRefused(arguments: [String], message: String) throws {
    #expect(throws: CLIError.self) { try parse(["--quality"] + arguments) }
    do {
      _ = try parse(["--quality"] + arguments)
    } catch {
      #expect(
        (error as? CLIError).map { outcome(of: $0).message.contains(message) } == true, "\(error)")
    }
    #expect(try parse(["--quality", "--format", "json"]).quality)
  }

  @Test("--align, --max-distortion and --flat-end set the irregular style's alignment")
  func alignment() throws {
    let options = try parse(["--align", "spread", "--max-distortion", "0.05", "--flat-end"])
    #expect(options.configuration.alignment == .spread)
    #expect(options.configuration.maxDistortion == 0.05)
    #expect(options.configuration.flatEnd)
    #expect(try parse([]).configuration.alignment == .seed)
    // The seed's correction, which spread keeps for an item alone, takes the tolerance.
    for align in ["seed", "spread"] {
      #expect(
        try parse(["--align", align, "--align-tolerance", "0.1"]).configuration.alignTolerance
          == 0.1)
    }
  }

  @Test(
    "The alignment flags are refused where they do not apply, naming what they take",
    arguments: [
      (["--style", "waterfall", "--align", "spread"], "--align does not apply to the waterfall"),
      (["--style", "grid", "--flat-end"], "--flat-end does not apply to the grid style"),
      (
        ["--max-distortion", "1", "--align", "spread"],
        "invalid value '1' for '--max-distortion'; expected a fraction"
      ),
      (["--max-distortion", "-0.1", "--flat-end"], "a fraction from 0 up to (not including) 1"),
      (
        ["--max-distortion", "0.1"],
        "--max-distortion bounds --align spread or planned and --flat-end; give one of them"
      ),
      (["--align", "halfway"], "--align"),
      (
        ["--align", "planned", "--align-tolerance", "0.5"],
        "--align-tolerance sets how near a bottom the item placed alone is stretched under "
          + "--align seed and spread; --align planned levels two columns only for an enlargement"
      ),
      (["--align", "planned", "--flat-end", "--align-tolerance", "0"], "takes no tolerance"),
    ])
  func alignmentRefused(arguments: [String], message: String) throws {
    do {
      _ = try parse(arguments)
      Issue.record("\(arguments) was accepted")
    } catch {
      #expect(
        (error as? CLIError).map { outcome(of: $0).message.contains(message) } == true, "\(error)")
    }
  }

  @Test("A repeated flag takes its last value")
  func lastWins() throws {
    #expect(try parse(["--columns", "2", "--columns", "5"]).configuration.columns == 5)
  }

  @Test(
    "--feed - reads standard input; other values are paths",
    arguments: [
      ("-", FeedSource.standardInput), ("feed.json", .file("feed.json")), ("./-", .file("./-")),
    ])
  func feedSources(text: String, source: FeedSource) throws {
    #expect(try parse(["--feed", text]).feed == source)
  }

  @Test(
    "After --, help and version flags are feeds, as any argument is",
    arguments: ["--help", "-h", "--version"])
  func optionsEnd(name: String) throws {
    #expect(try parse(["--", name]).feed == .file(name))
    #expect(try parse(["-c", "2", "--", name]).configuration.columns == 2)
    // Before --, they are what they say.
    #expect(throws: CLIError.self) { try parse([name, "--", "feed.json"]) }
  }

  @Test(
    "Without a feed, standard input that holds one is the feed; a given feed or --synthetic wins")
  func standardInputIsFeed() throws {
    #expect(try LayoutCommand.parse([], standardInputIsFeed: true).feed == .standardInput)
    #expect(try LayoutCommand.parse([], standardInputIsFeed: false).feed == .embedded)
    #expect(
      try LayoutCommand.parse(["x.json"], standardInputIsFeed: true).feed == .file("x.json"))
    #expect(
      try LayoutCommand.parse(["--feed", "y.json"], standardInputIsFeed: true).feed
        == .file("y.json"))
    guard
      case .synthetic = try LayoutCommand.parse(["--synthetic", "4"], standardInputIsFeed: true)
        .feed
    else {
      Issue.record("--synthetic is the feed")
      return
    }
    // The flags of standard input apply to it.
    #expect(
      try LayoutCommand.parse(["--max-bytes", "100"], standardInputIsFeed: true).fetchPolicy
        .maxBytes == 100)
  }

  @Test("Every style, format and the seed's full range are accepted")
  func enumerations() throws {
    for style in LayoutStyle.allCases {
      #expect(try parse(["--style", style.rawValue]).configuration.style == style)
    }
    for format in OutputFormat.allCases {
      #expect(try parse(["--format", format.rawValue]).format == format)
    }
    #expect(try parse(["--seed", "18446744073709551615"]).configuration.seed == .max)
    #expect(try parse(["--skip-invalid", "feed.json"]).skipInvalid)
  }

  @Test("A negative number is taken as a value, not as a flag")
  func negativeValue() {
    #expect {
      try parse(["--spacing", "-3"])
    } throws: { error in
      guard case .usage(let message, _) = error as? CLIError else { return false }
      return message.contains("invalid value '-3' for '--spacing'")
    }
  }

  @Test(
    "Style flags reach the configuration",
    arguments: [
      (["--style", "circle", "--height", "500", "--item-size", "40"], "circle"),
      (["--style", "cube", "--item-size", "200,80", "--offset", "300"], "cube"),
      (["--style", "sphere", "--offset", "10,20"], "sphere"),
      (["--style", "grid", "--pattern", "2x1,1x1"], "grid"),
    ])
  func styleFlags(arguments: [String], style: String) throws {
    let configuration = try parse(arguments).configuration
    #expect(configuration.style.rawValue == style)
    switch configuration.style {
    case .circle:
      #expect(configuration.viewportHeight == 500)
      #expect(configuration.itemSize == Size(width: 40, height: 40))
    case .cube:
      #expect(configuration.itemSize == Size(width: 200, height: 80))
      #expect(configuration.offset == Point(x: 0, y: 300))
    case .sphere:
      #expect(configuration.offset == Point(x: 10, y: 20))
    default:
      #expect(configuration.pattern.tiles.map(\.columnSpan) == [2, 1])
      #expect(configuration.pattern.columns == 3)
    }
  }

  @Test(
    "A flag the style does not use is refused, naming the styles it is for",
    arguments: [
      (
        ["--style", "waterfall", "--pattern", "1x1"],
        "--pattern does not apply to the waterfall style; it is for grid"
      ),
      (
        ["--style", "circle", "--columns", "4"],
        "--columns does not apply to the circle style; it is for irregular, waterfall, grid"
      ),
      (
        ["--style", "grid", "--enlarge-chance", "1"],
        "--enlarge-chance does not apply to the grid style; it is for irregular"
      ),
      (
        ["--height", "500"],
        "--height does not apply to the irregular style; it is for circle, cube, sphere"
      ),
      (
        ["--style", "circle", "--offset", "5"],
        "--offset does not apply to the circle style; it is for cube, sphere"
      ),
      (["--style", "cube", "--offset", "1,2"], "give --offset Y, not X,Y"),
      (
        ["--style", "grid", "--columns", "4"],
        "the grid's default block is 3 columns wide, but --columns is 4"
      ),
      (
        ["--style", "grid", "--pattern", "4x1"],
        "--pattern '4x1': tile 1 is wider than the 3 columns"
      ),
      (["--style", "grid", "--pattern", "2x"], "invalid value '2x' for '--pattern'"),
      (["--style", "grid", "--pattern", "0x1"], "tile 1 has a span outside 1 to 1000"),
      (
        ["--style", "circle", "--item-size", "1,2,3"],
        "invalid value '1,2,3' for '--item-size'; expected one number or 2 numbers"
      ),
      (
        ["--style", "circle", "--item-size", "0"],
        "invalid value '0' for '--item-size'; expected a number above 0, at most 1000000000"
      ),
      (["--style", "cube", "--height", "-1"], "invalid value '-1' for '--height'"),
      (["--synthetic", "5", "--feed", "x.json"], "give --synthetic or --feed, not both"),
      (
        ["--min-height", "5"],
        "--min-height does not apply to the built-in feed; it is for generated items (--synthetic)"
      ),
      (
        ["--synthetic", "5", "--min-height", "9", "--max-height", "3"],
        "the minimum no larger than the maximum"
      ),
      (["--synthetic", "-1"], "invalid value '-1' for '--synthetic'"),
    ])
  func refusedStyleFlags(arguments: [String], message: String) {
    #expect {
      try parse(arguments)
    } throws: { error in
      guard case .usage(let text, _) = error as? CLIError else { return false }
      return text.contains(message)
    }
  }

  @Test("--synthetic makes the feed")
  func synthetic() throws {
    let options = try parse(["--synthetic", "12", "--min-height", "50", "--max-height", "60"])
    #expect(options.feed == .synthetic(count: 12, minimumHeight: 50, maximumHeight: 60))
  }

  @Test("The masonry flags reach the options")
  func masonryFlags() throws {
    let options = try parse([
      "--style", "waterfall", "--order", "shortest", "--tolerance", "12", "--direction", "rtl",
      "--axis", "horizontal", "--height", "600", "--min-column-width", "150", "--header-height",
      "44", "--footer-height", "30", "--min-content-height", "900", "--scale", "3", "--rect",
      "0,100,375,812",
    ])
    let configuration = options.configuration
    #expect(configuration.tolerance == 12 && configuration.direction == .rightToLeft)
    #expect(configuration.axis == .horizontal && configuration.viewportHeight == 600)
    #expect(configuration.scale == 3)
    // Rows share the 600-point height: ⌊(600 − 20 + 10) / (150 + 10)⌋ = 3.
    #expect(configuration.columns == 3)
    #expect(options.headerHeight == 44 && options.footerHeight == 30)
    #expect(options.minimumContentHeight == 900)
    #expect(options.rect == Rect(x: 0, y: 100, width: 375, height: 812))
    #expect(try parse(["--order", "left-to-right"]).configuration.order == .leftToRight)
  }

  @Test(
    "Masonry flags are refused where they do not apply or do not fit",
    arguments: [
      (
        ["--order", "left-to-right", "--tolerance", "5"],
        "--tolerance applies to --order shortest, not left-to-right"
      ),
      (
        ["--columns", "2", "--min-column-width", "100"],
        "give --columns or --min-column-width, not both"
      ),
      (
        ["--style", "grid", "--order", "left-to-right"],
        "--order does not apply to the grid style; it is for irregular, waterfall"
      ),
      (["--style", "circle", "--scale", "2"], "--scale does not apply to the circle style"),
      (["--style", "cube", "--axis", "horizontal"], "--axis does not apply to the cube style"),
      (
        ["--style", "sphere", "--header-height", "10"],
        "--header-height does not apply to the sphere style"
      ),
      (
        ["--order", "random"],
        "invalid value 'random' for '--order'; expected one of shortest, left-to-right, right-to-left"
      ),
      (["--direction", "up"], "invalid value 'up' for '--direction'; expected ltr or rtl"),
      (["--axis", "diagonal"], "invalid value 'diagonal' for '--axis'"),
      (["--rect", "1,2,3"], "invalid value '1,2,3' for '--rect'; expected 4 numbers"),
      (["--rect", "0,0,-1,5"], "and a width and a height from 0 to 1000000000"),
      (["--header-height", "-4"], "invalid value '-4' for '--header-height'"),
      (
        ["--scale", "0"], "invalid value '0' for '--scale'; expected a number from 1 to 1000"
      ),
      (
        ["--scale", "0.001"],
        "invalid value '0.001' for '--scale'; expected a number from 1 to 1000"
      ),
      (["--scale", "0.999"], "invalid value '0.999' for '--scale'"),
      (["--tolerance", "-1"], "invalid value '-1' for '--tolerance'"),
      (["--min-column-width", "0"], "invalid value '0' for '--min-column-width'"),
      (["--height", "600"], "--height does not apply to the irregular style"),
    ])
  func refusedMasonryFlags(arguments: [String], message: String) {
    #expect {
      try parse(arguments)
    } throws: { error in
      guard case .usage(let text, _) = error as? CLIError else { return false }
      return text.contains(message)
    }
  }
  @Test(
    "A length or offset that would make a number overflow is refused, naming its flag",
    arguments: [
      (["--style", "sphere", "--height", "1e308"], "--height"),
      (["--style", "sphere", "--height", "1000000001"], "--height"),
      (["--header-height", "1e308", "--footer-height", "1e308"], "--header-height"),
      (["--footer-height", "1e10"], "--footer-height"),
      (["--min-content-height", "1e308"], "--min-content-height"),
      (["--style", "cube", "--offset", "1e308"], "--offset"),
      (["--style", "cube", "--offset", "1e9", "--height", "1e-300"], "--offset"),
      (["--style", "sphere", "--offset", "-1e308,0"], "--offset"),
      (["--style", "circle", "--item-size", "1e308"], "--item-size"),
      (["--style", "cube", "--item-size", "260,1e300"], "--item-size"),
      (["--width", "1e308"], "--width"),
      (["--spacing", "1e300"], "--spacing"),
      (["--insets", "0,0,1e10,0"], "--insets"),
      (["--tolerance", "1e300"], "--tolerance"),
      (["--min-column-width", "1e300"], "--min-column-width"),
      (["--synthetic", "10", "--max-height", "1e308"], "--max-height"),
    ])
  func overflowingLengths(arguments: [String], flag: String) {
    #expect {
      try parse(arguments)
    } throws: { error in
      guard case .usage(let text, _) = error as? CLIError else { return false }
      return text.contains(flag)
    }
  }

  @Test(
    "The largest lengths and offsets are accepted",
    arguments: [
      [
        "--style", "sphere", "--width", "1e9", "--height", "1e9", "--item-size", "1e9", "--offset",
        "1e9,-1e9",
      ],
      [
        "--width", "1e9", "--columns", "1", "--spacing", "1e9", "--insets", "1e9,0,1e9,0",
        "--header-height", "1e9",
      ],
      ["--synthetic", "3", "--min-height", "1e9", "--max-height", "1e9", "--scale", "1"],
    ])
  func largestLengths(arguments: [String]) throws {
    _ = try parse(arguments)
  }

  /// Every feed of Tests/Fixtures: where its items are (jq's filter), and the flags that lay it
  /// out as a document and as a stream of its items (no --items: each value is an item).
  static let fixtureFeeds: [(name: String, filter: String, document: [String], stream: [String])] =
    {
      let reddit =
        "img=data.preview.images.0.source.url,width=data.preview.images.0.source.width,"
        + "height=data.preview.images.0.source.height"
      let special: [String: (String, [String], [String])] = [
        "invalid-items.json": (".data[]", ["--skip-invalid"], ["--skip-invalid"]),
        "nested-shape.json": (".result.list[]", ["--items", "result.list"], []),
        "other-keys.json": (
          ".data[]", ["--keys", "img=url,width=size.w,height=size.h"],
          ["--keys", "img=url,width=size.w,height=size.h"]
        ),
        "unsplash-search.json": (
          ".results[]", ["--items", "results", "--keys", "img=urls.small"],
          ["--keys", "img=urls.small"]
        ),
        "pexels-search.json": (
          ".photos[]", ["--items", "photos", "--keys", "img=src.medium"],
          ["--keys", "img=src.medium"]
        ),
        "reddit-listing.json": (
          ".data.children[]", ["--items", "data.children", "--keys", reddit], ["--keys", reddit]
        ),
      ]
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path)) ?? []
      return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
        let (filter, document, stream) = special[name] ?? (".data[]", [], [])
        return (name, filter, document, stream)
      }
    }()

  /// The items `filter` (`.a.b[]`) names in `data`, each written as one JSON value: compact,
  /// one a line, or pretty-printed over several lines, as `jq -c` and `jq` print them.
  static func stream(_ data: Data, filter: String, pretty: Bool) throws -> String {
    var value = try JSONSerialization.jsonObject(with: data)
    for key in filter.dropFirst().dropLast(2).split(separator: ".") {
      value = try #require((value as? [String: Any])?[String(key)])
    }
    let options: JSONSerialization.WritingOptions =
      pretty ? [.prettyPrinted, .fragmentsAllowed] : [.fragmentsAllowed]
    return try #require(value as? [Any]).map {
      String(
        decoding: try JSONSerialization.data(withJSONObject: $0, options: options), as: UTF8.self)
    }.joined(separator: "\n") + "\n"
  }

  /// `result`, its `"feed"` key (which names the source) taken out of a JSON layout.
  static func withoutFeed(_ result: CLIResult) -> String {
    "\(result.code) \(result.standardError) "
      + result.standardOutput.replacing(#/"feed":"[^"]*",/#, with: "")
  }

  @Test(
    "Each fixture's items as a stream, compact or pretty, lay out as the fixture does",
    arguments: fixtureFeeds.map(\.name))
  func streamsLayOutAlike(name: String) async throws {
    let feed = try #require(Self.fixtureFeeds.first { $0.name == name })
    let path = Fixtures.path(name)
    let document = await runCLI(["layout", path, "-f", "json"] + feed.document)
    #expect(document.standardOutput.contains(#""feed":"#) || document.code != .success)
    for pretty in [false, true] {
      let input = try Self.stream(try Fixtures.data(name), filter: feed.filter, pretty: pretty)
      let stream = await runCLI(["layout", "-", "-f", "json"] + feed.stream, input: input)
      // JSONSerialization writes an object's keys in an order of its own, which a message
      // listing an item's keys follows; the jq test below holds that list to the feed's order.
      let keyList = #/the item's keys are [^;]*;/#
      #expect(
        Self.withoutFeed(stream).replacing(keyList, with: "")
          == Self.withoutFeed(document).replacing(keyList, with: ""), "pretty: \(pretty)")
    }
  }

  @Test(
    "jq -c and jq's printing of each fixture's items lay out as the fixture does",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jq"), "jq is not installed"),
    arguments: fixtureFeeds.map(\.name))
  func jqStreamsLayOutAlike(name: String) async throws {
    let feed = try #require(Self.fixtureFeeds.first { $0.name == name })
    let path = shellQuoted(Fixtures.path(name))
    // The output, the messages and the status of `command`, the feed's name taken out.
    func run(_ command: String) async throws -> ShellRun {
      try await shell(#"{ "# + command + #" 2>&1; echo "exit $?"; } | sed 's/"feed":"[^"]*",//'"#)
    }
    func flags(_ list: [String]) -> String { list.map(shellQuoted).joined(separator: " ") }
    let document = try await run("\"$FALLS\" layout \(path) -f json \(flags(feed.document))")
    for jq in ["jq -c", "jq"] {
      let stream = try await run(
        "\(jq) \(shellQuoted(feed.filter)) \(path) | \"$FALLS\" layout -f json \(flags(feed.stream))"
      )
      #expect(stream.text == document.text, "\(jq)")
    }
  }
}

@Suite struct ShapeMessageTests {
  @Test(
    "Items all missing a field under its name end on the --keys hint; a bad value on --skip-invalid",
    arguments: [
      (
        #"{"url":"https://a/b.jpg","w":3,"h":4}"# + "\n"
          + #"{"url":"https://a/c.jpg","w":3,"h":4}"#,
        "falls: error: feed item 0: \"width\" is missing; expected a positive number, as a "
          + "string like \"1200\" or a JSON number; the item's keys are \"url\", \"w\", \"h\"; "
          + "try --keys img=url,width=w,height=h (and 1 more invalid item)\n"
      ),
      (
        #"[{"img":"a","width":"wide","height":1},{"img":"b","width":2,"height":1}]"#,
        "falls: error: feed item 0: \"width\" is \"wide\"; expected a positive number, as a "
          + "string like \"1200\" or a JSON number; use --skip-invalid to lay out the valid "
          + "items\n"
      ),
    ])
  func shapeMessage(feed: String, message: String) async {
    let result = await runCLI(["layout", "-"], input: feed)
    #expect(result.code == .dataError)
    #expect(result.standardError == message)
  }

  @Test(
    "Items somewhere else than data: the message names the array and the --items that reads it",
    arguments: [
      // An object without data: its keys, and its one array's.
      (
        #"{"total":2,"results":[{"img":"a","width":1,"height":1}],"next":null}"#,
        #"(the top-level object has no "data" key; its keys are "total", "results", "next"); "#
          + #"its items may be the array at "results": try --items results"#
      ),
      (
        #"{"my photos":[{"img":"a"}]}"#,
        #"its items may be the array at "my photos": try --items 'my photos'"#
      ),
      // Deeper: the first array of objects up to three keys in, as docs/feeds.md's shapes put it.
      (
        #"{"status":0,"result":{"count":1,"list":[{"u":"a"}]}}"#,
        #"its items may be the array at "result.list": try --items result.list"#
      ),
      (
        #"{"kind":"Listing","data":{"after":null,"children":[{"kind":"t3"}]}}"#,
        #"("data" is an object); its items may be the array at "data.children": "#
          + "try --items data.children"
      ),
      // An array of numbers holds no items; four keys deep is too deep to guess.
      (#"{"a":[1,2],"b":{"c":{"d":{"e":[{"x":1}]}}}}"#, #"its keys are "a", "b"); expected {"#),
      // Sizes missing beside an image: --sizes fill reads them.
      (
        #"[{"img":"https://x/a.jpg","w":1,"h":2}]"#,
        #"the item's keys are "img", "w", "h"; try --keys width=w,height=h, or read the "#
          + "sizes from the images with --sizes fill"
      ),
      // A key that is no path of itself is not suggested: the message says what is expected.
      (
        #"{"a.b":[{"img":"a"}]}"#,
        #"its keys are "a.b"); expected {"data": [{"img": …, "width": "1200", "height": "2249"}]}, "#
          + "an array of such items, or --items PATH to where its items are"
      ),
      // A stream of pages, each with its items at data.
      (
        #"{"page":1,"data":[{"img":"a","width":1,"height":1}]}"# + "\n"
          + #"{"page":2,"data":[{"img":"b","width":1,"height":1}]}"#,
        #"the item's keys are "page", "data"; if each value is a page of items at "data", "#
          + "try --items data (and 1 more invalid item)"
      ),
      // A key guess for --keys is worth more than one for --items.
      (
        #"{"url":"https://a/b.jpg","w":3,"h":4,"tags":[1]}"# + "\n"
          + #"{"url":"https://a/c.jpg","w":3,"h":4,"tags":[1]}"#,
        "try --keys img=url,width=w,height=h (and 1 more invalid item)"
      ),
      // A list of items written by hand, with commas.
      (
        #"{"img":"a","width":1,"height":1},"# + "\n" + #"{"img":"b","width":1,"height":1}"#,
        "line 1, column 33: unexpected ',' after the JSON value; the values of a stream are "
          + "separated by whitespace alone (JSON Lines: one a line), and those of an array are "
          + "in [ ]"
      ),
    ])
  func itemsElsewhere(feed: String, ending: String) async {
    let result = await runCLI(["layout", "-"], input: feed)
    #expect(result.code == .dataError)
    #expect(result.standardError.contains(ending), "\(result.standardError)")
    #expect(result.standardError.hasSuffix("\n"))
    #expect(result.standardOutput.isEmpty)
  }

  @Test("Each suggested --items reads the items it names")
  func suggestedItemsRead() async {
    let pages =
      #"{"page":1,"data":[{"img":"a","width":1,"height":1}]}"# + "\n"
      + #"{"page":2,"data":[{"img":"b","width":1,"height":1}]}"#
    let stream = await runCLI(["layout", "-", "--items", "data", "-f", "jsonl"], input: pages)
    #expect(stream.code == .success && stream.standardOutput.split(separator: "\n").count == 2)
    let object = #"{"total":2,"my photos":[{"img":"a","width":1,"height":1}]}"#
    let spaced = await runCLI(
      ["layout", "-", "--items", "my photos", "-f", "jsonl"], input: object)
    #expect(spaced.code == .success && spaced.standardOutput.split(separator: "\n").count == 1)
  }

  @Test("--items . names the top level as it was written")
  func itemsDot() async {
    let result = await runCLI(["layout", Fixtures.path("mj-shop-1.json"), "--items", "."])
    #expect(result.code == .dataError)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: the feed has no item array at --items .: the top level is an object"))
  }
}
