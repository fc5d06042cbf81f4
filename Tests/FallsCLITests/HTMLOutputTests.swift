import FallsCore
import FallsTestSupport
import Foundation
import FoundationXML
import Testing

@testable import FallsCLI

private func htmlDocument(_ arguments: [String], input: String = "") async throws -> (
  XMLDocument, String
) {
  let result = await runCLI(["layout", "--format", "html"] + arguments, input: input)
  #expect(result.code == .success, "\(result.standardError)")
  // The page is well-formed XML as well as HTML, so Foundation's XML parser can read it back.
  return (try XMLDocument(xmlString: result.standardOutput), result.standardOutput)
}

/// The px values of a `style` attribute: "left:10px;top:…" → ["left": 10, …].
private func position(_ style: String) -> [String: Double] {
  var values: [String: Double] = [:]
  for part in style.split(separator: ";") {
    let pair = part.split(separator: ":", maxSplits: 1)
    guard pair.count == 2, pair[1].hasSuffix("px") else { continue }
    values[String(pair[0])] = Double(pair[1].dropLast(2))
  }
  return values
}

private func attribute(_ node: XMLNode, _ name: String) -> String? {
  (node as? XMLElement)?.attribute(forName: name)?.stringValue
}

@Suite struct HTMLOutputTests {
  @Test("Every item is a box at exactly its frame, with its image and its index beneath")
  func boxes() async throws {
    let (document, _) = try await htmlDocument(["--columns", "4"])
    let json = await runCLI(["layout", "--format", "json", "--columns", "4"])
    let expected = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let boxes = try document.nodes(forXPath: "//div[contains(@class,'item')]")
    #expect(boxes.count == expected.items.count)
    for (box, item) in zip(boxes, expected.items) {
      let frame = position(attribute(box, "style") ?? "")
      #expect(frame == ["left": item.x, "top": item.y, "width": item.width, "height": item.height])
      #expect(attribute(box, "data-index") == String(item.index))
      #expect(try box.nodes(forXPath: "img/@src").map { $0.stringValue ?? "" } == [item.img])
      #expect(
        try box.nodes(forXPath: "span[@class='placeholder']").first?.stringValue
          == String(item.index))
      let classes = Set((attribute(box, "class") ?? "").split(separator: " ").map(String.init))
      #expect(
        classes.contains("enlarged") == item.enlarged && classes.contains("aligned") == item.aligned
      )
    }
    let content = try #require(try document.nodes(forXPath: "//div[@class='content']").first)
    #expect(
      position(attribute(content, "style") ?? "") == [
        "width": 375, "height": expected.contentHeight,
      ])
    #expect(
      try document.nodes(forXPath: "//header/p").first?.stringValue?.contains("seed 1") == true)
  }

  @Test("Items off their natural height are outlined by how far, as the header's legend says")
  func distortionOutlines() async throws {
    let (document, text) = try await htmlDocument([])
    let boxes = try document.nodes(forXPath: "//div[contains(@class,'item')]")
    let bands = boxes.map { box in
      (attribute(box, "class") ?? "").split(separator: " ").first { $0.hasPrefix("d") }
    }
    // The seed's alignments reach 19.5% here: some items in each band, all of them aligned.
    #expect(Set(bands.compactMap { $0 }) == ["d1", "d2", "d3", "d4"])
    for (box, band) in zip(boxes, bands) where band != nil {
      #expect((attribute(box, "class") ?? "").contains("aligned"))
    }
    let legend = try #require(try document.nodes(forXPath: "//header/p[@class='legend']").first)
    #expect(legend.stringValue?.contains("≤2.5%≤5%≤10%>10%") == true)
    #expect(text.contains(".item.d4{outline:3px solid #a50f15"))
    // A style without image sizes has no legend.
    let (circle, _) = try await htmlDocument(["--style", "circle"])
    #expect(try circle.nodes(forXPath: "//header/p[@class='legend']").isEmpty)
  }

  static let hostile: [(img: String, loads: Bool)] = [
    (#""><script>alert(1)</script>"#, false),
    ("javascript:alert(1)", false),
    ("JaVaScRiPt:alert(document.cookie)", false),
    (" javascript:alert(1)", false),
    ("java\tscript:alert(1)", false),
    ("vbscript:msgbox(1)", false),
    ("file:///etc/passwd", false),
    ("data:text/html,<script>alert(1)</script>", false),
    (" https://leading.space/x.jpg", false),
    (#"https://ok.example/a.jpg?x="y"&z=<w>' onerror='alert(1)"#, true),
    ("HTTP://OK.EXAMPLE/B.JPG", true),
    ("data:image/png;base64,iVBORw0KGgo=", true),
  ]

  @Test("A hostile feed comes out inert: no script, and only http, https and data:image URLs load")
  func hostileFeed() async throws {
    let items = Self.hostile.map {
      #"{"img":"# + jsonString($0.img) + #","width":"2","height":"3"}"#
    }
    let feed = #"{"data":["# + items.joined(separator: ",") + "]}"
    let (document, text) = try await htmlDocument(["--feed", "-"], input: feed)
    #expect(!text.contains("<script"))
    #expect(try document.nodes(forXPath: "//script").isEmpty)
    // Each image source is the feed's text exactly, read back through the escaping.
    let sources = try document.nodes(forXPath: "//img/@src").map { $0.stringValue ?? "" }
    #expect(sources == Self.hostile.filter(\.loads).map(\.img))
    // The only event handler is the page's own.
    let handlers = try document.nodes(forXPath: "//@*[starts-with(name(),'on')]")
    #expect(
      handlers.map { "\($0.name ?? "")=\($0.stringValue ?? "")" }.allSatisfy {
        $0 == "onerror=this.remove()"
      })
    #expect(handlers.count == sources.count)
    // A blocked URL shows the placeholder, marked, with the URL as inert text in its tooltip.
    let blocked = try document.nodes(forXPath: "//div[contains(@class,'blocked')]")
    #expect(blocked.count == Self.hostile.filter { !$0.loads }.count)
    #expect(blocked.allSatisfy { (try? $0.nodes(forXPath: "img").isEmpty) == true })
    #expect(attribute(blocked[1], "title")?.hasSuffix(": javascript:alert(1)") == true)
  }

  @Test("An image URL with U+FFFE, U+FFFF or a control character still gives well-formed XML")
  func forbiddenCharacters() async throws {
    let feed =
      #"{"data":[{"img":"https://a.example/\ufffe\uffff\u0001.jpg","width":"1","height":"1"}]}"#
    let (document, _) = try await htmlDocument(["--feed", "-"], input: feed)
    let sources = try document.nodes(forXPath: "//img/@src").map { $0.stringValue ?? "" }
    #expect(sources == ["https://a.example/\u{FFFD}\u{FFFD}\u{FFFD}.jpg"])
  }

  @Test(
    "Which URLs may load",
    arguments: [
      ("http://a/b.jpg", true), ("https://a/b.jpg", true), ("HtTpS://a", true),
      ("data:image/gif;x", true),
      ("data:image", false), ("data:text/plain,x", false), ("javascript:x", false), ("", false),
      ("http:/a", false), ("//cdn.example/a.jpg", false), ("\u{0}http://a", false),
    ])
  func loadable(url: String, loads: Bool) {
    var url = url
    #expect(url.withUTF8(isLoadableImage) == loads)
  }
}
