// The guard of every byte falls computes and prints: a large matrix of layouts (every style and
// option, the fixtures and generated feeds, several seeds, pages of 1, 7 and 50 items) and of
// `falls` runs (every format, errors included), each reduced to a 64-bit digest and compared
// with the digests in `Tests/Fixtures/golden/matrix-*.txt`.
//
// A change of output shows here, named by its case. Only public API is used, so the file needs no
// change when the code under it is rebuilt. A style or an output format without cases fails
// `everyStyleAndFormat`; which changes were deliberate is told by the commits that record them.
//
// To record them again after a deliberate change of output (and say so in the commit):
//
//   FALLS_RECORD_DIGESTS=1 swift test --filter MatrixDigestTests

import FallsBase
import FallsCLI
import FallsCheckers
import FallsCore
import FallsFeed
import FallsFixtures
import Foundation
import Testing

/// FNV-1a, 64 bits: a digest that depends only on the bytes fed to it.
private struct Digest {
  private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

  mutating func add<Bytes: Sequence<UInt8>>(bytes: Bytes) {
    for byte in bytes {
      value ^= UInt64(byte)
      value &*= 0x0000_0100_0000_01B3
    }
  }

  mutating func add(_ word: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      add(bytes: CollectionOfOne(UInt8(truncatingIfNeeded: word >> shift)))
    }
  }

  mutating func add(_ number: Double) { add(number.bitPattern) }
  mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
  mutating func add(_ flag: Bool) { add(flag ? 1 : 0) }

  mutating func add(_ text: String) {
    add(text.utf8.count)
    add(bytes: text.utf8)
  }

  mutating func add(_ frame: Rect) {
    add(frame.x)
    add(frame.y)
    add(frame.width)
    add(frame.height)
  }

  mutating func add(_ element: LayoutElement) {
    add(element.index)
    add(element.column)
    add(element.span)
    add(element.frame)
    add(element.isEnlarged)
    add(element.isAligned)
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// The recorded digests of one golden file, by case name.
private func recorded(_ file: String) throws -> [String: String] {
  let text = String(decoding: try Fixtures.data("golden/\(file)"), as: UTF8.self)
  var digests: [String: String] = [:]
  for line in text.split(separator: "\n") where !line.hasPrefix("#") {
    guard let space = line.lastIndex(of: " ") else { continue }
    digests[String(line[..<space])] = String(line[line.index(after: space)...])
  }
  return digests
}

/// Compares `computed` with the golden file `file`, or writes it when recording.
private func compare(_ computed: [(name: String, digest: String)], with file: String) throws {
  let names = computed.map(\.name)
  #expect(Set(names).count == names.count, "two cases share a name")
  if ProcessInfo.processInfo.environment["FALLS_RECORD_DIGESTS"] == "1" {
    let text =
      "# case digest (FNV-1a 64); see Tests/FallsCLITests/MatrixDigestTests.swift\n"
      + computed.map { "\($0.name) \($0.digest)\n" }.joined()
    try Data(text.utf8).write(to: Fixtures.directory.appendingPathComponent("golden/\(file)"))
    return
  }
  let expected = try recorded(file)
  var changed: [String] = []
  for (name, digest) in computed where expected[name] != digest {
    changed.append("\(name): \(expected[name] ?? "not recorded") → \(digest)")
  }
  let missing = Set(expected.keys).subtracting(names)
  #expect(
    changed.isEmpty,
    "\(changed.count) cases changed:\n\(changed.prefix(40).joined(separator: "\n"))")
  #expect(missing.isEmpty, "cases no longer computed: \(missing.sorted().prefix(20))")
  #expect(computed.count == expected.count)
}

// MARK: The feeds

/// A feed of the matrix: its name and its items.
private struct MatrixFeed: Sendable {
  var name: String
  var items: [LayoutItem]
}

private let matrixFeeds: [MatrixFeed] = {
  var feeds: [MatrixFeed] = []
  for name in Fixtures.feedNames + ["matrix-spans.json"] {
    // The fixtures are valid; a failure to read one fails every case that uses it.
    let items = (try? FeedDecoder.decode(Fixtures.data(name)))?.items.map(\.layoutItem) ?? []
    feeds.append(MatrixFeed(name: String(name.dropLast(5)), items: items))
  }
  feeds.append(MatrixFeed(name: "generated", items: GeneratedFeeds.items(count: 300, seed: 11)))
  feeds.append(
    MatrixFeed(
      name: "synthetic",
      items: SyntheticFeed.items(count: 200, seed: 5, columnWidth: 111.66666666666667)))
  return feeds
}()

/// The options of the columnar styles, each a change to the configuration.
private let columnarOptions:
  [(name: String, change: @Sendable (inout LayoutConfiguration) -> Void)] =
    [
      ("plain", { _ in }),
      (
        "seed7-chance1-align0.5",
        {
          $0.seed = 7
          $0.enlargeChance = 1
          $0.alignTolerance = 0.5
        }
      ),
      (
        "seedmax-chance0.3-align0",
        {
          $0.seed = .max
          $0.enlargeChance = 0.3
          $0.alignTolerance = 0
        }
      ),
      ("spread", { $0.alignment = .spread }),
      (
        "planned-chance1-seed3",
        {
          $0.alignment = .planned
          $0.enlargeChance = 1
          $0.seed = 3
        }
      ),
      (
        "planned-rtl-scale2",
        {
          $0.alignment = .planned
          $0.direction = .rightToLeft
          $0.scale = 2
        }
      ),
      ("left-to-right", { $0.order = .leftToRight }),
      ("right-to-left", { $0.order = .rightToLeft }),
      ("tolerance25", { $0.tolerance = 25 }),
      ("rtl", { $0.direction = .rightToLeft }),
      ("horizontal", { $0.axis = .horizontal }),
      ("scale2", { $0.scale = 2 }),
      (
        "scale3-rtl-tolerance10",
        {
          $0.scale = 3
          $0.direction = .rightToLeft
          $0.tolerance = 10
        }
      ),
      (
        "horizontal-scale2-rtl-spacing0",
        {
          $0.axis = .horizontal
          $0.scale = 2
          $0.direction = .rightToLeft
          $0.columnSpacing = 0
          $0.rowSpacing = 0
        }
      ),
      (
        "wide-insets0-spacing4",
        {
          $0.width = 1024
          $0.insets = .zero
          $0.columnSpacing = 4
          $0.rowSpacing = 4
        }
      ),
      (
        "spacing0-scale3-odd-insets",
        {
          $0.columnSpacing = 0
          $0.rowSpacing = 0
          $0.scale = 3
          $0.insets = EdgeInsets(top: 3.3, left: 7.1, bottom: 0, right: 1.9)
        }
      ),
    ]

/// The digest of a layout: its elements, transforms and centres, content size, and what three
/// rectangles meet.
private func digest(of layout: WaterfallLayout, into digest: inout Digest) {
  for element in layout.elements { digest.add(element) }
  for transform in layout.transforms { for entry in transform.entries { digest.add(entry) } }
  for center in layout.centers {
    digest.add(center.x)
    digest.add(center.y)
  }
  let size = layout.contentSize
  digest.add(size.width)
  digest.add(size.height)
  let rects = [
    Rect(x: 0, y: 0, width: size.width, height: min(size.height, 812)),
    Rect(x: 0, y: size.height / 2, width: size.width, height: 500),
    Rect(x: size.width / 3, y: size.height / 3, width: 1, height: 300),
    Rect(x: size.width / 2, y: 0, width: size.width / 2, height: size.height),
  ]
  for rect in rects {
    let found = layout.elements(in: rect)
    digest.add(found.count)
    for element in found { digest.add(element.index) }
  }
}

/// The digest of `items` laid out with `configuration` at once, then in pages of 1, 7 and 50
/// (which must give the same layout; a failure to lay out is digested as its error).
private func layoutDigest(_ configuration: LayoutConfiguration, _ items: [LayoutItem]) -> String {
  var result = Digest()
  var whole: [LayoutElement]?
  for page in [Int.max, 1, 7, 50] {
    do {
      var layout = try WaterfallLayout(configuration)
      var start = 0
      while start < items.count {
        let end = min(start + page, items.count)
        try layout.append(items[start..<end])
        start = end
      }
      if let whole {
        // An alignment that moves items placed earlier makes each append a page of its own.
        #expect(
          configuration.appendsArePages || layout.elements == whole,
          "pages of \(page) differ from the layout at once")
      } else {
        whole = layout.elements
      }
      digest(of: layout, into: &result)
    } catch {
      result.add("\(error)")
    }
  }
  return result.hex
}

/// What a test computes: one case's name and digest.
private typealias Computed = (name: String, digest: String)

/// Computes `cases` on every processor, in their order.
private func computeAll(_ cases: [(String, @Sendable () -> String)]) -> [Computed] {
  let results = Locked(Array(repeating: "", count: cases.count))
  DispatchQueue.concurrentPerform(iterations: cases.count) { index in
    let digest = cases[index].1()
    results.withLock { $0[index] = digest }
  }
  let digests = results.withLock { $0 }
  return cases.enumerated().map { ($0.element.0, digests[$0.offset]) }
}

private func quiltPattern(columns: Int) -> QuiltPattern {
  let spans: [(columns: Int, rows: Int)] =
    switch columns {
    case 1: [(1, 1), (1, 2)]
    case 2: [(2, 1), (1, 1), (1, 1)]
    case 3: [(2, 2), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1)]
    case 4: [(2, 2), (1, 1), (1, 1), (2, 1), (2, 1)]
    default: [(3, 2), (2, 1), (2, 2), (1, 1), (1, 1), (columns, 1)]
    }
  return (try? QuiltPattern(spans: spans, columns: columns)) ?? .seed
}

@Suite struct MatrixDigestTests {
  @Test("Every style has layouts in the matrix, and runs in every output format")
  func everyStyleAndFormat() throws {
    let layouts = try [recorded("matrix-columnar.txt"), recorded("matrix-layouts.txt")]
      .flatMap(\.keys)
    for style in LayoutStyle.allCases {
      #expect(layouts.contains { $0.hasPrefix(style.rawValue + " ") }, "no layout of \(style)")
      let runs = Self.outputRuns.filter { run in
        let given = run.firstIndex(of: "--style").map { run[$0 + 1] }
        return (given ?? LayoutConfiguration().style.rawValue) == style.rawValue
      }
      for format in OutputFormat.allCases {
        let formatted = runs.filter { run in
          run.firstIndex(of: "--format").map { run[$0 + 1] } == format.rawValue
        }
        #expect(!formatted.isEmpty, "no \(format) run of the \(style) style")
      }
    }
  }

  @Test("Irregular and waterfall layouts: every option, 1 to 7 columns, every feed, in pages")
  func columnar() throws {
    var cases: [(String, @Sendable () -> String)] = []
    for style in [LayoutStyle.irregular, .waterfall] {
      for columns in [1, 2, 3, 4, 7] {
        for option in columnarOptions {
          for feed in matrixFeeds {
            var configuration = LayoutConfiguration(style: style, columns: columns)
            option.change(&configuration)
            let name = "\(style.rawValue) c\(columns) \(option.name) \(feed.name)"
            cases.append((name, { [configuration] in layoutDigest(configuration, feed.items) }))
          }
        }
      }
    }
    try compare(computeAll(cases), with: "matrix-columnar.txt")
  }

  @Test("Grid and ring layouts, and sections with headers and footers")
  func gridRingsAndSections() throws {
    var cases: [(String, @Sendable () -> String)] = []
    let gridOptions: [(name: String, change: @Sendable (inout LayoutConfiguration) -> Void)] = [
      ("plain", { _ in }),
      ("rtl", { $0.direction = .rightToLeft }),
      ("horizontal", { $0.axis = .horizontal }),
      ("scale3", { $0.scale = 3 }),
      (
        "insets0-spacing0",
        {
          $0.insets = .zero
          $0.columnSpacing = 0
          $0.rowSpacing = 0
        }
      ),
    ]
    for columns in [1, 2, 3, 4, 7] {
      for option in gridOptions {
        for feed in matrixFeeds
        where ["mj-shop-1", "matrix-spans", "zx-shopdata"].contains(feed.name) {
          var configuration = LayoutConfiguration(
            style: .grid, columns: columns, pattern: quiltPattern(columns: columns))
          option.change(&configuration)
          cases.append(
            (
              "grid c\(columns) \(option.name) \(feed.name)",
              { [configuration] in layoutDigest(configuration, feed.items) }
            ))
        }
      }
    }
    var seedGrid = LayoutConfiguration(style: .grid)
    seedGrid.pattern = .seed
    cases.append(
      (
        "grid seed-pattern generated",
        { [seedGrid] in layoutDigest(seedGrid, matrixFeeds[8].items) }
      ))
    let rings: [(String, LayoutConfiguration)] = [
      ("circle default", LayoutConfiguration(style: .circle)),
      (
        "circle size40 wide",
        LayoutConfiguration(
          style: .circle, width: 800, viewportHeight: 400, itemSize: Size(width: 40, height: 40))
      ),
      ("cube default", LayoutConfiguration(style: .cube)),
      ("cube offset667", LayoutConfiguration(style: .cube, offset: Point(x: 0, y: 667))),
      (
        "cube size300x120 offset-1234.5",
        LayoutConfiguration(
          style: .cube, itemSize: Size(width: 300, height: 120), offset: Point(x: 0, y: -1234.5))
      ),
      ("sphere default", LayoutConfiguration(style: .sphere)),
      ("sphere offset10,667", LayoutConfiguration(style: .sphere, offset: Point(x: 10, y: 667))),
      (
        "sphere size24 offset375,-50",
        LayoutConfiguration(
          style: .sphere, itemSize: Size(width: 24, height: 24), offset: Point(x: 375, y: -50))
      ),
    ]
    for (name, configuration) in rings {
      for feed in matrixFeeds
      where ["jkr-finderlist-excerpt", "zx-shopdata", "mj-shop-2"].contains(feed.name) {
        cases.append(("\(name) \(feed.name)", { layoutDigest(configuration, feed.items) }))
      }
      cases.append(
        ("\(name) two", { layoutDigest(configuration, Array(matrixFeeds[0].items.prefix(2))) }))
      cases.append(
        ("\(name) one", { layoutDigest(configuration, Array(matrixFeeds[0].items.prefix(1))) }))
    }
    for (name, axis) in [("vertical", LayoutAxis.vertical), ("horizontal", .horizontal)] {
      cases.append(
        (
          "sections \(name)",
          {
            var digest = Digest()
            do {
              let sections = [
                Section(
                  configuration: LayoutConfiguration(style: .irregular, columns: 3, axis: axis),
                  headerHeight: 44, footerHeight: 20),
                Section(
                  configuration: LayoutConfiguration(
                    style: .waterfall, columns: 2, columnSpacing: 4, rowSpacing: 6,
                    insets: EdgeInsets(top: 0, left: 8, bottom: 12, right: 8), axis: axis,
                    scale: 2)),
                Section(
                  configuration: LayoutConfiguration(style: .grid, axis: axis), headerHeight: 30),
              ]
              var layout = try SectionedLayout(sections, minimumContentHeight: 9000)
              for (section, feed) in [(0, 0), (1, 7), (2, 2), (0, 8)] {
                try layout.append(matrixFeeds[feed].items, toSection: section)
              }
              digest.add(layout.contentSize.width)
              digest.add(layout.contentSize.height)
              for element in layout.elements {
                digest.add(element.kind.rawValue)
                digest.add(element.section)
                digest.add(element.frame)
                if let item = element.item { digest.add(item) }
              }
              for start in stride(from: 0.0, to: 9000, by: 700) {
                let rect =
                  axis == .vertical
                  ? Rect(x: 0, y: start, width: 375, height: 812)
                  : Rect(x: start, y: 0, width: 812, height: 667)
                for element in layout.elements(in: rect) {
                  digest.add(element.kind.rawValue)
                  digest.add(element.frame)
                }
              }
            } catch {
              digest.add("\(error)")
            }
            return digest.hex
          }
        ))
    }
    try compare(computeAll(cases), with: "matrix-layouts.txt")
  }

  /// The runs of `falls` whose every byte of output is digested: the feeds, the option sets and
  /// the formats, crossed.
  private static let outputRuns: [[String]] = {
    let feeds: [[String]] = [
      [],
      ["--feed", Fixtures.path("mj-shop-1.json")],
      ["--feed", Fixtures.path("zx-shopdata.json")],
      ["--feed", Fixtures.path("matrix-spans.json")],
      ["--feed", Fixtures.path("invalid-items.json"), "--skip-invalid"],
    ]
    let options: [[String]] = [
      [],
      ["--columns", "4"],
      ["--style", "waterfall", "--columns", "2", "--spacing", "5"],
      ["--style", "grid"],
      ["--style", "grid", "--columns", "4", "--pattern", "2x2,1x1,1x1,2x1,2x1"],
      ["--style", "circle"],
      ["--style", "cube", "--offset", "667"],
      ["--style", "sphere", "--offset", "10,667", "--item-size", "40"],
      ["--order", "left-to-right"],
      ["--order", "right-to-left", "--columns", "4"],
      ["--tolerance", "20"],
      ["--direction", "rtl"],
      ["--axis", "horizontal", "--height", "500"],
      ["--scale", "3", "--columns", "5"],
      ["--min-column-width", "100"],
      ["--header-height", "44", "--footer-height", "30", "--min-content-height", "5000"],
      ["--rect", "0,300,375,500"],
      [
        "--insets", "5,20,15,10", "--seed", "42", "--enlarge-chance", "1", "--align-tolerance",
        "0.5",
      ],
      ["--width=1024", "--columns=7", "--row-spacing", "2", "--column-spacing", "3"],
    ]
    var runs: [[String]] = []
    for feed in feeds {
      for option in options {
        for format in OutputFormat.allCases {
          runs.append(["layout"] + feed + option + ["--format", format.rawValue])
        }
      }
    }
    for format in OutputFormat.allCases {
      runs.append([
        "layout", "--synthetic", "1000", "--style", "waterfall", "--seed", "7", "--format",
        format.rawValue,
      ])
    }
    runs += [
      ["layout", "--synthetic", "20000", "--format", "jsonl"],
      ["layout", "--synthetic", "20000", "--format", "json", "--columns", "5", "--scale", "2"],
      ["layout", "--synthetic", "9000", "--format", "jsonl", "--style", "sphere"],
      [
        "layout", "--synthetic", "9000", "--format", "json", "--header-height", "10",
        "--footer-height", "10",
      ],
      [
        "layout", "--synthetic", "300", "--min-height", "20", "--max-height", "900", "--format",
        "table",
      ],
      ["layout", "--feed", "-", "--format", "json"],
      ["layout", "--feed", "-", "--format", "table", "--columns", "2"],
    ]
    return runs
  }()

  /// Runs that fail, or print help: the status and both streams are digested.
  private static let errorRuns: [[String]] = [
    [], ["--help"], ["help"], ["help", "layout"], ["help", "view"], ["--version"], ["bogus"],
    ["--bogus"], ["layout", "--help"], ["view", "--help"], ["view", "--format", "json"],
    ["view", "--columns", "0"],
    ["layout", "--columns", "0"], ["layout", "--columns", "x"], ["layout", "--columns", "10001"],
    ["layout", "--colums", "3"], ["layout", "--width", "-1"], ["layout", "--width", "1e308"],
    ["layout", "--spacing", "nan"], ["layout", "--insets", "1,2,3,4,5"],
    ["layout", "--insets", "1,2,3,x"],
    ["layout", "--style", "cube", "--columns", "3"],
    ["layout", "--style", "circle", "--offset", "5"],
    ["layout", "--style", "cube", "--offset", "1,2"], ["layout", "--style", "bogus"],
    ["layout", "--tolerance", "5", "--order", "left-to-right"],
    ["layout", "--columns", "3", "--min-column-width", "100"],
    ["layout", "--min-column-width", "0"], ["layout", "--style", "grid", "--columns", "4"],
    ["layout", "--pattern", "2x2", "--style", "waterfall"],
    ["layout", "--style", "grid", "--pattern", "9x1"],
    ["layout", "--style", "grid", "--pattern", "2y2"],
    ["layout", "--style", "grid", "--pattern", ""],
    ["layout", "--format", "xml"], ["layout", "--feed", "ftp://example.com/feed.json"],
    ["layout", "--feed", "http://"], ["layout", "--feed", "/nonexistent/feed.json"],
    ["layout", "--feed", ""], ["layout", "--synthetic", "10", "--feed", "-"],
    ["layout", "--min-height", "5"], ["layout", "--synthetic", "10", "--min-height", "0"],
    ["layout", "--synthetic", "-1"], ["layout", "--pages", "2"], ["layout", "--pages", "0"],
    ["layout", "--width", "100", "--columns", "20", "--column-spacing", "10"],
    ["layout", "--scale", "0.5"], ["layout", "--scale", "1001"],
    ["layout", "--enlarge-chance", "2"],
    ["layout", "--align-tolerance", "1"], ["layout", "--style", "circle", "--height", "0"],
    ["layout", "--style", "sphere", "--item-size", "0"],
    ["layout", "--style", "sphere", "--item-size", "1,2,3"],
    ["layout", "--style", "cube", "--offset", "1e308"],
    ["layout", "--style", "sphere", "--height", "1e308"],
    ["layout", "--seed", "-1"], ["layout", "--retries", "11"], ["layout", "--max-bytes", "0"],
    ["layout", "--timeout", "0"], ["layout", "--rect", "0,0,-1,5"], ["layout", "--rect", "1,2,3"],
    ["layout", "--output", ""], ["layout", "--skip-invalid=1"], ["layout", "--columns"],
    ["layout", "--columns", "--width", "3"], ["layout", "unexpected"], ["layout", "-c", "3"],
    ["layout", "--header-height", "-1"], ["layout", "--footer-height", "2e9"],
    ["layout", "--style", "circle", "--order", "left-to-right"],
    ["layout", "--style", "sphere", "--direction", "rtl"],
    ["layout", "--style", "cube", "--scale", "2"],
    ["layout", "--style", "circle", "--axis", "horizontal"],
    ["layout", "--style", "grid", "--tolerance", "3"],
    ["layout", "--style", "waterfall", "--enlarge-chance", "0.5"],
    ["layout", "--style", "grid", "--align-tolerance", "0.5"], ["layout", "--height", "500"],
    ["layout", "--axis", "horizontal", "--height", "0"], ["layout", "--item-size", "40"],
    ["layout", "--feed", Fixtures.path("invalid-items.json")],
    ["layout", "--feed", "-"], ["layout", "--feed", "-", "--max-bytes", "10"],
  ]

  /// Standard inputs of the error runs that read it, by position in ``errorRuns``.
  private static let errorInputs: [String] = [
    "", "{}", "[1]", "{\"data\": 5}",
    "{\"data\": [1, {\"img\": 2, \"width\": \"1\", \"height\": true}]}",
    "{\"data\": [{\"img\": \"a\", \"width\": \"1e-300\", \"height\": \"1e300\"}]}",
    "{\"data\": [{\"img\": \"a\", \"width\": \"1e308\", \"height\": \"4.9e-324\"}]}",
    "not json", "{\"data\": [{\"img\": \"a\u{1B}]0;x\u{7}\", \"width\": 1}]}", "{\"data\": [,]}",
  ]

  @Test("Every format of falls layout, for every style and option, byte for byte")
  func outputs() async throws {
    let input = String(decoding: try Fixtures.data("xr-waterfall.json"), as: UTF8.self)
    var computed: [Computed] = []
    for run in Self.outputRuns {
      let result = await runCLI(run, input: input)
      var digest = Digest()
      digest.add(Int(result.code.rawValue))
      // The fixtures' paths differ between checkouts: the JSON document's feed names one.
      digest.add(
        result.standardOutput.replacingOccurrences(of: Fixtures.directory.path, with: "FIXTURES"))
      digest.add(result.standardError)
      let name = run.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0).lastPathComponent : $0 }
        .joined(separator: " ")
      computed.append((name, digest.hex))
      #expect(result.code == .success, "\(name): \(result.standardError)")
    }
    try compare(computed, with: "matrix-outputs.txt")
  }

  @Test("Every error message and help text, with its status")
  func errors() async throws {
    var computed: [Computed] = []
    for run in Self.errorRuns {
      let inputs = run.contains("-") ? Self.errorInputs : [""]
      for (position, input) in inputs.enumerated() {
        let result = await runCLI(run, input: input)
        var digest = Digest()
        digest.add(Int(result.code.rawValue))
        digest.add(result.standardOutput)
        digest.add(
          result.standardError.replacingOccurrences(of: Fixtures.directory.path, with: "FIXTURES"))
        let name =
          run.map {
            $0.hasPrefix("/") && $0.count > 20 ? URL(fileURLWithPath: $0).lastPathComponent : $0
          }
          .joined(separator: " ") + (inputs.count > 1 ? " <input\(position)" : "")
        computed.append((name.isEmpty ? "(none)" : name, digest.hex))
      }
    }
    try compare(computed, with: "matrix-errors.txt")
  }
}
