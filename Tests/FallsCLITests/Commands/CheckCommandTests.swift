import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// What `falls check -f json` printed, decoded: a key of another type fails to decode.
private struct CheckDocument: Decodable {
  struct Limit: Decodable, Equatable {
    var op: String
    var value: Double
  }
  struct Check: Decodable {
    var name: String
    var value: Double
    var limit: Limit
    var passed: Bool
  }
  struct Size: Decodable, Equatable {
    var width: Double
    var height: Double
  }
  struct Problem: Decodable {
    var kind: String
    var index: Int?
    var indices: [Int]?
    var rule: String?
    var img: String?
    var status: String?
    var declared: Size?
    var actual: Size?
    var error: String?
    var field: String?
    var value: String?
    var reason: String?
    var check: Check?
  }
  var schema: String
  var passed: Bool
  var checks: [Check]
  var problems: [Problem]
}

@Suite(.tags(.process)) struct CheckCommandTests {
  @Test("Passing checks: status 0, a line each, items > 0 and the rules of the style first")
  func passing() async throws {
    let result = await runCLI([
      "check", Fixtures.path("mj-shop-1.json"), "--limit", "items>=50", "--limit",
      "maxDistortion<0.25",
    ])
    #expect(result.code == .success && result.standardError.isEmpty)
    // The figure as --quality prints it, rounded to four decimals as docs/ci.md shows it.
    let quality = await runCLI(["layout", Fixtures.path("mj-shop-1.json"), "--quality"])
    let figure = try #require(
      quality.standardOutput.split(separator: "\n").first { $0.hasPrefix("maxDistortion ") })
    let value = try #require(Double(figure.dropFirst("maxDistortion ".count)))
    #expect(
      result.standardOutput.split(separator: "\n") == [
        "pass items 50 > 0", "pass insideWidth", "pass noOverlap", "pass noEnlargedSideBySide",
        "pass noEnlargedStacked", "pass items 50 >= 50",
        "pass maxDistortion \(String(format: "%.4f", value)) < 0.25", "passed: 7 checks",
      ])
  }

  @Test(
    "The flags that shape layout's output are refused, not ignored",
    arguments: [["--quality"], ["--fields", "x"], ["--rect", "0,0,100,100"]])
  func outputFlagsRefused(flag: [String]) async {
    let result = await runCLI(["check"] + flag)
    #expect(result.code == .usage && result.standardOutput.isEmpty)
    #expect(
      result.standardError.contains(
        "\(flag[0]) is an option of 'falls layout', not of 'falls check'"))
  }

  @Test("A failing limit: status 1, FAIL on its line, the report whole, stderr says which")
  func failing() async throws {
    let result = await runCLI(["check", "--limit", "maxDistortion<=0.1", "-f", "json"])
    #expect(result.code == .failure)
    #expect(result.standardError == "falls: 1 of 6 checks failed: maxDistortion\n")
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(result.standardOutput.utf8))
    #expect(document.schema == "falls.check/2" && !document.passed)
    let limit = try #require(document.checks.last)
    #expect(limit.name == "maxDistortion" && limit.limit == .init(op: "<=", value: 0.1))
    #expect(!limit.passed)
    // A rule's limit is none of its problems.
    #expect(document.checks.first { $0.name == "insideWidth" }?.limit == .init(op: "<=", value: 0))
    // The failed limit is the one problem, with its check.
    #expect(document.problems.map(\.kind) == ["limit"])
    #expect(document.problems.first?.check?.name == "maxDistortion")
    // Exactly as --quality prints it.
    let quality = await runCLI(["layout", "--quality"])
    #expect(quality.standardOutput.contains("maxDistortion \(formatNumber(limit.value))\n"))
  }

  @Test(
    "skipped, items and contentHeight are figures too",
    arguments: [
      (["--skip-invalid", "--limit", "skipped<=0"], false),
      (["--skip-invalid", "--limit", "skipped>=1"], true),
      (["--skip-invalid", "--limit", "items<1000"], true),
      (["--skip-invalid", "--limit", "contentHeight>1e9"], false),
    ])
  func figures(arguments: [String], passes: Bool) async {
    let result = await runCLI(["check", Fixtures.path("invalid-items.json")] + arguments)
    #expect(result.code == (passes ? .success : .failure), "\(result.standardOutput)")
  }

  @Test("--skip-invalid: a pass says what it skipped, and the document lists each item")
  func skippedListed() async throws {
    // Item 2 of the fixture gives "width": "wide".
    let feed = Fixtures.path("invalid-items.json")
    let table = await runCLI(["check", feed, "--skip-invalid"])
    #expect(table.code == .success)
    #expect(
      table.standardOutput.hasSuffix("passed: 5 checks; skipped 1 item (--skip-invalid)\n"),
      "\(table.standardOutput)")
    let json = await runCLI(["check", feed, "--skip-invalid", "-f", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(document["passed"] as? Bool == true)
    let skipped = try #require(document["skipped"] as? [[String: Any]])
    #expect(skipped.count == 1)
    #expect(skipped.first?["index"] as? Int == 2 && skipped.first?["field"] as? String == "width")
    #expect(skipped.first?["value"] as? String == "wide")
    // Without --skip-invalid there is nothing to list, and no key.
    let plain = await runCLI(["check", Fixtures.path("mj-shop-1.json"), "-f", "json"])
    #expect(!plain.standardOutput.contains(#""skipped""#))
    #expect(
      (await runCLI(["check", Fixtures.path("mj-shop-1.json"), "--skip-invalid"])).standardOutput
        .hasSuffix("passed: 5 checks\n"))
  }

  @Test("--keep-partial: a pass says which page failed, and the document names it")
  func partialPass() async throws {
    let server = try await TestServer()
    let feed = server.url("/failing/3/{page}?size={size}")
    let arguments = ["check", feed, "--pages", "4", "--retries", "0", "--keep-partial"]
    let table = await runCLI(arguments)
    #expect(table.code == .success)
    #expect(
      table.standardOutput.hasSuffix("passed: 5 checks; page 3 of 4 failed (--keep-partial)\n"),
      "\(table.standardOutput)")
    let json = await runCLI(arguments + ["-f", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let failed = try #require(document["failedPage"] as? [String: Any])
    #expect(failed["page"] as? Int == 3 && failed["pages"] as? Int == 4)
    #expect((failed["error"] as? String)?.contains("HTTP 500") == true)
  }

  @Test("No item laid out fails the items > 0 check, always there, in the table and the document")
  func noItem() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let empty = folder.appendingPathComponent("empty.json").path
    try Data(#"{"data": []}"#.utf8).write(to: URL(fileURLWithPath: empty))
    let table = await runCLI(["check", empty])
    #expect(table.code == .failure)
    #expect(table.standardOutput.hasPrefix("FAIL items 0 > 0\n"))
    #expect(table.standardError == "falls: 1 of 5 checks failed: items\n")
    let json = await runCLI(["check", empty, "-f", "json"])
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(json.standardOutput.utf8))
    let items = try #require(document.checks.first)
    #expect(items.name == "items" && items.value == 0 && !items.passed && !document.passed)
  }

  @Test("--skip-invalid that skips every item is 65, whatever the limits say")
  func everyItemSkipped() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let feed = folder.appendingPathComponent("feed.json").path
    try Data(#"{"results": [{"url": "a"}, {"url": "b"}, {"url": "c"}, {"url": "d"}]}"#.utf8)
      .write(to: URL(fileURLWithPath: feed))
    let result = await runCLI([
      "check", feed, "--items", "results", "--skip-invalid", "--limit", "skipped<=10",
    ])
    #expect(result.code == .dataError && result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix(
        "falls: error: no valid item: skipped 4 of 4; the first: item 0: "))
  }

  @Test(
    "What falls check cannot check is the status falls layout would give",
    arguments: [
      (["check", "--limit", "x<1"], ExitCode.usage), (["check", "-f", "svg"], .usage),
      (["check", "--style", "grid", "--limit", "coverage>0"], .usage),
      (["check", Fixtures.path("invalid-items.json")], .dataError),
      (["check", "/nonexistent/feed.json"], .noInput),
      (["check", "http://127.0.0.1:\(refusedPort())/feed.json", "--retries", "0"], .unavailable),
    ])
  func cannotCheck(arguments: [String], code: ExitCode) async {
    let result = await runCLI(arguments)
    #expect(result.code == code)
    #expect(result.standardOutput.isEmpty)
  }

  @Test("--images: every image must be ok, and the problems name each that is not")
  func images() async throws {
    let server = try await TestServer()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let good = folder.appendingPathComponent("good.json").path
    let bad = folder.appendingPathComponent("bad.json").path
    let png = server.url("/image/png-37x23.png")
    try Data(#"[{"img": "\#(png)", "width": 37, "height": 23}]"#.utf8).write(
      to: URL(fileURLWithPath: good))
    try Data(
      #"[{"img": "\#(png)", "width": 37, "height": 23}, {"img": "\#(server.url("/status/404"))", "width": 1, "height": 1}, {"img": "\#(png)", "width": 23, "height": 37}]"#
        .utf8
    ).write(to: URL(fileURLWithPath: bad))
    #expect(await runCLI(["check", good, "--images"]).code == .success)
    let result = await runCLI(["check", bad, "--images", "-f", "json"])
    #expect(result.code == .failure)
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(result.standardOutput.utf8))
    #expect(document.checks.last?.name == "images" && document.checks.last?.value == 2)
    let problem = try #require(document.problems.first)
    #expect(document.problems.count == 2)
    // Item 2 declares the PNG's size turned: its sizes are the feed's and the image's.
    let mismatch = try #require(document.problems.last)
    #expect(mismatch.status == "mismatch" && mismatch.index == 2)
    #expect(mismatch.declared == .init(width: 23, height: 37))
    #expect(mismatch.actual == .init(width: 37, height: 23))
    #expect(problem.kind == "image" && problem.index == 1 && problem.status == "unreachable")
    #expect(problem.img == server.url("/status/404") && problem.error == "HTTP 404 Not Found")
    #expect(problem.declared == .init(width: 1, height: 1) && problem.actual == nil)
    // The table says it in a line.
    let table = await runCLI(["check", bad, "--images"])
    #expect(
      table.standardOutput.contains(
        "  image of item 1 is unreachable: HTTP 404 Not Found (\(server.url("/status/404")))\n"
          + "  image of item 2 is mismatch: declared 23×37, actual 37×23 (\(png))\n"),
      "\(table.standardOutput)")
  }

  @Test("--max-time is one deadline over the feed and its images, not one each")
  func oneMaxTime() async throws {
    let server = try await TestServer()
    // The feed comes after 1.5 s and its image 1.5 s later: each within 2.5 s, both not.
    let feed = server.url("/slow-images/1/1.5?after=1.5")
    let result = await runCLI(
      ["check", feed, "--images", "--max-time", "2.5", "--retries", "0", "-f", "json"])
    #expect(result.code == .failure, "\(result.standardOutput)")
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(result.standardOutput.utf8))
    #expect(
      document.problems.first?.error?.contains("--max-time 2.5 s passed") == true, "\(document)")
  }

  @Test("--images refuses a remote feed's local images, and reads its relative ones")
  func imagesOfARemoteFeed() async throws {
    let server = try await TestServer()
    let relative = await runCLI(["check", server.url("/moved"), "--images", "-f", "json"])
    #expect(relative.code == .success, "\(relative.standardOutput)")
    let local = "file://" + Fixtures.path("images/png-37x23.png")
    let query = local.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let feed = server.url("/items-feed?img=\(query)")
    let refused = await runCLI(["check", feed, "--images", "-f", "json"])
    #expect(refused.code == .failure)
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(refused.standardOutput.utf8))
    #expect(document.problems.first?.status == "refused")
    #expect(document.problems.first?.error?.hasPrefix("it names a file") == true)
    #expect(await runCLI(["check", feed, "--images", "--allow-local-images"]).code == .success)
  }

  @Test("--images counts an item skipped for its image (--sizes, --skip-invalid) as not ok")
  func skippedImagesFail() async throws {
    let server = try await TestServer()
    let query = ["/image/png-37x23.png", "/status/404", "file:///etc/hostname"].map {
      "img=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }.joined(separator: "&")
    let feed = server.url("/items-feed?\(query)")
    let result = await runCLI([
      "check", feed, "--images", "--sizes", "images", "--skip-invalid", "-f", "json",
    ])
    #expect(result.code == .failure, "\(result.standardOutput)")
    let document = try JSONDecoder().decode(
      CheckDocument.self, from: Data(result.standardOutput.utf8))
    #expect(document.checks.last?.name == "images" && document.checks.last?.value == 2)
    #expect(document.problems.count == 2)
    let skipped = try #require(document.problems.first)
    #expect(skipped.kind == "skipped" && skipped.index == 1 && skipped.field == "img")
    #expect(skipped.reason == "imageUnreachable" && skipped.error == "HTTP 404 Not Found")
  }
}
