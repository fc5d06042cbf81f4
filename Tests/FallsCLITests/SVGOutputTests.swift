import FallsCore
import FallsTestSupport
import Foundation
import FoundationXML
import Testing

@testable import FallsCLI

/// One drawn element of an SVG, read back with Foundation's XML parser.
private struct DrawnElement: Equatable {
  var className: String
  var index: Int?
  var frame: Rect
}

private func svgDocument(_ arguments: [String]) async throws -> XMLDocument {
  let result = await runCLI(["layout", "--format", "svg"] + arguments)
  #expect(result.code == .success, "\(result.standardError)")
  return try XMLDocument(xmlString: result.standardOutput)
}

/// An attribute of `node` as a number (read by XPath: FoundationXML on Linux does not find an
/// unprefixed attribute by name on an element in a default namespace).
private func number(_ node: XMLNode?, _ attribute: String) -> Double? {
  guard let text = try? node?.nodes(forXPath: "@\(attribute)").first?.stringValue else {
    return nil
  }
  return Double(text)
}

private func text(_ node: XMLNode, _ attribute: String) -> String? {
  try? node.nodes(forXPath: "@\(attribute)").first?.stringValue
}

/// The groups under `<g class="elements">`, each with its rectangle.
private func drawnElements(_ document: XMLDocument) throws -> [DrawnElement] {
  let groups = try document.nodes(
    forXPath: "//*[local-name()='g'][@class='elements']/*[local-name()='g']")
  return try groups.map { group in
    let element = try #require(group as? XMLElement)
    let rect = try #require(
      element.elements(forLocalName: "rect", uri: "http://www.w3.org/2000/svg").first)
    return DrawnElement(
      className: text(element, "class") ?? "",
      index: text(element, "data-index").flatMap { Int($0) },
      frame: Rect(
        x: try #require(number(rect, "x")), y: try #require(number(rect, "y")),
        width: try #require(number(rect, "width")), height: try #require(number(rect, "height"))))
  }
}

@Suite struct SVGOutputTests {
  @Test(
    "Every element is a rectangle at exactly its frame, its class telling plain, enlarged, aligned and how far from its natural height apart",
    arguments: [
      [], ["--columns", "4", "--seed", "9"], ["--style", "waterfall"], ["--axis", "horizontal"],
      ["--align", "spread"], ["--align", "spread", "--flat-end", "--seed", "3"],
    ])
  func rectangles(arguments: [String]) async throws {
    let feed = ["--feed", Fixtures.path("mj-shop-1.json")]
    let sizes = try Fixtures.feed("mj-shop-1.json").items
    let json = await runCLI(["layout", "--format", "json"] + feed + arguments)
    let expected = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let drawn = try drawnElements(try await svgDocument(feed + arguments))
    let vertical = !arguments.contains("horizontal")
    #expect(drawn.count == expected.items.count)
    var bands = Set<String>()
    for (shape, item) in zip(drawn, expected.items) {
      // The distortion worked out here: the image at the frame's width (an enlarged item two
      // rows' worth, 2h + 10), against the frame's height (or, rotated, widths and heights).
      let size = sizes[item.index]
      let (across, along) = vertical ? (item.width, item.height) : (item.height, item.width)
      let ratio = vertical ? size.height / size.width : size.width / size.height
      let natural = item.enlarged ? 2 * ((across - 10) / 2 * ratio) + 10 : across * ratio
      let distortion = abs(along - natural) / natural
      let band =
        distortion <= 1e-9
        ? ""
        : distortion <= 0.025
          ? " d1"
          : distortion <= 0.05
            ? " d2"
            : distortion <= 0.1 ? " d3" : " d4"
      bands.insert(band)
      let kind = item.enlarged ? "item enlarged" : item.aligned ? "item aligned" : "item"
      #expect(shape.className == kind + band && shape.index == item.index, "\(distortion)")
      #expect(shape.frame == Rect(x: item.x, y: item.y, width: item.width, height: item.height))
    }
    // The seed's alignments reach past 10%; spread's never do.
    if arguments.contains("spread") {
      #expect(!bands.contains(" d4"))
    } else if !arguments.contains("waterfall") {
      #expect(bands.contains(" d4"))
    }
  }

  @Test("The picture is the content's size plus the legend; columns and insets are drawn behind")
  func canvas() async throws {
    let document = try await svgDocument(["--columns", "4"])
    let json = await runCLI(["layout", "--format", "json", "--columns", "4"])
    let parsed = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let root = try #require(document.rootElement())
    #expect(number(root, "width") == 375)
    #expect(number(root, "height") == parsed.contentHeight + 2 * LayoutReport.svgLegendRowHeight)
    let guides = try document.nodes(forXPath: "//*[local-name()='rect'][@class='guide']")
    #expect(guides.count == 4)
    #expect(guides.map { number($0, "x") } == (0..<4).map { parsed.configuration.x(ofColumn: $0) })
    let legend = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='legend']//*[local-name()='text']")
    #expect(
      legend.map { $0.stringValue ?? "" } == [
        "item", "enlarged", "aligned", "header, footer", "distortion:", "≤2.5%", "≤5%", "≤10%",
        ">10%",
      ])
    // A ring style's items overlap by design: no columns to draw, no distortion to show.
    let circle = try await svgDocument(["--style", "circle"])
    let circleRoot = try #require(circle.rootElement())
    #expect(number(circleRoot, "height") == 667 + LayoutReport.svgLegendRowHeight)
    #expect(try circle.nodes(forXPath: "//*[local-name()='rect'][@class='guide']").isEmpty)
  }

  @Test("Headers and footers are grey bands at their frames")
  func bands() async throws {
    let arguments = ["--header-height", "44", "--footer-height", "30"]
    let drawn = try drawnElements(try await svgDocument(arguments))
    let json = await runCLI(["layout", "--format", "json"] + arguments)
    let bands = try ParsedLayout(json: Data(json.standardOutput.utf8)).bands
    #expect(drawn.first?.className == "band header" && drawn.last?.className == "band footer")
    #expect(
      drawn.first?.frame
        == Rect(x: bands[0].x, y: bands[0].y, width: bands[0].width, height: bands[0].height))
    #expect(
      drawn.last?.frame
        == Rect(x: bands[1].x, y: bands[1].y, width: bands[1].width, height: bands[1].height))
  }

  @Test(
    "An image URL with markup in it stays text: the document parses and the tooltip reads it back")
  func hostileURL() async throws {
    let img = #"x"><script>alert(1)</script>&amp;'<![CDATA["#
    let feed = #"{"data":[{"img":"# + jsonString(img) + #","width":"1","height":"1"}]}"#
    let result = await runCLI(["layout", "--feed", "-", "--format", "svg"], input: feed)
    #expect(!result.standardOutput.contains("<script"))
    let document = try XMLDocument(xmlString: result.standardOutput)
    let titles = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='elements']//*[local-name()='title']")
    #expect(titles.map { $0.stringValue ?? "" } == ["item 0 (page 1): \(img)"])
  }

  @Test("An image URL with U+FFFE, U+FFFF or a control character still gives well-formed XML")
  func forbiddenCharacters() async throws {
    let feed =
      #"{"data":[{"img":"https://a.example/\ufffe\uffff\u0001.jpg","width":"1","height":"1"}]}"#
    let result = await runCLI(["layout", "--feed", "-", "--format", "svg"], input: feed)
    #expect(result.code == .success)
    let document = try XMLDocument(xmlString: result.standardOutput)
    let titles = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='elements']//*[local-name()='title']")
    #expect(
      titles.map { $0.stringValue ?? "" } == [
        "item 0 (page 1): https://a.example/\u{FFFD}\u{FFFD}\u{FFFD}.jpg"
      ])
  }
}

/// `text` as a JSON string literal, escaped by the writer under test (checked against
/// JSONDecoder in OutputBufferTests).
func jsonString(_ text: String) -> String {
  let sink = BufferSink()
  var out = OutputBuffer(sink: sink)
  out.appendJSONString(text)
  try? out.flush()
  return sink.text
}
