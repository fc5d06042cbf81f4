import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// A feed file of `items` (JSON objects written out), in a folder of its own.
private func feedFile(_ items: [String]) throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "falls-probe-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let path = folder.appendingPathComponent("feed.json").path
  try Data(("{\"data\": [" + items.joined(separator: ",") + "]}").utf8).write(
    to: URL(fileURLWithPath: path))
  return path
}

/// A FIFO in a scratch folder of its own: the folder, to remove, and the FIFO.
private func scratchFIFO() throws -> (folder: String, fifo: String) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("falls-fifo-\(UInt64.random(in: 0 ... .max))").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let fifo = folder + "/image.png"
  guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
  return (folder, fifo)
}

/// The path of the test server's feed whose items' images are `references`.
private func itemsFeed(_ references: [String]) -> String {
  "/items-feed?"
    + references.map {
      "img=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }.joined(separator: "&")
}

/// An item of an image at `img`, with the size the feed gives, if any.
private func item(_ img: String, _ width: Int? = nil, _ height: Int? = nil) -> String {
  let size = width.map { ", \"width\": \"\($0)\", \"height\": \"\(height ?? $0)\"" } ?? ""
  return "{\"img\": \"\(img)\"\(size)}"
}

/// What `falls probe -f json` printed, decoded.
private struct ProbeDocument: Decodable {
  struct Size: Decodable, Equatable {
    var width: Double
    var height: Double
  }
  struct Item: Decodable {
    var index: Int
    var img: String
    var declared: Size?
    var declaredError: String?
    var actual: Size?
    var format: String?
    var orientation: Int?
    var bytes: Int
    var status: String
    var error: String?
  }
  var schema: String
  var feed: String
  var tolerance: Double
  var summary: [String: Int]
  var items: [Item]
}

@Suite(.tags(.process)) struct ProbeCommandTests {
  @Test("Every status, over a real server and from files, in the document and the exit status")
  func statuses() async throws {
    let server = try await TestServer()
    let feed = try feedFile([
      item(server.url("/image/png-37x23.png"), 37, 23),
      item(server.url("/image/jpeg-43x31-orientation6-mm.jpg"), 31, 43),
      item(server.url("/image/jpeg-43x31-orientation6-ii.jpg"), 43, 31),
      item(server.url("/image-whole/gif-17x13.gif")),
      item(server.url("/status/404"), 10, 10),
      item(server.url("/html"), 10, 10),
      item(Fixtures.path("images/webp-lossless-45x33.webp"), 450, 330),
      item("ftp://example.com/x.png", 10, 10),
    ])
    let result = await runCLI(["probe", feed, "-f", "json"])
    #expect(result.code == .failure)
    #expect(
      result.standardError
        == "falls: 5 of 8 images are not ok (1 mismatch, 1 missing, 1 unreachable, "
        + "1 not an image, 1 refused)\n"
    )
    let document = try JSONDecoder().decode(
      ProbeDocument.self, from: Data(result.standardOutput.utf8))
    #expect(
      document.schema == "falls.probe/2" && document.feed == feed && document.tolerance == 0.01)
    #expect(
      document.summary == [
        "images": 8, "ok": 3, "mismatch": 1, "missing": 1, "unreachable": 1, "notAnImage": 1,
        "refused": 1,
      ])
    #expect(
      document.items.map(\.status) == [
        "ok", "ok", "mismatch", "missing", "unreachable", "notAnImage", "ok", "refused",
      ])
    #expect(document.items.map(\.index) == Array(0..<8))
    // Orientation 6 shows the stored 43 × 31 as 31 × 43: the feed that says so is right.
    #expect(document.items[1].actual == ProbeDocument.Size(width: 31, height: 43))
    #expect(document.items[1].orientation == 6 && document.items[1].format == "jpeg")
    #expect(document.items[3].declared == nil && document.items[3].actual?.width == 17)
    #expect(document.items[4].error == "HTTP 404 Not Found" && document.items[4].actual == nil)
    #expect(document.items[5].error == "an HTML page")
    #expect(
      document.items[7].error
        == "its scheme 'ftp' is not one falls reads (http, https, data, file)")
    // How far the header reading looked: PNG's IHDR height ends at 24; a JPEG's frame header
    // width 9 bytes after its marker (at 194 in both orientation-6 fixtures); a GIF's
    // signature takes 12, past its size; WebP VP8L's bits end at 25; nothing for the rest.
    #expect(document.items.map(\.bytes) == [24, 203, 203, 12, 0, 12, 25, 0])
  }

  @Test("The bytes of the header are the same whether the server honours Range or not")
  func bytesWhateverTheServer() async throws {
    let server = try await TestServer()
    let feed = try feedFile(
      ["image-padded", "image-padded-whole", "image-padded", "image-padded-whole"].map {
        item(server.url("/\($0)/40/jpeg-41x29.jpg"), 41, 29)
      })
    let result = await runCLI(["probe", feed, "-f", "json"])
    let document = try JSONDecoder().decode(
      ProbeDocument.self, from: Data(result.standardOutput.utf8))
    // The frame header at 158 + 40 KiB of padding in one segment of 4 bytes of its own, its
    // width's end 9 bytes on.
    #expect(document.items.map(\.bytes) == Array(repeating: 158 + 40 * 1024 + 4 + 9, count: 4))
  }

  @Test("Every key of the document and of JSON Lines has its type: numbers are numbers")
  func keyTypes() async throws {
    let feed = try feedFile([
      item(Fixtures.path("images/png-37x23.png"), 37, 23),
      item(Fixtures.path("images/gif-17x13.gif")),
      "{\"img\": \"\(Fixtures.path("images/bmp-19x11.bmp"))\", \"width\": \"0\", \"height\": 11}",
      item(Fixtures.path("images/not-an-image.txt"), 1, 1),
      item("/nonexistent/x.png", 1, 1),
    ])
    let json = await runCLI(["probe", feed, "-f", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(Set(document.keys) == ["schema", "feed", "tolerance", "summary", "items"])
    #expect(document["schema"] as? String == "falls.probe/2")
    #expect(document["feed"] is String)
    #expect(isNumber(document["tolerance"]))
    let summary = try #require(document["summary"] as? [String: Any])
    #expect(
      Set(summary.keys)
        == ["images", "ok", "mismatch", "missing", "unreachable", "notAnImage", "refused"])
    #expect(summary.values.allSatisfy(isNumber))
    let items = try #require(document["items"] as? [[String: Any]])
    let lines = await runCLI(["probe", feed, "-f", "jsonl"]).standardOutput.split(separator: "\n")
    let objects = try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(items.count == 5 && objects.count == 5)
    for item in items + objects {
      checkItemTypes(item)
    }
    #expect(items.map { $0["declaredError"] != nil } == [false, false, true, false, false])
    #expect(items.map { $0["error"] != nil } == [false, false, false, true, true])
  }

  /// Whether `value` is a JSON number: an NSNumber, but not a Boolean, which Foundation gives
  /// as an NSNumber of type `c` (a JSON number is read as an Int or a Double).
  private func isNumber(_ value: Any?) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) != "c"
  }

  /// Each key of a probed item, of its type; `declaredError` and `error` only when present.
  private func checkItemTypes(_ item: [String: Any]) {
    let keys: Set<String> = [
      "index", "img", "declared", "actual", "format", "orientation", "bytes", "status",
    ]
    #expect(Set(item.keys).subtracting(["declaredError", "error"]) == keys, "\(item.keys)")
    #expect(isNumber(item["index"]) && isNumber(item["bytes"]))
    #expect(item["img"] is String && item["status"] is String)
    for key in ["declared", "actual"] {
      if let size = item[key] as? [String: Any] {
        #expect(Set(size.keys) == ["width", "height"] && size.values.allSatisfy(isNumber))
      } else {
        #expect(item[key] is NSNull, "\(key)")
      }
    }
    #expect(item["format"] is String || item["format"] is NSNull)
    #expect(isNumber(item["orientation"]) || item["orientation"] is NSNull)
    for key in ["declaredError", "error"] where item[key] != nil {
      #expect(item[key] is String, "\(key)")
    }
  }

  @Test("The table ends with the counts; JSON Lines is one object a line; all ok is status 0")
  func formats() async throws {
    let feed = try feedFile([
      item(Fixtures.path("images/png-37x23.png"), 370, 230),
      item(Fixtures.path("images/bmp-19x11.bmp"), 19, 11),
    ])
    let table = await runCLI(["probe", feed])
    #expect(table.code == .success && table.standardError.isEmpty)
    let lines = table.standardOutput.split(separator: "\n")
    #expect(lines.first?.hasPrefix("index  status  declared") == true)
    #expect(lines.last == "2 images: 2 ok")
    let jsonl = await runCLI(["probe", feed, "-f", "jsonl"])
    let objects = jsonl.standardOutput.split(separator: "\n")
    #expect(objects.count == 2)
    for object in objects {
      let decoded = try JSONDecoder().decode(ProbeDocument.Item.self, from: Data(object.utf8))
      #expect(decoded.status == "ok")
    }
  }

  @Test("--tolerance: how far a ratio may be off before the item is a mismatch")
  func tolerance() async throws {
    // 37 × 23 given as 37 × 24: 4.3% off.
    let feed = try feedFile([item(Fixtures.path("images/png-37x23.png"), 37, 24)])
    #expect(await runCLI(["probe", feed]).code == .failure)
    #expect(await runCLI(["probe", feed, "--tolerance", "0.05"]).code == .success)
    #expect(await runCLI(["probe", feed, "--tolerance", "0.04"]).code == .failure)
  }

  @Test("--jobs: many images at once, each result in its item's place")
  func jobs() async throws {
    let server = try await TestServer()
    let names = ["png-37x23.png", "gif-17x13.gif", "bmp-19x11.bmp", "webp-lossy-45x33.webp"]
    let feed = try feedFile((0..<24).map { item(server.url("/image/\(names[$0 % 4])")) })
    for jobs in ["1", "8", "64"] {
      let result = await runCLI(["probe", feed, "-f", "json", "--jobs", jobs])
      let document = try JSONDecoder().decode(
        ProbeDocument.self, from: Data(result.standardOutput.utf8))
      #expect(document.items.map(\.index) == Array(0..<24))
      #expect(
        document.items.map { $0.actual?.width ?? 0 }
          == (0..<24).map { [37.0, 17, 19, 45][$0 % 4] })
    }
  }

  @Test(
    "What falls probe refuses, and a feed it cannot read, as layout's statuses",
    arguments: [
      (["probe", "--columns", "3"], ExitCode.usage),
      (["probe", "-f", "svg"], .usage), (["probe", "--synthetic", "5"], .usage),
      (["probe", "--jobs", "0"], .usage), (["probe", "/nonexistent/feed.json"], .noInput),
    ])
  func refusals(arguments: [String], code: ExitCode) async {
    let result = await runCLI(arguments)
    #expect(result.code == code)
    #expect(result.standardOutput.isEmpty)
  }

  @Test(
    "A refused size is reported on its row, never refusing the feed",
    arguments: [
      (#""width": "0", "height": "23""#, #""width" is "0""#),
      (#""width": 37, "height": "abc""#, #""height" is "abc""#),
      (#""width": 37"#, #""height" is missing"#),
      (#""width": -1"#, #""width" is -1"#),
    ])
  func refusedSizes(size: String, error: String) async throws {
    let png = Fixtures.path("images/png-37x23.png")
    let feed = try feedFile([item(png, 37, 23), "{\"img\": \"\(png)\", \(size)}"])
    let result = await runCLI(["probe", feed, "-f", "json"])
    // Missing, as the feed gave no size: status 1, the report whole.
    #expect(result.code == .failure)
    let document = try JSONDecoder().decode(
      ProbeDocument.self, from: Data(result.standardOutput.utf8))
    #expect(document.items.map(\.status) == ["ok", "missing"])
    #expect(document.items[1].declared == nil)
    #expect(document.items[1].declaredError?.hasPrefix(error + "; expected a positive") == true)
    #expect(document.items[1].actual == ProbeDocument.Size(width: 37, height: 23))
    let table = await runCLI(["probe", feed])
    #expect(table.standardOutput.contains("item 1: declared size refused: \(error); expected"))
  }

  @Test("An item whose img is refused is 65 as in layout, or with --skip-invalid skipped")
  func invalidItems() async throws {
    let feed = try feedFile([
      item(Fixtures.path("images/png-37x23.png"), 37, 23),
      "{\"img\": 5, \"width\": \"0\", \"height\": \"1\"}",
    ])
    let refused = await runCLI(["probe", feed])
    #expect(refused.code == .dataError)
    #expect(refused.standardError.contains("item 1: \"img\" is 5"))
    let skipped = await runCLI(["probe", feed, "--skip-invalid"])
    #expect(skipped.code == .success)
    #expect(skipped.standardError.hasPrefix("falls: skipped item 1: \"img\" is 5"))
    #expect(
      skipped.standardOutput.hasSuffix("1 image: 1 ok; skipped 1 item (--skip-invalid)\n"),
      "\(skipped.standardOutput)")
    // The document lists it, as layout's and check's do; without --skip-invalid no key.
    let json = await runCLI(["probe", feed, "--skip-invalid", "-f", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let list = try #require(document["skipped"] as? [[String: Any]])
    #expect(list.count == 1 && list.first?["index"] as? Int == 1)
    #expect(list.first?["field"] as? String == "img" && list.first?["value"] as? Int == 5)
    #expect(
      list.first?["type"] as? String == "number" && list.first?["reason"] as? String == "notAString"
    )
    let plain = await runCLI([
      "probe", try feedFile([item(Fixtures.path("images/png-37x23.png"), 37, 23)]), "-f", "json",
    ])
    #expect(!plain.standardOutput.contains(#""skipped""#))
  }

  @Test("Feeds of other shapes are probed as they are read")
  func shapes() async throws {
    let path = Fixtures.path("images/gif-17x13.gif")
    let feed = try feedFile([])
    try Data(#"{"r": {"l": [{"u": "\#(path)", "s": {"w": 17, "h": 13}}]}}"#.utf8).write(
      to: URL(fileURLWithPath: feed))
    let result = await runCLI([
      "probe", feed, "--items", "r.l", "--keys", "img=u,width=s.w,height=s.h",
    ])
    #expect(result.code == .success)
    #expect(result.standardOutput.hasSuffix("1 image: 1 ok\n"))
  }

  @Test("On a terminal, standard error counts the images as they are read; -o writes a file")
  func progressAndOutput() async throws {
    let feed = try feedFile([
      item(Fixtures.path("images/png-37x23.png"), 37, 23),
      item(Fixtures.path("images/gif-17x13.gif"), 17, 13),
    ])
    let shown = await runCLI(["probe", feed]) { $0.standardErrorIsTerminal = true }
    #expect(shown.code == .success)
    #expect(shown.standardError.contains("falls: probed 2 of 2 images"))
    // The line is cleared at the end: nothing is left on it.
    #expect(shown.standardError.hasSuffix("\r\u{1B}[K"))
    let quiet = await runCLI(["probe", feed, "-q"]) { $0.standardErrorIsTerminal = true }
    #expect(quiet.standardError.isEmpty)
    let output = feed + ".report.json"
    let written = await runCLI(["probe", feed, "-f", "json", "-o", output])
    #expect(written.code == .success && written.standardOutput.isEmpty)
    let document = try JSONDecoder().decode(
      ProbeDocument.self, from: Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(document.summary["ok"] == 2)
  }

  @Test(
    "Endless bodies at --jobs 1, 8 and 64 each end at 1 MiB, in memory of about 1 MiB a job",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"),
    arguments: [1, 8, 64])
  func endlessBodies(jobs: Int) async throws {
    let server = try await TestServer()
    let base = try await measuredRun(["probe", server.url("/images-feed/0"), "-f", "jsonl"])
    let run = try await measuredRun([
      "probe", server.url("/images-feed/64?path=/image-endless-jpeg"), "--jobs", String(jobs),
      "--timeout", "60", "-f", "jsonl",
    ])
    // Every image read to its cap and found no image: none waited for the deadline.
    #expect(run.status == 1, "\(run.error)")
    #expect(run.error.hasSuffix("64 of 64 images are not ok (64 not an image)\n"), "\(run.error)")
    #expect(run.seconds < 30, "took \(run.seconds) s")
    // Before, eight such images held 1.3 GB and none ended within a minute. Now each image in
    // flight holds its bytes read so far; the constant is the threads' stacks and allocator
    // arenas that more jobs touch, and libcurl's handles.
    let grown = run.peakBytes - base.peakBytes
    #expect(grown < jobs << 20 + 16 << 20, "grew \(grown >> 20) MiB at --jobs \(jobs)")
  }

  @Test("A server cannot end falls: Content-Length no body can have, a Content-Range past Int")
  func serverCannotTrap() async throws {
    let server = try await TestServer()
    for length in ["9223372036854775807", "9223372036854775296", "18446744073709551616"] {
      let layout = try await shell("\"$FALLS\" layout \(server.url("/length/\(length)"))")
      #expect(layout.status == 69, "\(length): \(layout.error)")
      #expect(layout.error.contains("larger than 67108864 bytes"), "\(layout.error)")
      let feed = server.url(itemsFeed([server.url("/length/\(length)")]))
      let probe = try await shell("\"$FALLS\" probe \(shellQuoted(feed)) -f jsonl")
      #expect(probe.status == 1, "\(length): \(probe.error)")
      // Its 43 bytes are JSON: the reader knows that before the lie matters.
      #expect(probe.text.contains(#""status":"notAnImage","error":"JSON text""#), "\(probe.text)")
    }
    let feed = server.url(itemsFeed([server.url("/range-at/9223372036854775800")]))
    let probe = try await shell("\"$FALLS\" probe \(shellQuoted(feed)) -f jsonl")
    #expect(probe.status == 1, "\(probe.error)")
    #expect(probe.text.contains("numbers a file can have"), "\(probe.text)")
  }

  @Test("A remote feed's relative images are its server's, read against where it was fetched")
  func relativeImages() async throws {
    let server = try await TestServer()
    // /moved redirects to /assets/feeds/feed.json, whose four images are written relative to it.
    let result = await runCLI(["probe", server.url("/moved"), "-f", "jsonl"])
    #expect(result.code == .success, "\(result.standardError)")
    #expect(result.standardOutput.split(separator: "\n").count == 4)
    #expect(!result.standardOutput.contains("\"status\":\"unreachable\""))
    let asked = try server.log().filter { $0["method"] == "GET" }.compactMap { $0["path"] }
    #expect(asked.contains("/assets/img/png-37x23.png"))
    #expect(asked.contains("/assets/feeds/img/png-37x23.png"))
    #expect(asked.filter { $0 == "/image/png-37x23.png" }.count == 2)
  }

  @Test("A remote feed cannot make falls read this machine's files, nor wait on a FIFO")
  func remoteFeedReadsNoLocalFile() async throws {
    let server = try await TestServer()
    let (folder, fifo) = try scratchFIFO()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let image = Fixtures.path("images/png-37x23.png")
    let references = [
      "file://\(image)", "FILE://\(image)", "file://localhost\(image)", "file://\(fifo)",
      "file:///etc/passwd", "\(image)\u{0}.jpg",
    ]
    let feed = server.url(itemsFeed(references))
    let result = await runCLI(["probe", feed, "-f", "jsonl", "--timeout", "60"])
    #expect(result.code == .failure)
    let statuses = result.standardOutput.split(separator: "\n").map {
      $0.contains(#""status":"refused""#)
    }
    #expect(statuses == Array(repeating: true, count: references.count), "\(result.standardOutput)")
    // Trusted, the feed's local image is read; the FIFO is still not opened.
    let trusted = await runCLI(
      ["probe", feed, "-f", "jsonl", "--allow-local-images", "--timeout", "60"])
    let lines = trusted.standardOutput.split(separator: "\n")
    #expect(lines.prefix(3).allSatisfy { $0.contains(#""status":"ok""#) }, "\(lines)")
    #expect(lines[3].contains(#""status":"refused""#) && lines[3].contains("a FIFO"))
    #expect(lines[5].contains(#""status":"refused""#) && lines[5].contains("NUL"))
  }

  @Test(
    "A local feed's images are read from files only, never a FIFO, a device or /proc",
    arguments: [
      ("/dev/zero", "a character device"), ("/proc/self/environ", "/proc"),
      ("/tmp", "a directory"), ("/proc/self/status", "/proc"),
    ])
  func localSpecialFiles(path: String, reason: String) async throws {
    let feed = try feedFile([item(path, 1, 1)])
    let result = await runCLI(["probe", feed, "-f", "jsonl"])
    #expect(result.code == .failure)
    #expect(result.standardOutput.contains(#""status":"refused""#), "\(result.standardOutput)")
    #expect(result.standardOutput.contains(reason), "\(result.standardOutput)")
    #expect(result.standardOutput.contains(#""bytes":0"#))
  }

  @Test("A local feed's relative images are read against its folder; HTTP:// is http")
  func localRelativeImages() async throws {
    let server = try await TestServer()
    let upper = server.url("/image/png-37x23.png").replacingOccurrences(
      of: "http://", with: "HTTP://")
    let result = await runCLI(["probe", Fixtures.path("probe-example.json"), "-f", "jsonl"])
    #expect(result.standardOutput.split(separator: "\n").first?.contains(#""status":"ok""#) == true)
    let feed = try feedFile([item(upper, 37, 23)])
    #expect(await runCLI(["probe", feed]).code == .success)
  }

  @Test(
    "strace: probe, check --images and --sizes of a remote feed open none of its local names",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed"
    ))
  func straceShowsNoLocalOpen() async throws {
    let server = try await TestServer()
    let (folder, fifo) = try scratchFIFO()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let redirect = server.url("/redirect-to?location=file%3A%2F%2F%2Fetc%2Fshadow")
    let references = [
      "/etc/passwd", "file:///etc/hostname", "../x", "file://\(fifo)", fifo, redirect,
      "/image/png-37x23.png", "assets/img/png-37x23.png",
    ]
    let feed = shellQuoted(server.url(itemsFeed(references)))
    // Items without sizes, which --sizes fill reads.
    let unsized = shellQuoted(server.url(itemsFeed(references) + "&sized=0"))
    for command in [
      "probe \(feed) -f jsonl", "check \(feed) --images", "layout \(feed) --sizes images",
      "layout \(unsized) --sizes fill",
    ] {
      let trace = folder + "/trace.txt"
      let run = try await shell(
        "strace -f -qq -e trace=open,openat,openat2,stat,newfstatat,statx -o \(trace) "
          + "\"$FALLS\" \(command)", timeout: 60)
      #expect(run.status != 0, "\(command): every image but two is refused or unreachable")
      let opened = try String(contentsOfFile: trace, encoding: .utf8)
      #expect(opened.contains("openat("), "strace traced nothing")
      for local in ["/etc/passwd", "/etc/hostname", "/etc/shadow", fifo, "/x\""] {
        #expect(!opened.contains("\"\(local)"), "\(command) opened or looked at \(local)")
      }
    }
    // The relative images were read from the server, resolved against the feed's URL.
    let asked = try server.log().filter { $0["method"] == "GET" }.compactMap { $0["path"] }
    #expect(asked.contains("/image/png-37x23.png"))
    #expect(asked.contains("/assets/img/png-37x23.png"))
    #expect(asked.contains("/etc/passwd") && asked.contains("/x"))
  }
}
