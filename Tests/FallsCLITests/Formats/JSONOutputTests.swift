import FallsBase
import FallsCheckers
import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import FoundationXML
import Testing

@testable import FallsCLI

private func report(_ name: String, configuration: LayoutConfiguration = LayoutConfiguration())
  throws -> LayoutReport
{
  let items = try Fixtures.feed(name).items
  let layout = try WaterfallLayout(configuration, items: items.map(\.layoutItem))
  return LayoutReport(sectioned: SectionedLayout(layout), items: PlacedItems(items, page: 1))
}

private func written(_ report: LayoutReport, _ format: OutputFormat) throws -> Data {
  let sink = BufferSink()
  try report.write(format, to: sink)
  return Data(sink.bytes)
}

@Suite struct LayoutOutputTests {
  @Test("JSON has the schema's keys in the schema's order")
  func keyOrder() throws {
    let json = try written(try report("mj-shop-1.json"), .json)
    let document = try ParsedLayout(json: json)
    #expect(
      document.keyOrder == [
        "schema", "style", "width", "columns", "columnSpacing", "rowSpacing", "insets", "seed",
        "alignment", "flatEnd", "contentHeight", "quality", "items",
      ])
    #expect(document.schema == "falls.layout/1")
    let text = String(decoding: json, as: UTF8.self)
    #expect(
      text.hasPrefix(
        #"{"schema":"falls.layout/1","style":"irregular","width":375,"columns":3,"columnSpacing":10,"rowSpacing":10,"insets":{"top":10,"left":10,"bottom":10,"right":10},"seed":1,"alignment":"seed","flatEnd":false,"contentHeight":"#
      ))
    #expect(text.contains(#","quality":{"enlargedShare":"#))
    #expect(text.contains(#","items":[{"kind":"item","index":0,"page":1,"column":0,"span":"#))
    #expect(text.hasSuffix("}]}\n"))
  }

  @Test(
    "The json object, --quality as lines and as json, and the table's summary line all say the library's quality figures",
    arguments: ["mj-shop-1.json", "xr-waterfall.json"])
  func quality(fixture: String) async throws {
    let items = try Fixtures.feed(fixture).items
    let layout = try WaterfallLayout(LayoutConfiguration(), items: items.map(\.layoutItem))
    let expected = try #require(LayoutQuality(of: layout, items: items.map(\.layoutItem)))
    let feed = Fixtures.path(fixture)
    struct Document: Decodable { var quality: [String: Double] }
    let json = await runCLI(["layout", feed, "-f", "json"])
    let document = try JSONDecoder().decode(Document.self, from: Data(json.standardOutput.utf8))
    let only = await runCLI(["layout", feed, "--quality", "-f", "json"])
    let object = try JSONDecoder().decode(
      [String: Double].self, from: Data(only.standardOutput.utf8))
    let lines = await runCLI(["layout", feed, "--quality"])
    #expect(lines.code == .success && lines.standardError.isEmpty)
    let pairs = lines.standardOutput.split(separator: "\n").map { $0.split(separator: " ") }
    #expect(pairs.map { String($0[0]) } == LayoutQuality.names)
    for (name, value) in zip(LayoutQuality.names, expected.values) {
      #expect(document.quality[name] == value, "\(name)")
      #expect(object[name] == value, "\(name)")
      #expect(pairs.first { $0[0] == name }.flatMap { Double(String($0[1])) } == value)
    }
    #expect(object.count == 6 && document.quality.count == 6)
    // The summary line in percent, to a tenth.
    let table = await runCLI(["layout", feed])
    let summary = try #require(table.standardOutput.split(separator: "\n").first)
    let enlarged = String(format: "%.1f%%", expected.enlargedShare * 100)
    let maximum = String(format: "%.1f%%", expected.maxDistortion * 100)
    #expect(summary.contains("; enlarged \(enlarged), corrected "), "\(summary)")
    #expect(summary.contains(", max \(maximum)), ragged end "), "\(summary)")
  }

  @Test(
    "falls layout --align spread --flat-end: every height within the bound, the ends on one line",
    arguments: ["mj-shop-1.json", "xr-waterfall.json"])
  func spreadFlatEnd(fixture: String) async throws {
    let feed = Fixtures.path(fixture)
    for seed in 1...5 {
      let run = await runCLI(
        [
          "layout", feed, "--align", "spread", "--flat-end", "--seed", "\(seed)", "--quality", "-f",
          "json",
        ])
      #expect(run.code == .success, "\(run.standardError)")
      let quality = try JSONDecoder().decode(
        [String: Double].self, from: Data(run.standardOutput.utf8))
      #expect(try #require(quality["maxDistortion"]) <= 0.1)
      #expect(try #require(quality["raggedEnd"]) <= 0.05, "seed \(seed)")
    }
    // The library's layout, paged as the command pages it (one page), flattened.
    let items = try Fixtures.feed(fixture).items.map(\.layoutItem)
    var layout = try WaterfallLayout(
      LayoutConfiguration(alignment: .spread, flatEnd: true), items: items)
    layout.flattenEnd()
    let json = await runCLI(["layout", feed, "--align", "spread", "--flat-end", "-f", "json"])
    let parsed = try ParsedLayout(json: Data(json.standardOutput.utf8))
    #expect(parsed.elements.map(\.frame) == layout.elements.map(\.frame))
  }

  @Test("--skip-invalid: skipped, before items, names each item skipped and why; none without it")
  func skipped() async throws {
    let feed = Fixtures.path("invalid-items.json")
    let json = await runCLI(["layout", feed, "--skip-invalid", "-f", "json"])
    #expect(try ParsedLayout(json: Data(json.standardOutput.utf8)).schema == "falls.layout/1")
    // Item 2 of the fixture gives "width": "wide".
    #expect(
      json.standardOutput.contains(
        #","skipped":[{"index":2,"field":"width","key":"width","type":"string","value":"wide","#
          + #""reason":"notANumber","error":null}],"items":["#))
    let none = await runCLI([
      "layout", Fixtures.path("mj-shop-1.json"), "--skip-invalid", "-f", "json",
    ])
    #expect(none.standardOutput.contains(#","skipped":[],"items":["#))
    let without = await runCLI(["layout", Fixtures.path("mj-shop-1.json"), "-f", "json"])
    #expect(!without.standardOutput.contains(#""skipped""#))
  }

  @Test("A skipped value is the feed's own JSON value, as Foundation reads both; containers null")
  func skippedValues() async throws {
    let widths = [
      #""wide""#, #""a\"b\n\u00e9""#, "-3", "0", "2.5e-400", "true", "null", #"{"w":1}"#, "[1]",
      #""0""#,
    ]
    // Each refused, then one missing, then one laid out.
    let items =
      widths.map { #"{"img":"i","height":1,"width":\#($0)}"# } + [
        #"{"img":"i","height":1}"#, #"{"img":"i","height":1,"width":1}"#,
      ]
    let feed = #"{"data":["# + items.joined(separator: ",") + "]}"
    let result = await runCLI(["layout", "-", "--skip-invalid", "-f", "json"], input: feed)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let given = try #require(
      try JSONSerialization.jsonObject(with: Data(feed.utf8)) as? [String: [[String: Any]]])
    let skipped = try #require(document["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["index"] as? Int } == Array(0...widths.count))
    for entry in skipped {
      let index = try #require(entry["index"] as? Int)
      let value = given["data"]?[index]["width"]
      let type = entry["type"] as? String
      switch value {
      case let container? where container is [String: Any] || container is [Any]:
        #expect(entry["value"] is NSNull && type == (container is [Any] ? "array" : "object"))
      case nil:
        #expect(entry["value"] is NSNull && type == "missing")
      case let scalar?:
        // The same JSON value, compared as Foundation writes each.
        let written = { (value: Any) in
          String(
            decoding: try JSONSerialization.data(withJSONObject: [value], options: .sortedKeys),
            as: UTF8.self)
        }
        #expect(try written(try #require(entry["value"])) == written(scalar), "item \(index)")
      }
    }
  }

  @Test("A skipped number past a double's range is null: every number written is finite")
  func skippedInfinite() async throws {
    let feed =
      #"[{"img":"i","height":1,"width":1e400},{"img":"i","height":-1e999,"width":1},"#
      + #"{"img":"i","height":1,"width":1}]"#
    let result = await runCLI(["layout", "-", "--skip-invalid", "-f", "jsonl"], input: feed)
    let lines = result.standardOutput.split(separator: "\n").prefix(2).map(String.init)
    #expect(
      lines == [
        #"{"kind":"skipped","index":0,"field":"width","key":"width","type":"number","value":null,"reason":"notFinite","error":null}"#,
        #"{"kind":"skipped","index":1,"field":"height","key":"height","type":"number","value":null,"reason":"notFinite","error":null}"#,
      ])
  }

  @Test("A style without image sizes has no quality object")
  func noQuality() async throws {
    let json = await runCLI(["layout", "--style", "circle", "-f", "json"])
    #expect(!json.standardOutput.contains("quality"))
  }

  @Test("Every item's keys come in the schema's order")
  func itemKeyOrder() throws {
    let lines = String(
      decoding: try written(try report("xr-waterfall.json"), .jsonl), as: UTF8.self
    )
    .split(separator: "\n")
    let keys = [
      "index", "column", "span", "x", "y", "width", "height", "enlarged", "aligned", "img",
    ]
    for line in lines {
      let positions = keys.map { line.range(of: "\"\($0)\":")?.lowerBound }
      #expect(positions.allSatisfy { $0 != nil })
      #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }
  }

  @Test(
    "The numbers read back are exactly the Doubles the layout computed",
    arguments: Fixtures.feedNames)
  func exactNumbers(name: String) throws {
    let configuration = LayoutConfiguration(width: 414, columns: 4, columnSpacing: 7.5, seed: 3)
    let report = try report(name, configuration: configuration)
    let document = try ParsedLayout(json: try written(report, .json))
    #expect(document.elements == report.layout.elements)
    #expect(document.contentHeight == report.layout.contentHeight)
    #expect(
      document.configuration
        == LayoutConfiguration(
          width: 414, columns: 4, columnSpacing: 7.5, seed: 3))
  }

  @Test("The layout of no items is valid JSON with an empty item list")
  func emptyLayout() throws {
    let layout = try WaterfallLayout(LayoutConfiguration())
    let sink = BufferSink()
    try LayoutReport(sectioned: SectionedLayout(layout), items: PlacedItems()).write(
      .json, to: sink)
    let document = try ParsedLayout(json: Data(sink.bytes))
    #expect(document.items.isEmpty)
    #expect(document.contentHeight == 20)
    let lines = BufferSink()
    try LayoutReport(sectioned: SectionedLayout(layout), items: PlacedItems()).write(
      .jsonl, to: lines)
    #expect(lines.bytes.isEmpty)
  }

  @Test("Items keep their feed index, page and image URL")
  func feedIndex() throws {
    let items = [
      FeedItem(index: 3, img: "a \"quoted\" url", width: 1, height: 1),
      FeedItem(index: 9, img: "b", width: 2, height: 1),
    ]
    let layout = try WaterfallLayout(LayoutConfiguration(), items: items.map(\.layoutItem))
    let sink = BufferSink()
    var placed = PlacedItems()
    placed.append(FeedItems([items[0]]), page: 1)
    placed.append(FeedItems([items[1]]), page: 4)
    try LayoutReport(sectioned: SectionedLayout(layout), items: placed).write(.json, to: sink)
    let document = try ParsedLayout(json: Data(sink.bytes))
    #expect(document.items.map(\.index) == [3, 9])
    #expect(document.items.map(\.page) == [1, 4])
    #expect(document.items.map(\.img) == ["a \"quoted\" url", "b"])
  }

  @Test("Table columns line up: every cell ends where its header ends")
  func tableAlignment() throws {
    let text = String(decoding: try written(try report("mj-shop-2.json"), .table), as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 52)  // summary, header, 50 rows
    let header = lines[1]
    // Right-aligned numeric columns end at the same offset as their header word.
    for word in ["index", "page", "column", "span", "x", "y", "width", "height"] {
      guard let range = header.range(of: " \(word) ") ?? header.range(of: "\(word) ") else {
        Issue.record("no \(word) in header")
        continue
      }
      let end = header.distance(from: header.startIndex, to: range.upperBound) - 1
      for row in lines[2...] {
        let characters = Array(row)
        #expect(characters[end - 1] != " ", "\(word) column is not aligned in \(row)")
        #expect(characters[end] == " ")
      }
    }
    #expect(lines[2...].allSatisfy { $0.contains("http://") })
  }

  @Test("Ring styles add the centre and the transform before img; other styles do not")
  func ringKeys() throws {
    for style in LayoutStyle.allCases {
      let configuration = LayoutConfiguration(style: style)
      let report = try report("jkr-finderlist-excerpt.json", configuration: configuration)
      let text = String(decoding: try written(report, .jsonl), as: UTF8.self)
      let first = String(text.split(separator: "\n")[0])
      if style.family == .ring {
        #expect(first.contains(#""aligned":false,"center":{"x":"#), "\(style)")
        #expect(first.contains(#""transform":["#))
        #expect(first.contains(#"],"img":"#))
        let transform = report.layout.transforms[0].entries.map(formatNumber).joined(separator: ",")
        #expect(first.contains("\"transform\":[\(transform)]"))
      } else {
        #expect(!first.contains("center") && !first.contains("transform"), "\(style)")
      }
    }
  }

  @Test("A ring style's table names the item size and the viewport")
  func ringTable() throws {
    let report = try report(
      "zx-shopdata.json", configuration: LayoutConfiguration(style: .cube, width: 320))
    let text = String(decoding: try written(report, .table), as: UTF8.self)
    #expect(
      text.hasPrefix(
        "cube layout: 21 items of 260×100 pt in a 320×667 pt viewport, content height 14007.00 pt\n"
      ))
  }

  @Test("Headers and footers are elements of their kind around the items")
  func headerAndFooter() async throws {
    let result = await runCLI([
      "layout", "--feed", Fixtures.path("jkr-finderlist-excerpt.json"), "--header-height", "44",
      "--footer-height", "30", "--format", "json",
    ])
    #expect(result.code == .success)
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    #expect(document.kinds == ["header", "item", "item", "item", "footer"])
    #expect(
      document.bands[0] == ParsedLayout.Band(kind: "header", x: 0, y: 0, width: 375, height: 44))
    // The items start below the header and its top inset; their bottom inset comes before the
    // footer, which ends the content.
    #expect(document.elements[0].frame.y == 54)
    let lowest = document.elements.map(\.frame.maxY).max() ?? 0
    #expect(document.bands[1].y == lowest + 10 && document.bands[1].height == 30)
    #expect(document.contentHeight == document.bands[1].y + 30)
    let tall = await runCLI(["layout", "--min-content-height", "5000", "--format", "json"])
    #expect(try ParsedLayout(json: Data(tall.standardOutput.utf8)).contentHeight == 5000)
  }

  @Test("--rect prints exactly the elements that intersect it", arguments: [0.0, 400, 2000])
  func rect(top: Double) async throws {
    let all = await runCLI(["layout", "--header-height", "60", "--format", "json"])
    let full = try ParsedLayout(json: Data(all.standardOutput.utf8))
    let query = Rect(x: 0, y: top, width: 375, height: 812)
    let some = await runCLI([
      "layout", "--header-height", "60", "--rect", "0,\(formatNumber(top)),375,812", "--format",
      "json",
    ])
    let shown = try ParsedLayout(json: Data(some.standardOutput.utf8))
    let expected = zip(full.items, full.elements).filter { $0.1.frame.intersects(query) }.map(
      \.0.index)
    #expect(shown.items.map(\.index) == expected)
    #expect(!expected.isEmpty)
    #expect(shown.contentHeight == full.contentHeight)
    #expect(shown.bands.map(\.kind) == (top < 60 ? ["header"] : []))
  }

  @Test("A horizontal layout reports its content width")
  func horizontalJSON() async throws {
    let result = await runCLI([
      "layout", "--axis", "horizontal", "--height", "600", "--style", "waterfall", "--format",
      "json",
    ])
    let document = try ParsedLayout(json: Data(result.standardOutput.utf8))
    #expect(result.standardOutput.contains(#""axis":"horizontal","contentWidth":"#))
    #expect(document.contentHeight == 600)
    #expect(document.contentWidth == (document.elements.map(\.frame.maxX).max() ?? 0) + 10)
  }
}

@Suite struct ItemFiguresTests {
  private struct Item: Decodable {
    var index: Int
    var height: Double
    var enlarged: Bool
    var naturalHeight: Double?
    var distortion: Double?
  }

  @Test("json and jsonl items carry their natural height and distortion, as the figures count")
  func figures() async throws {
    let result = await runCLI(["layout", Fixtures.path("mj-shop-1.json"), "-f", "jsonl"])
    let items = try result.standardOutput.split(separator: "\n").map {
      try JSONDecoder().decode(Item.self, from: Data($0.utf8))
    }
    let feed = try Fixtures.feed("mj-shop-1.json").items
    // 375 wide, insets and spacing 10, 3 columns: a column is (375 - 20 - 20) / 3 wide.
    let column = (375.0 - 20 - 20) / 3
    for item in items {
      let size = feed[item.index]
      let oneColumn = column * size.height / size.width
      let natural = item.enlarged ? 2 * oneColumn + 10 : oneColumn
      #expect(isClose(try #require(item.naturalHeight), natural, tolerance: 1e-9 * natural))
      let distortion = abs(item.height - natural) / natural
      #expect(isClose(try #require(item.distortion), distortion > 1e-9 ? distortion : 0))
    }
    let quality = await runCLI(["layout", Fixtures.path("mj-shop-1.json"), "--quality"])
    let largest = items.compactMap(\.distortion).max() ?? -1
    #expect(quality.standardOutput.contains("maxDistortion \(formatNumber(largest))"))
    // Not in a style without item sizes.
    let grid = await runCLI(["layout", "--style", "grid", "-f", "jsonl"])
    #expect(
      !grid.standardOutput.contains("naturalHeight") && !grid.standardOutput.contains("distortion"))
  }
}

@Suite struct ParallelWritingTests {
  /// A layout long enough to be written in chunks side by side, with a header and a footer.
  private func longReport(rect: Rect? = nil) throws -> LayoutReport {
    let count = 2 * LayoutReport.parallelChunk + 1_234
    let configuration = LayoutConfiguration(columns: 3, seed: 11)
    let layout = try WaterfallLayout(
      configuration, items: GeneratedFeeds.items(count: count, seed: 8))
    let sectioned = try SectionedLayout(
      sections: [Section(configuration: configuration, headerHeight: 44, footerHeight: 30)],
      layouts: [layout])
    let items = (0..<count).map { FeedItem(index: $0, img: "u\($0)", width: 1, height: 1) }
    return LayoutReport(
      sectioned: sectioned, items: PlacedItems(FeedItems(items), page: 1), rect: rect)
  }

  @Test(
    "At the largest lengths, offsets and heights every number of every format is finite",
    arguments: [
      [
        "--style", "sphere", "--width", "1e9", "--height", "1e9", "--item-size", "1e9",
        "--offset", "-1e9,1e9",
      ],
      ["--style", "cube", "--height", "1e9", "--item-size", "1e9,1e9", "--offset", "1e9"],
      ["--style", "circle", "--width", "1e9", "--height", "1e9", "--item-size", "1e9"],
      [
        "--width", "1e9", "--columns", "2", "--spacing", "1e8", "--insets", "1e8",
        "--header-height", "1e9", "--footer-height", "1e9", "--min-content-height", "1e9",
      ],
      [
        "--style", "waterfall", "--width", "1e9", "--min-height", "1e9", "--max-height", "1e9",
        "--scale", "1000",
      ],
      ["--style", "grid", "--width", "1e9", "--axis", "horizontal", "--height", "1e9"],
    ])
  func finiteNumbers(arguments: [String]) async throws {
    let feed = arguments.contains("--min-height") ? ["--synthetic", "200"] : ["--synthetic", "20"]
    for format in OutputFormat.allCases {
      let result = await runCLI(["layout"] + feed + arguments + ["--format", format.rawValue])
      #expect(result.code == .success, "\(format): \(result.standardError)")
      let text = result.standardOutput
      // No word of any format spells a non-finite number (the synthetic URLs have none).
      let words = text.split { !$0.isLetter }.map { $0.lowercased() }
      #expect(!words.contains { ["inf", "infinity", "nan"].contains($0) }, "\(format)")
      switch format {
      case .json, .jsonl:
        for line in text.split(separator: "\n") {
          // JSONDecoder refuses a document with a non-finite number; those it reads are finite.
          let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
          #expect(!value.numbers.isEmpty && value.numbers.allSatisfy { $0.isFinite })
        }
      case .table:
        let numbers = text.split { " \n,×:()".contains($0) }.compactMap { Double($0) }
        #expect(numbers.count > 20 && numbers.allSatisfy { $0.isFinite })
      case .svg, .html:
        _ = try XMLDocument(xmlString: text)
      }
    }
  }

  @Test("A feed whose items reach just below the largest extent prints finite numbers")
  func tallestItems() async throws {
    // Each item is 3e297 times as tall as wide: 111.67 · 3e297 ≈ 3.35e299 points, two to a
    // column, just inside 1e300; a third in a column would pass it and is refused.
    let item = #"{"img":"a","width":"1","height":"3e297"}"#
    let six = #"{"data":["# + Array(repeating: item, count: 6).joined(separator: ",") + "]}"
    let result = await runCLI(
      ["layout", "--feed", "-", "--style", "waterfall", "--format", "json"], input: six)
    #expect(result.code == .success, "\(result.standardError)")
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(result.standardOutput.utf8))
    #expect(value.numbers.allSatisfy { $0.isFinite })
    let seven = #"{"data":["# + Array(repeating: item, count: 7).joined(separator: ",") + "]}"
    let refused = await runCLI(
      ["layout", "--feed", "-", "--style", "waterfall", "--format", "json"], input: seven)
    #expect(refused.code == .dataError)
    #expect(refused.standardError.contains("item 6: \"height\" 3e+297 makes it too tall"))
  }

  @Test("Written in chunks side by side, JSON and JSON Lines are byte for byte the one-by-one text")
  func sameBytes() throws {
    let chunked = try longReport()
    // A rectangle holding the whole content takes the one-by-one path.
    let whole = try longReport(rect: Rect(x: -1, y: -1, width: 1e6, height: 1e9))
    for format in [OutputFormat.jsonl, .json] {
      #expect(try written(chunked, format) == written(whole, format), "\(format)")
    }
    let lines = try written(chunked, .jsonl).split(separator: UInt8(ascii: "\n"))
    #expect(lines.count == chunked.sectioned.elementCount)
    let document = try ParsedLayout(json: written(chunked, .json))
    #expect(document.kinds.first == "header" && document.kinds.last == "footer")
    #expect(document.items.map(\.index) == Array(0..<chunked.items.count))
  }

  @Test("A failed write stops every worker: the error comes back once, nothing more is sent")
  func failure() throws {
    let report = try longReport()
    for format in [OutputFormat.jsonl, .json] {
      let sink = FailingSink(code: 32)
      #expect(throws: SystemError(code: 32)) { try report.write(format, to: sink) }
      // The first write fails (JSON's opening, or JSON Lines' first chunk), and no other follows.
      #expect(sink.attempts == 1)
    }
  }
}

@Suite struct FieldsTests {
  @Test(
    "--fields writes exactly the chosen keys of each object, in the format's order, values unchanged",
    arguments: ["json", "jsonl"], ["irregular", "sphere"])
  func chosenKeys(format: String, style: String) async throws {
    var random = SplitMix64(seed: format == "json" ? 1 : 2)
    let all = ElementField.names(for: LayoutStyle(rawValue: style) ?? .irregular)
    // A header, where the style has sections: an element that has only some of the fields.
    let header = style == "irregular" ? ["--header-height", "9"] : []
    let whole = await runCLI(["layout", "--style", style, "-f", "jsonl"] + header)
    let wholeObjects = try whole.standardOutput.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
    for _ in 0..<12 {
      let chosen = all.filter { _ in random.next() % 2 == 0 }
      guard !chosen.isEmpty else { continue }
      let result = await runCLI(
        [
          "layout", "--style", style, "-f", format, "--fields",
          chosen.reversed().joined(separator: ","),
        ]
          + header)
      #expect(result.code == .success, "\(result.standardError)")
      let objects =
        format == "jsonl"
        ? result.standardOutput.split(separator: "\n").map(String.init)
        : try itemTexts(ofDocument: result.standardOutput)
      #expect(objects.count == wholeObjects.count)
      for (text, whole) in zip(objects, wholeObjects) {
        // With a header, each object keeps its kind too.
        let kept = header.isEmpty ? chosen : Array(Set(chosen + ["kind"]))
        let expected = all.filter { kept.contains($0) && whole.keys.contains($0) }
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(Set(object?.keys.map { $0 } ?? []) == Set(expected), "\(text)")
        for key in expected where key != "center" && key != "transform" {
          #expect("\(object?[key] ?? "")" == "\(whole[key] ?? "")", "\(key) in \(text)")
        }
        guard format == "jsonl" else { continue }
        // In the format's order: each key found after the one before.
        let offsets = expected.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(offsets == offsets.sorted() && offsets.count == expected.count, "\(text)")
        #expect(text.hasPrefix("{\"\(expected.first ?? "")\":"), "\(text)")
      }
    }
  }

  /// The item objects of a JSON document, each written again as its own text.
  private func itemTexts(ofDocument text: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let items = object?["items"] as? [[String: Any]] ?? []
    return try items.map {
      String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
    }
  }

  @Test(
    "--fields refuses a name the format does not have, and the pictures",
    arguments: [
      (
        ["-f", "json", "--fields", "flags"],
        "--format json of the irregular style has no such field"
      ),
      (["--fields", "kind"], "--format table of the irregular style has no such field"),
      (["-f", "svg", "--fields", "x"], "--fields does not apply to --format svg"),
      (["-f", "jsonl", "--fields", "center"], "has no such field; its fields are kind, index"),
      (["--fields", "x,,y"], "invalid value 'x,,y' for '--fields'"),
    ])
  func refused(arguments: [String], message: String) async {
    let result = await runCLI(["layout"] + arguments)
    #expect(result.code == .usage && result.standardOutput.isEmpty)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }
}
