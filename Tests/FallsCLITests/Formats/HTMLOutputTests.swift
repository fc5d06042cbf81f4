import FallsCore
import FallsFixtures
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

@Suite(.tags(.process)) struct HTMLOutputTests {
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
      // One mark an item: enlarged, or the band of its distortion, or aligned (at its natural
      // height), or none.
      let classes = Set((attribute(box, "class") ?? "").split(separator: " ").map(String.init))
      let banded = classes.contains { $0.hasPrefix("d") }
      #expect(classes.contains("enlarged") == item.enlarged)
      #expect(item.aligned == (classes.contains("aligned") || banded))
      #expect(
        [classes.contains("enlarged"), classes.contains("aligned"), banded].count { $0 } <= 1)
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
    let json = await runCLI(["layout", "--format", "json"])
    let expected = try ParsedLayout(json: Data(json.standardOutput.utf8))
    let boxes = try document.nodes(forXPath: "//div[contains(@class,'item')]")
    let bands = boxes.map { box in
      (attribute(box, "class") ?? "").split(separator: " ").first { $0.hasPrefix("d") }
    }
    // The seed's alignments reach 19.5% here: some items in each band, all of them aligned.
    #expect(Set(bands.compactMap { $0 }) == ["d1", "d2", "d3", "d4"])
    for (item, band) in zip(expected.items, bands) where band != nil { #expect(item.aligned) }
    // The legend lists what the page uses: enlarged items and the four bands (every aligned item
    // here is distorted, so no aligned outline is drawn).
    let legend = try #require(try document.nodes(forXPath: "//header/p[@class='legend']").first)
    #expect(
      legend.stringValue
        == "outlined:enlarged · distortion (height against natural):≤2.5%≤5%≤10%>10%")
    // Outlines are drawn over the item, where its image, once loaded, cannot cover them.
    #expect(text.contains(".item.d4::after{border:3px solid #a50f15}"))
    #expect(text.contains(".item::after{content:\"\";position:absolute;"))
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

  @Test(
    "With its images loaded, the page still shows every marking its legend promises, over the images",
    .enabled(if: chromiumPath != nil, "Chromium is not installed"))
  func markingsOverLoadedImages() async throws {
    let feed = Fixtures.path("loaded-images.json")
    let page = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-loaded-\(UInt64.random(in: 0 ... .max)).html")
    defer { try? FileManager.default.removeItem(at: page) }
    let written = await runCLI(["layout", feed, "-f", "html", "-o", page.path])
    #expect(written.code == .success, "\(written.standardError)")
    let document = try XMLDocument(contentsOf: page)
    let json = await runCLI(["layout", feed, "-f", "json"])
    let layout = try ParsedLayout(json: Data(json.standardOutput.utf8))
    // The whole page in the window: every image loads.
    let shot = try await Screenshot.of(
      page, width: 420, height: Int(layout.contentHeight) + 300)
    // Each mark's outline, by its colour and width, as the page's CSS draws it: a ring inside
    // the item's box. The legend's swatch of each adds a little.
    let outlines: [String: (colour: String, width: Double)] = [
      "enlarged": ("#ff9500", 2), "aligned": ("#34c759", 2), "d1": ("#fee0d2", 3),
      "d2": ("#fcbba1", 3), "d3": ("#fb6a4a", 3), "d4": ("#a50f15", 3),
    ]
    var expected: [String: Double] = [:]
    for box in try document.nodes(forXPath: "//div[contains(@class,'item')]") {
      let classes = (attribute(box, "class") ?? "").split(separator: " ").map(String.init)
      guard let mark = classes.first(where: { outlines[$0] != nil }),
        let width = outlines[mark]?.width
      else { continue }
      let frame = position(attribute(box, "style") ?? "")
      let (w, h) = ((frame["width"] ?? 0).rounded(), (frame["height"] ?? 0).rounded())
      expected[mark, default: 0] += 2 * width * (w + h) - 4 * width * width
    }
    #expect(expected["enlarged"] ?? 0 > 1000, "the fixture has enlarged items")
    for (mark, (colour, _)) in outlines {
      let seen = Double(shot.count(of: colour, tolerance: 6))
      if let area = expected[mark] {
        #expect(seen >= 0.8 * area, "\(mark): \(seen) pixels of \(colour), \(area) drawn")
      } else {
        #expect(seen < 40, "\(mark) is not used, yet \(seen) pixels of \(colour) show")
      }
    }
  }

  @Test(
    "The ring styles show the viewport at the offset, each item turned by its transform as matrix3d",
    arguments: [
      ["--style", "cube"], ["--style", "cube", "--offset", "300"], ["--style", "sphere"],
      ["--style", "sphere", "--offset", "40,700"], ["--style", "circle"],
    ])
  func ringTransforms(arguments: [String]) async throws {
    let feed = Fixtures.path("loaded-images.json")
    let (document, text) = try await htmlDocument([feed] + arguments)
    let json = await runCLI(["layout", feed, "-f", "json"] + arguments)
    let ring = try JSONDecoder().decode(RingDocument.self, from: Data(json.standardOutput.utf8))
    let origin = arguments.contains("circle") ? (x: 0.0, y: 0.0) : ring.offset(arguments)
    let content = try #require(try document.nodes(forXPath: "//div[@class='content ring']").first)
    #expect(position(attribute(content, "style") ?? "") == ["width": 375, "height": 667])
    #expect(!text.contains("preserve-3d"))
    let boxes = try document.nodes(forXPath: "//div[contains(@class,'item')]")
    #expect(boxes.count <= ring.items.count && boxes.count > ring.items.count / 2)
    for box in boxes {
      let index = try #require(Int(attribute(box, "data-index") ?? ""))
      let item = ring.items[index]
      let style = attribute(box, "style") ?? ""
      #expect(
        position(style) == [
          "left": item.x - origin.x, "top": item.y - origin.y, "width": item.width,
          "height": item.height,
        ])
      let matrix = style.split(separator: "matrix3d(").last?.split(separator: ")").first ?? ""
      #expect(matrix.split(separator: ",").compactMap { Double($0) } == item.transform)
    }
  }

  @Test(
    "In Chromium, the item nearest the eye shows its own image at its centre",
    .enabled(if: chromiumPath != nil, "Chromium is not installed"),
    arguments: [
      ["--style", "cube"], ["--style", "sphere", "--offset", "0,300"], ["--style", "circle"],
    ])
  func ringScreenshot(arguments: [String]) async throws {
    let feed = Fixtures.path("loaded-images.json")
    let page = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-ring-\(UInt64.random(in: 0 ... .max)).html")
    defer { try? FileManager.default.removeItem(at: page) }
    _ = await runCLI(["layout", feed, "-f", "html", "-o", page.path] + arguments)
    let json = await runCLI(["layout", feed, "-f", "json"] + arguments)
    let ring = try JSONDecoder().decode(RingDocument.self, from: Data(json.standardOutput.utf8))
    // The nearest face, worked out here: each centre through its transform, w and depth.
    // Painted farthest first, in feed order on a tie: the last of the nearest is on top.
    var depths: [(index: Int, depth: Double)] = []
    for (index, item) in ring.items.enumerated() {
      depths.append((index, item.transform[14] / item.transform[15]))
    }
    let nearest = try #require(
      depths.max { ($0.depth, $0.index) < ($1.depth, $1.index) })
    let item = ring.items[nearest.index]
    let m = item.transform
    let origin = arguments.contains("circle") ? (x: 0.0, y: 0.0) : ring.offset(arguments)
    let center = (
      x: item.center.x + m[12] / m[15] - origin.x, y: item.center.y + m[13] / m[15] - origin.y
    )
    let shot = try await Screenshot.of(page, width: 420, height: 900)
    // The content box: the first white below the grey page, in the middle column.
    var top = 0
    var seenPage = false
    for y in 0..<shot.height {
      let pixel = shot.pixel(x: shot.width / 2, y: y)
      if pixel == (242, 242, 247) { seenPage = true }
      if seenPage, pixel == (255, 255, 255) || pixel.blue > pixel.green + 40 {
        top = y
        break
      }
    }
    let left = Double(shot.width - 375) / 2
    let pixel = shot.pixel(x: Int(left + center.x), y: top + Int(center.y))
    // The fixture's item i is the colour (30 + 6i, 30, 120 + 4i).
    let index = nearest.index
    #expect(
      abs(pixel.red - (30 + 6 * index)) <= 6 && abs(pixel.green - 30) <= 6
        && abs(pixel.blue - (120 + 4 * index)) <= 6,
      "item \(index) at \(center), top \(top): \(pixel)")
  }
}

/// A ring style's JSON document: each item's frame, centre and transform.
private struct RingDocument: Decodable {
  struct Item: Decodable {
    struct Center: Decodable {
      var x: Double
      var y: Double
    }
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var center: Center
    var transform: [Double]
  }
  var items: [Item]

  /// The viewport's origin for `--offset` in `arguments` (Y, or X,Y).
  func offset(_ arguments: [String]) -> (x: Double, y: Double) {
    guard let position = arguments.firstIndex(of: "--offset") else { return (0, 0) }
    let values = arguments[position + 1].split(separator: ",").compactMap { Double($0) }
    return values.count == 2 ? (values[0], values[1]) : (0, values.first ?? 0)
  }
}
