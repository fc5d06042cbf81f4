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

@Suite struct LayoutDiffTests {
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
    let diff = LayoutDiff(old: try layout(old), new: try layout(new), tolerance: 0)
    #expect(diff.added == counts.added && diff.removed == counts.removed)
    #expect(diff.common == counts.common && diff.changed == 0)
    #expect(diff.isSame == (counts.added == 0 && counts.removed == 0))
    // Each walked once, in index order.
    var seen: [Int] = []
    let (before, after) = (try layout(old), try layout(new))
    LayoutDiff(old: before, new: after, tolerance: 0).walk { step in
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
    #expect(LayoutDiff(old: old, new: try layout([1, 2, 3]), tolerance: 0.5).changed == 0)
    #expect(LayoutDiff(old: old, new: try layout([1, 2, 3]), tolerance: 0.49).changed == 1)
    for extra in [#","column":0"#, #","span":1"#, #","enlarged":false"#] {
      let diff = LayoutDiff(old: old, new: try layout([1, 2, 3], extra: extra), tolerance: 1)
      #expect(diff.changed == 3, "\(extra)")
    }
  }
}
