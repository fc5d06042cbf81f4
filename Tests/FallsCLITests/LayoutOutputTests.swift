import FallsCore
import FallsFeed
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

private func report(_ name: String, configuration: LayoutConfiguration = LayoutConfiguration())
  throws -> LayoutReport
{
  let items = try Fixtures.feed(name).items
  return LayoutReport(
    layout: try WaterfallLayout(configuration, items: items.map(\.layoutItem)),
    items: items.map { PlacedItem(item: $0, page: 1) })
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
        "contentHeight", "items",
      ])
    #expect(document.schema == "falls.layout/1")
    let text = String(decoding: json, as: UTF8.self)
    #expect(
      text.hasPrefix(
        #"{"schema":"falls.layout/1","style":"irregular","width":375,"columns":3,"columnSpacing":10,"rowSpacing":10,"insets":{"top":10,"left":10,"bottom":10,"right":10},"seed":1,"contentHeight":"#
      ))
    #expect(text.contains(#","items":[{"kind":"item","index":0,"page":1,"column":0,"span":"#))
    #expect(text.hasSuffix("}]}\n"))
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
    try LayoutReport(layout: layout, items: []).write(.json, to: sink)
    let document = try ParsedLayout(json: Data(sink.bytes))
    #expect(document.items.isEmpty)
    #expect(document.contentHeight == 20)
    let lines = BufferSink()
    try LayoutReport(layout: layout, items: []).write(.jsonl, to: lines)
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
    let placed = [PlacedItem(item: items[0], page: 1), PlacedItem(item: items[1], page: 4)]
    try LayoutReport(layout: layout, items: placed).write(.json, to: sink)
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
      if style.isRing {
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
}
