import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// A feed file of `bytes` in the temporary folder, for one test: its path.
private func scratchFeed(_ bytes: Data) throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "falls-sized-\(UUID().uuidString).json"
  ).path
  try bytes.write(to: URL(fileURLWithPath: path))
  return path
}

/// `mis-sized.json` with each item's size set by `size(position, declared)` (nil: none).
private func resized(_ size: (Int, (Int, Int)?) -> (Int, Int)?) throws -> String {
  let document = try JSONSerialization.jsonObject(with: Fixtures.data("mis-sized.json"))
  guard var root = document as? [String: Any], let items = root["data"] as? [[String: Any]] else {
    throw CocoaError(.fileReadCorruptFile)
  }
  root["data"] = items.enumerated().map { position, item in
    var item = item
    let declared = (item["width"] as? String).flatMap(Int.init).flatMap { width in
      (item["height"] as? String).flatMap(Int.init).map { (width, $0) }
    }
    item["width"] = nil
    item["height"] = nil
    if let (width, height) = size(position, declared) {
      item["width"] = String(width)
      item["height"] = String(height)
    }
    return item
  }
  return try scratchFeed(try JSONSerialization.data(withJSONObject: root))
}

/// `mis-sized.json` with item 1's width set to `width` (a JSON value, as the feed would write
/// it).
private func badWidth(_ width: Any) throws -> String {
  let document = try JSONSerialization.jsonObject(with: Fixtures.data("mis-sized.json"))
  guard var root = document as? [String: Any], var items = root["data"] as? [[String: Any]] else {
    throw CocoaError(.fileReadCorruptFile)
  }
  items[1]["width"] = width
  root["data"] = items
  return try scratchFeed(try JSONSerialization.data(withJSONObject: root))
}

/// The displayed sizes of mis-sized.json's images, in its order (by the fixtures' names: the
/// JPEG is stored 43 × 31 and turned a quarter, orientation 6).
private let shown = [(37, 23), (17, 13), (31, 43), (45, 33), (19, 11)]

@Suite(.tags(.process)) struct FeedPagesTests {
  @Test("--sizes images lays every item out at its image's size, as if the feed gave it")
  func images() async throws {
    let truth = try resized { position, _ in shown[position % 5] }
    let expected = await runCLI(["layout", truth, "-f", "jsonl"])
    let sized = await runCLI([
      "layout", Fixtures.path("mis-sized.json"), "--sizes", "images", "-f", "jsonl",
    ])
    #expect(expected.code == .success && sized.code == .success)
    #expect(sized.standardOutput == expected.standardOutput)
    // Without it, the feed's wrong sizes make another layout, and its missing one is refused.
    #expect(await runCLI(["layout", Fixtures.path("mis-sized.json")]).code == .dataError)
  }

  @Test("--sizes fill reads only the images of the items the feed gives no size")
  func fill() async throws {
    let truth = try resized { position, declared in declared ?? shown[position % 5] }
    let expected = await runCLI(["layout", truth, "-f", "jsonl"])
    let filled = await runCLI([
      "layout", Fixtures.path("mis-sized.json"), "--sizes", "fill", "-f", "jsonl", "--jobs", "2",
    ])
    #expect(filled.code == .success)
    #expect(filled.standardOutput == expected.standardOutput)
  }

  @Test(
    "A declared size that breaks its rule is replaced by --sizes images, filled by --sizes fill",
    arguments: [
      ("0", #""0""#), ("-5", "-5"), ("abc", #""abc""#), ("true", "true"), ("1e999", "1e999"),
    ] as [(String, String)])
  func refusedSizes(value: String, quoted: String) async throws {
    let json: Any =
      switch value {
      case "-5": -5
      case "true": true
      case "1e999": Double.infinity
      default: value
      }
    // Infinity is no JSON value of JSONSerialization's: written as the feed would.
    let feed = try badWidth(json is Double ? "INFINITE" : json)
    if json is Double {
      let text = try String(contentsOfFile: feed, encoding: .utf8)
        .replacingOccurrences(of: #""INFINITE""#, with: "1e999")
      try Data(text.utf8).write(to: URL(fileURLWithPath: feed))
    }
    // Every size replaced: as if the feed gave the images' own.
    let truth = try resized { position, _ in shown[position % 5] }
    let images = await runCLI(["layout", feed, "--sizes", "images", "-f", "jsonl"])
    #expect(images.code == .success && images.standardError.isEmpty)
    #expect(
      images.standardOutput == (await runCLI(["layout", truth, "-f", "jsonl"])).standardOutput)
    // Only the refused one (and the one the fixture leaves out) filled.
    let filledTruth = try resized { position, declared in
      position == 1 ? shown[1] : declared ?? shown[position % 5]
    }
    let fill = await runCLI(["layout", feed, "--sizes", "fill", "-f", "jsonl"])
    #expect(fill.code == .success && fill.standardError.isEmpty)
    #expect(
      fill.standardOutput == (await runCLI(["layout", filledTruth, "-f", "jsonl"])).standardOutput)
    // As the feed gives them, the size is bad data, naming it.
    let feedSizes = await runCLI(["layout", feed])
    #expect(feedSizes.code == .dataError)
    #expect(feedSizes.standardError.hasPrefix("falls: error: feed item 1: \"width\" is \(quoted)"))
  }

  @Test("A refused size whose image cannot be read either: 69 naming the image, or skipped")
  func refusedSizeAndImage() async throws {
    let png = Fixtures.path("images/png-37x23.png")
    let path = try scratchFeed(
      Data(
        #"[{"img": "\#(png)"}, {"img": "/nonexistent/a.png", "width": "0", "height": 1}]"#.utf8))
    for sizes in ["images", "fill"] {
      let refused = await runCLI(["layout", path, "--sizes", sizes])
      // The size was to be replaced (or filled) by the image's: what failed is the image.
      #expect(refused.code == .unavailable && refused.standardOutput.isEmpty)
      #expect(
        refused.standardError.hasPrefix(
          #"falls: error: feed item 1: its image "/nonexistent/a.png" could not be read: "#),
        "\(refused.standardError)")
      let skipped = await runCLI([
        "layout", path, "--sizes", sizes, "--skip-invalid", "-f", "jsonl",
      ])
      #expect(skipped.code == .success)
      // The skipped item's line, then the one item laid out.
      let lines = skipped.standardOutput.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(
        lines.first?.hasPrefix(
          #"{"kind":"skipped","index":1,"field":"img","key":"img","type":"string","value":"/nonexistent/a.png","reason":"imageUnreachable""#
        ) == true, "\(lines.first ?? "")")
      #expect(
        skipped.standardError.hasPrefix("falls: skipped item 1: its image \"/nonexistent/a.png\""))
    }
  }

  @Test("An image named with quotes, backslashes and controls is skipped as valid JSON, quoted")
  func skippedImageQuoted() async throws {
    let png = Fixtures.path("images/png-37x23.png")
    // The first image's name, as JSON writes it: a"b\c, a control character, .png.
    let path = try scratchFeed(
      Data(
        #"[{"img": "a\"b\\c\u0001.png"}, {"img": "\#(png)"}]"#.utf8))
    let result = await runCLI([
      "layout", path, "--sizes", "images", "--skip-invalid", "-f", "jsonl",
    ])
    #expect(result.code == .success)
    let first = try #require(result.standardOutput.split(separator: "\n").first)
    let line = try #require(
      try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
    #expect(line["kind"] as? String == "skipped" && line["value"] as? String == "a\"b\\c\u{1}.png")
    // The message quotes it escaped, as JSON would.
    #expect(result.standardError.contains(#"its image "a\"b\\c\u0001.png" could not be read"#))
  }

  @Test("An image that cannot be read names its item: 69 unreached, 65 not an image, or skipped")
  func failures() async throws {
    let server = try await TestServer()
    func feed(_ middle: String) throws -> String {
      let items = [
        #"{"img": "\#(Fixtures.path("images/png-37x23.png"))", "width": "1", "height": "1"}"#,
        #"{"img": "\#(middle)"}"#,
        #"{"img": "\#(Fixtures.path("images/gif-17x13.gif"))", "width": "1", "height": "1"}"#,
      ]
      return try scratchFeed(Data(("[" + items.joined(separator: ",") + "]").utf8))
    }
    let missing = try feed(server.url("/status/404"))
    let run = await runCLI(["layout", missing, "--sizes", "fill"])
    #expect(run.code == .unavailable && run.standardOutput.isEmpty)
    #expect(
      run.standardError
        == "falls: error: feed item 1: its image \"\(server.url("/status/404"))\" could not be read: "
        + "HTTP 404 Not Found; expected an image falls reads (PNG, JPEG, GIF, WebP, AVIF, HEIC or "
        + "BMP); use --skip-invalid to lay out the other items\n")
    let skipped = await runCLI([
      "layout", missing, "--sizes", "images", "--skip-invalid", "-f", "jsonl",
    ])
    #expect(skipped.code == .success)
    // The skipped item's line, and the item laid out.
    #expect(skipped.standardOutput.split(separator: "\n").count == 3)
    #expect(skipped.standardOutput.hasPrefix(#"{"kind":"skipped","index":1,"field":"img""#))
    #expect(skipped.standardError.hasPrefix("falls: skipped item 1: its image"))
    let page = await runCLI(["layout", try feed(server.url("/html")), "--sizes", "images"])
    #expect(page.code == .dataError)
    #expect(
      page.standardError.contains(
        "feed item 1: its image \"\(server.url("/html"))\" is not an image: an HTML page"))
  }

  @Test(
    "An item too tall or too short to lay out is named by the feed's own key",
    arguments: [("1e-300", "1e-300", "too short"), ("1e299", "1e+299", "too tall")])
  func problemsNameTheFeedsKey(height: String, shown: String, words: String) async {
    let feed = #"{"data": [{"url": "a", "size": {"w": "1", "h": "HEIGHT"}}]}"#
      .replacingOccurrences(of: "HEIGHT", with: height)
    let result = await runCLI(
      ["layout", "-", "--keys", "img=url,width=size.w,height=size.h", "-w", "1e9", "-c", "1"],
      input: feed)
    #expect(result.code == .dataError)
    #expect(result.standardError.contains("\"size.h\" \(shown) makes it \(words) to lay out"))
  }

  @Test("An image that cannot be read for its size is named by the feed's own key")
  func imageProblemNamesTheFeedsKey() async {
    let feed = #"{"data": [{"url": "ftp://h/a.png"}]}"#
    let result = await runCLI(
      ["layout", "-", "--keys", "img=url", "--sizes", "images"], input: feed)
    #expect(result.code == .dataError)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: feed item 0: its image \"ftp://h/a.png\" was not read: its scheme 'ftp'"))
  }
}
