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
  @Test(
    "Items are matched by index in one walk: a ladder of cases, and any order",
    arguments: [
      ([], [], (added: 0, removed: 0, common: 0)),
      ([1], [], (0, 1, 0)),
      ([], [1], (1, 0, 0)),
      ([1], [1], (0, 0, 1)),
      ([1, 2], [2, 3], (1, 1, 1)),
      ([1, 2, 3], [2, 3, 4], (1, 1, 2)),
      ([3, 1, 2], [1, 2, 3], (0, 0, 3)),
      ([9, 5, 7], [8, 7, 6, 5], (2, 1, 2)),
    ] as [([Int], [Int], (added: Int, removed: Int, common: Int))])
  func walk(old: [Int], new: [Int], counts: (added: Int, removed: Int, common: Int)) throws {
    let report = DiffReport(old: try layout(old), new: try layout(new), tolerance: 0)
    #expect(report.added == counts.added && report.removed == counts.removed)
    #expect(report.common == counts.common && report.changed == 0)
    #expect(report.isSame == (counts.added == 0 && counts.removed == 0))
    // Each walked once, in index order.
    var seen: [Int] = []
    let (before, after) = (try layout(old), try layout(new))
    DiffReport(old: before, new: after, tolerance: 0).walk { step in
      switch step {
      case .removed(let position): seen.append(before.items[position].index)
      case .added(let position): seen.append(after.items[position].index)
      case .changed(let position, _): seen.append(before.items[position].index)
      case .same: seen.append(-1)
      }
    }
    #expect(seen.count == counts.added + counts.removed + counts.common)
    let listed = seen.filter { $0 >= 0 }
    #expect(listed == listed.sorted())
  }

  @Test("A frame past the tolerance, or a column, span or enlargement given or not, is a change")
  func changes() throws {
    let old = try layout([1, 2, 3], moved: [2: 2.5])
    #expect(DiffReport(old: old, new: try layout([1, 2, 3]), tolerance: 0.5).changed == 0)
    #expect(DiffReport(old: old, new: try layout([1, 2, 3]), tolerance: 0.49).changed == 1)
    for extra in [#","column":0"#, #","span":1"#, #","enlarged":false"#] {
      let report = DiffReport(old: old, new: try layout([1, 2, 3], extra: extra), tolerance: 1)
      #expect(report.changed == 3, "\(extra)")
    }
  }

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
