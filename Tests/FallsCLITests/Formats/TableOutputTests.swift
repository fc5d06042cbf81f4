import FallsBase
import FallsCore
import FallsFixtures
import Foundation
import Testing

@testable import FallsCLI

@Suite struct TableOutputTests {
  @Test(
    "On a terminal no line is wider than it: the summary wraps, the columns that say least give way, the img column keeps its file name",
    arguments: [40, 80, 100, 120], ["jkr-gz-1plist-urldims.json", "wide-urls.json"])
  func fitsTheTerminal(columns: Int, fixture: String) async throws {
    let result = await runCLI(["layout", "--feed", Fixtures.path(fixture)]) {
      $0.standardOutputColumns = columns
    }
    let lines = result.standardOutput.split(separator: "\n")
    for line in lines { #expect(displayWidth(line) <= columns, "\(line)") }
    let header = try #require(lines.firstIndex { $0.hasPrefix("index") })
    #expect(lines[header].hasSuffix("img"))
    let rows = lines[(header + 1)...]
    let feed = try Fixtures.feed(fixture)
    #expect(rows.count == feed.items.count)
    for (row, item) in zip(rows, feed.items) {
      let img = row.split(separator: " ").last ?? ""
      // The start of the URL, and the end of its file name.
      #expect(img.hasPrefix("ht") && img.hasSuffix(item.img.suffix(4)), "\(img)")
    }
    // What gave way is said; piped, every column is there.
    let shown = Set(lines[header].split(separator: " ").map(String.init))
    let hidden = LayoutReport.TableField.fields(for: .irregular).map(\.rawValue).filter {
      !shown.contains($0)
    }
    #expect(!hidden.contains("index") && !hidden.contains("img"))
    if !hidden.isEmpty {
      #expect(
        result.standardOutput.replacingOccurrences(of: "\n", with: " ").contains(
          "hidden to fit \(columns) columns"))
    }
  }

  @Test(
    "A URL of 200,000 characters is shortened on a terminal from its two ends, and piped written whole and escaped"
  )
  func longURL() async {
    let url = "https://a.example/\u{202E}" + String(repeating: "瀑", count: 200_000) + "/end.jpg"
    let feed = #"{"data":[{"img":""# + url + #"","width":1,"height":1}]}"#
    let shown = await runCLI(["layout", "-"], input: feed) { $0.standardOutputColumns = 200 }
    // The row after the header (the summary may wrap to the terminal's width).
    let lines = shown.standardOutput.split(separator: "\n")
    let header = lines.firstIndex { $0.hasPrefix("index ") } ?? lines.endIndex
    let row = lines.dropFirst(header + 1).first ?? ""
    #expect(displayWidth(row) <= 200 && displayWidth(row) >= 199, "\(row)")
    #expect(row.contains("https://a.example/\\u202e瀑") && row.hasSuffix("瀑/end.jpg"), "\(row)")
    let piped = await runCLI(["layout", "-"], input: feed)
    #expect(
      piped.standardOutput.contains(
        "https://a.example/\\u202e" + String(repeating: "瀑", count: 200_000) + "/end.jpg\n"))
  }

  @Test("Piped, the table keeps every URL whole")
  func pipedIsWhole() async throws {
    let result = await runCLI(["layout"])
    let feed = try Fixtures.feed("jkr-gz-1plist-urldims.json")
    for item in feed.items { #expect(result.standardOutput.contains(item.img + "\n")) }
    #expect(!result.standardOutput.contains("…"))
  }

  @Test(
    "A text is shortened in the middle to exactly the width, with one ellipsis",
    arguments: [
      ("http://s13.mogujie.cn/b7/bao/x_200x999.jpg", 20, "http:/…x_200x999.jpg"),
      ("abcdef", 6, "abcdef"), ("abcdef", 5, "a…def"), ("abcdef", 2, "…f"), ("abc", 1, "a"),
      ("瀑布流瀑布流.jpg", 9, "瀑…流.jpg"), ("https://x.example/瀑布.jpg", 12, "htt…瀑布.jpg"),
    ])
  func shortened(text: String, width: Int, expected: String) {
    #expect(LayoutReport.shortened(text, to: width) == expected)
    #expect(displayWidth(LayoutReport.shortened(text, to: width)) <= width)
  }

  @Test("Cube and sphere rows differ: each item's angle and translation, worked from the transform")
  func turningStyles() async throws {
    for style in ["cube", "sphere"] {
      let table = await runCLI(["layout", "--style", style])
      let json = await runCLI(["layout", "--style", style, "-f", "json"])
      let document = try JSONDecoder().decode(
        TransformDocument.self, from: Data(json.standardOutput.utf8))
      let rows = table.standardOutput.split(separator: "\n").dropFirst(2).map {
        $0.split(separator: " ")
      }
      #expect(Set(rows.map { $0[2] + " " + $0[5] }).count > 10, "rows alike: \(style)")
      for (row, item) in zip(rows, document.items) {
        let m = item.transform
        // The turn's angle from the rotation's trace, by hand; the translation is row 4.
        let cosine = min(max((m[0] + m[5] + m[10] - 1) / 2, -1), 1)
        #expect(String(row[2]) == formatFixed(acos(cosine) * 180 / .pi))
        #expect(row[3...5].map(String.init) == [m[12], m[13], m[14]].map { formatFixed($0) })
      }
    }
  }

  @Test(
    "--fields chooses the table's columns, in the table's order",
    arguments: [
      (["index", "x", "y", "height"], "index       x        y  height"),
      (["height", "index"], "index  height"), (["img", "flags"], "flags     img"),
    ])
  func fields(names: [String], header: String) async {
    let result = await runCLI(["layout", "--fields", names.joined(separator: ",")])
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 52)
    #expect(lines[1] == header)
  }

  @Test(
    "Items 10^290 tall in a column 10^9 wide: every format prints finite figures",
    arguments: [["-f", "table"], ["-f", "json"], ["--quality"], ["--quality", "-f", "json"]])
  func figuresOfTallItems(format: [String]) async {
    let feed =
      #"{"data":[{"img":"a","width":1,"height":1e290},{"img":"b","width":1,"height":1e290}]}"#
    let result = await runCLI(["layout", "-", "-w", "1e9", "-c", "1"] + format, input: feed)
    #expect(result.code == .success, "\(result.standardError)")
    for word in ["nan", "inf"] { #expect(!result.standardOutput.lowercased().contains(word)) }
    #expect(
      result.standardOutput.contains("coverage 100.0%")
        || result.standardOutput.contains("coverage 1")
        || result.standardOutput.contains(#""coverage":1"#), "\(result.standardOutput)")
  }
}

private struct TransformDocument: Decodable {
  struct Item: Decodable {
    var transform: [Double]
  }
  var items: [Item]
}
