import FallsBase
import FallsFeed
import Foundation
import Testing

@testable import FallsCLI

/// A layout of JSON Lines whose items have `indices`, in that order; each item's y is its index
/// unless `moved` gives another, and `extra` adds members to every item.
private func layout(_ indices: [Int], moved: [Int: Double] = [:], extra: String = "")
  throws -> LayoutDocument
{
  let lines = indices.map { index in
    #"{"index":\#(index),"x":0,"y":\#(moved[index] ?? Double(index)),"width":10,"height":10"#
      + extra + "}"
  }
  return try LayoutDocument.read(FeedBytes(data: Data(lines.joined(separator: "\n").utf8)))
}

/// What the report writes in `format`.
private func written(_ report: DiffReport, _ format: OutputFormat) throws -> String {
  let sink = BufferSink()
  try report.write(format, to: sink)
  return sink.text
}

@Suite struct DiffReportTests {
  @Test("The table lists the removed, then the added, then the changed; json holds each array")
  func writing() throws {
    let old = try layout([1, 2, 3])
    let new = try layout([2, 3, 4, 0], moved: [3: 30])
    let report = DiffReport(old: old, new: new, tolerance: 0)
    let table = try written(report, .table)
    #expect(
      table == """
        differ: 2 added, 1 removed, 1 changed
        removed item 1 at 0.00, 1.00, 10.00 × 10.00
        added item 0 at 0.00, 0.00, 10.00 × 10.00
        added item 4 at 0.00, 4.00, 10.00 × 10.00
        changed item 3: y 3.00 → 30.00

        """)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(written(report, .json).utf8)) as? [String: Any])
    func indices(_ key: String) -> [Int] {
      (json[key] as? [[String: Any]] ?? []).compactMap { $0["index"] as? Int }
    }
    #expect(indices("added") == [0, 4] && indices("removed") == [1] && indices("changed") == [3])
    let change = try #require((json["changed"] as? [[String: Any]])?.first)
    #expect((change["old"] as? [String: Any])?["y"] as? Double == 3)
    #expect((change["new"] as? [String: Any])?["y"] as? Double == 30)
    #expect(json["same"] as? Bool == false && json["schema"] as? String == "falls.diff/1")
  }

  @Test("The table shows a frame with two decimals, as the layout's table does")
  func twoDecimals() throws {
    let old = try layout([1], moved: [1: 131.66666666666669])
    let report = DiffReport(old: old, new: try layout([1], moved: [1: 2.5]), tolerance: 0)
    let line = try #require(try written(report, .table).split(separator: "\n").last)
    #expect(line == "changed item 1: y 131.67 → 2.50")
  }
}
