import FallsCore
import FallsFixtures
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
    "Every label reads on its item's fill: contrast at least 4.5:1 (WCAG AA), bands and all")
  func labelContrast() async throws {
    // The style sheet holds every band's rules, whatever the items' distortions.
    let result = await runCLI(["layout", "--format", "svg", "--synthetic", "40"])
    #expect(result.code == .success, "\(result.standardError)")
    let style = try #require(
      result.standardOutput.firstMatch(of: #/<style>([\s\S]*?)</style>/#)?.1)
    // Each rule's selector and its fill, as the style sheet gives them.
    var fills: [String: String] = [:]
    for rule in style.matches(of: #/([^{}\n]+)\{[^}]*?fill:(#[0-9a-f]{6})/#) {
      for selector in rule.1.split(separator: ",") { fills[String(selector)] = String(rule.2) }
    }
    let text = try #require(fills["text"])
    let itemFills = fills.filter { $0.key.hasPrefix(".item") && $0.key.hasSuffix(" rect") }
    #expect(itemFills.count >= 3 + DistortionBand.distorted.count)
    for (selector, fill) in itemFills {
      let classes = selector.dropLast(" rect".count)
      let label = fills[classes + " text"] ?? text
      #expect(Contrast.ratio(label, fill) >= Contrast.minimumRatio, "\(selector): \(label)")
    }
    #expect(Contrast.ratio(text, try #require(fills[".band rect"])) >= Contrast.minimumRatio)
  }

  @Test(
    "Every element is a rectangle at exactly its frame, its class telling plain, enlarged, aligned and how far from its natural height apart",
    arguments: [
      [], ["--columns", "4", "--seed", "9"], ["--style", "waterfall"], ["--axis", "horizontal"],
      ["--align", "spread"], ["--align", "spread", "--flat-end", "--seed", "3"],
      ["--align", "planned"],
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
    var enlargedBands = 0
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
      // One mark an item: its distortion's band (an enlarged item's after "enlarged"), or
      // enlarged, or aligned, or none.
      let kind =
        item.enlarged
        ? "item enlarged" + band
        : !band.isEmpty ? "item" + band : item.aligned ? "item aligned" : "item"
      if item.enlarged, !band.isEmpty { enlargedBands += 1 }
      #expect(shape.className == kind && shape.index == item.index, "\(distortion)")
      #expect(shape.frame == Rect(x: item.x, y: item.y, width: item.width, height: item.height))
    }
    // Only planned levels enlarged items (mj-shop-1, seed 1: two of them, by 1.2%).
    #expect((enlargedBands > 0) == arguments.contains("planned"))
    // The seed's alignments reach past 10%; spread's and planned's never do.
    if arguments.contains("spread") || arguments.contains("planned") {
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
    // What the picture uses: no aligned item at its natural height, no header or footer here,
    // and the bands of the items drawn.
    let drawnBands = Set(
      try drawnElements(document).compactMap { $0.className.split(separator: " ").last }
        .filter { $0.hasPrefix("d") }.map(String.init))
    let labels = ["d1": "≤2.5%", "d2": "≤5%", "d3": "≤10%", "d4": ">10%"]
    #expect(drawnBands.count >= 2)
    let usedLabels: [String] = ["d1", "d2", "d3", "d4"].filter { drawnBands.contains($0) }
      .compactMap { labels[$0] }
    let expectedLegend: [String] = ["item", "enlarged", "distortion:"] + usedLabels
    #expect(legend.map { $0.stringValue ?? "" } == expectedLegend)
    // A ring style's items overlap by design: no columns to draw, no distortion to show.
    let circle = try await svgDocument(["--style", "circle"])
    let circleRoot = try #require(circle.rootElement())
    #expect(number(circleRoot, "height") == 667 + LayoutReport.svgLegendRowHeight)
    #expect(try circle.nodes(forXPath: "//*[local-name()='rect'][@class='guide']").isEmpty)
  }

  @Test(
    "The ring styles draw the viewport: each item the polygon its corners make through its transform, farthest first, a face turned away faint",
    arguments: [
      ["--style", "cube"], ["--style", "cube", "--offset", "300"], ["--style", "sphere"],
      ["--style", "sphere", "--offset", "40,700"], ["--style", "circle"],
      ["--style", "cube", "--item-size", "60", "--height", "300"],
    ])
  func ringPolygons(arguments: [String]) async throws {
    let document = try await svgDocument(arguments)
    let json = await runCLI(["layout", "--format", "json"] + arguments)
    struct Ring: Decodable {
      struct Item: Decodable {
        struct Center: Decodable { var x, y: Double }
        var index: Int
        var width, height: Double
        var center: Center
        var transform: [Double]
      }
      var items: [Item]
    }
    let ring = try JSONDecoder().decode(Ring.self, from: Data(json.standardOutput.utf8))
    let height = arguments.contains("300") && arguments.contains("--height") ? 300.0 : 667
    var origin = (x: 0.0, y: 0.0)
    if let at = arguments.firstIndex(of: "--offset") {
      let values = arguments[at + 1].split(separator: ",").compactMap { Double($0) }
      origin = values.count == 2 ? (values[0], values[1]) : (0, values[0])
    }
    // Worked out here: [x y 0 1] · M, divided by w, from the centre, on the viewport.
    struct Face {
      var index: Int
      var corners: [(Double, Double)]
      var depth: Double
      var isBack: Bool
    }
    var faces: [Face] = []
    for item in ring.items {
      let m = item.transform
      var corners: [(Double, Double)] = []
      for (x, y) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
        let (px, py) = (x * item.width / 2, y * item.height / 2)
        let w = px * m[3] + py * m[7] + m[15]
        corners.append(
          (
            item.center.x + (px * m[0] + py * m[4] + m[12]) / w - origin.x,
            item.center.y + (px * m[1] + py * m[5] + m[13]) / w - origin.y
          ))
      }
      var area = 0.0
      for i in 0..<4 {
        let (a, b) = (corners[i], corners[(i + 1) % 4])
        area += a.0 * b.1 - b.0 * a.1
      }
      faces.append(
        Face(index: item.index, corners: corners, depth: m[14] / m[15], isBack: area < 0))
    }
    faces.sort { ($0.depth, $0.index) < ($1.depth, $1.index) }
    let groups = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='elements']/*[local-name()='g']")
    #expect(groups.count == faces.count)
    for (group, face) in zip(groups, faces) {
      #expect(text(group, "data-index") == String(face.index))
      #expect(text(group, "class") == (face.isBack ? "item back" : "item"))
      let points = try #require(
        try group.nodes(forXPath: "*[local-name()='polygon']/@points").first?.stringValue)
      let drawn = points.split(separator: " ").map {
        $0.split(separator: ",").compactMap { Double($0) }
      }
      #expect(drawn.count == 4)
      for (corner, expected) in zip(drawn, face.corners) {
        #expect(abs(corner[0] - expected.0) < 1e-6 && abs(corner[1] - expected.1) < 1e-6)
      }
    }
    // The viewport's size, and a legend of what it uses.
    let root = try #require(document.rootElement())
    #expect(number(root, "width") == 375)
    #expect(number(root, "height") == height + LayoutReport.svgLegendRowHeight)
    let legend = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='legend']//*[local-name()='text']")
    #expect(
      legend.map { $0.stringValue ?? "" }
        == (faces.contains { $0.isBack } ? ["item", "turned away"] : ["item"]))
    if arguments.contains("sphere") { #expect(faces.contains { $0.isBack }) }
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
