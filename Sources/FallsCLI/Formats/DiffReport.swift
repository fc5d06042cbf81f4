import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// What `falls diff` found between two layouts: items added, removed and changed, and the
/// content heights.
struct DiffReport: Sendable {
  typealias Item = LayoutDocument.Item

  var added: [Item]
  var removed: [Item]
  var changed: [(old: Item, new: Item)]
  var contentHeight: (old: Double?, new: Double?)
  var tolerance: Double
  /// How many items both layouts hold.
  var common: Int

  /// The JSON schema name of `--format json`.
  static let schema = "falls.diff/1"

  /// Compares `old` with `new`, items matched by index: in one walk of both sorted by index.
  ///
  /// - Complexity: O(*n*) for *n* items in index order (O(*n* log *n*) otherwise).
  init(old: LayoutDocument, new: LayoutDocument, tolerance: Double) {
    func sorted(_ items: [Item]) -> [Item] {
      zip(items, items.dropFirst()).allSatisfy { $0.index <= $1.index }
        ? items : items.sorted { $0.index < $1.index }
    }
    let (before, after) = (sorted(old.items), sorted(new.items))
    var (added, removed, changed) = ([Item](), [Item](), [(old: Item, new: Item)]())
    var (i, j, common) = (0, 0, 0)
    while i < before.count || j < after.count {
      if j == after.count || (i < before.count && before[i].index < after[j].index) {
        removed.append(before[i])
        i += 1
      } else if i == before.count || after[j].index < before[i].index {
        added.append(after[j])
        j += 1
      } else {
        if Self.differ(before[i], after[j], tolerance: tolerance) {
          changed.append((before[i], after[j]))
        }
        common += 1
        i += 1
        j += 1
      }
    }
    (self.added, self.removed, self.changed) = (added, removed, changed)
    contentHeight = (old.contentHeight, new.contentHeight)
    self.tolerance = tolerance
    self.common = common
  }

  /// Whether an item moved past the tolerance, or changed its column, span or enlargement.
  static func differ(_ a: Item, _ b: Item, tolerance: Double) -> Bool {
    let (p, q) = (a.frame, b.frame)
    let moved =
      abs(p.x - q.x) > tolerance || abs(p.y - q.y) > tolerance
      || abs(p.width - q.width) > tolerance || abs(p.height - q.height) > tolerance
    return moved || a.column != b.column || a.span != b.span || a.isEnlarged != b.isEnlarged
  }

  /// Whether the content heights differ past the tolerance, both being known.
  var heightChanged: Bool {
    guard let old = contentHeight.old, let new = contentHeight.new else { return false }
    return abs(old - new) > tolerance
  }

  var isSame: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty && !heightChanged }

  /// "same: 50 items", or "differ: 2 added, 1 removed, 3 changed; content height 3612.32 →
  /// 3700.5".
  var summary: String {
    var parts: [String] = []
    if !added.isEmpty { parts.append("\(added.count) added") }
    if !removed.isEmpty { parts.append("\(removed.count) removed") }
    if !changed.isEmpty { parts.append("\(changed.count) changed") }
    let height =
      heightChanged
      ? "content height \(formatNumber(contentHeight.old ?? 0)) → \(formatNumber(contentHeight.new ?? 0))"
      : nil
    guard !isSame else { return "same: \(common) item\(common == 1 ? "" : "s")" }
    return "differ: " + (parts.isEmpty ? "" : parts.joined(separator: ", "))
      + (height.map { (parts.isEmpty ? "" : "; ") + $0 } ?? "")
  }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if format == .json {
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"same\":")
      out.appendBoolean(isSame)
      out.appendLiteral(",\"tolerance\":")
      out.appendNumber(tolerance)
      for (key, items) in [("added", added), ("removed", removed)] {
        out.append(",\"\(key)\":")
        try out.appendJSONArray(items) { item, out in appendJSON(item, to: &out) }
      }
      out.appendLiteral(",\"changed\":")
      try out.appendJSONArray(changed) { pair, out in
        out.appendLiteral("{\"index\":")
        out.appendInteger(pair.old.index)
        out.appendLiteral(",\"old\":")
        appendJSON(pair.old, to: &out)
        out.appendLiteral(",\"new\":")
        appendJSON(pair.new, to: &out)
        out.appendLiteral("}")
      }
      out.appendLiteral(",\"contentHeight\":{\"old\":")
      appendNumber(contentHeight.old, to: &out)
      out.appendLiteral(",\"new\":")
      appendNumber(contentHeight.new, to: &out)
      out.appendLiteral("}}\n")
    } else {
      out.append(summary + "\n")
      for item in removed { out.append("removed \(describe(item))\n") }
      for item in added { out.append("added \(describe(item))\n") }
      for (old, new) in changed {
        out.append("changed item \(old.index): \(changes(old, new))\n")
        try out.flushIfFull()
      }
    }
    try out.flush()
  }

  private func appendNumber(_ value: Double?, to out: inout OutputBuffer) {
    if let value { out.appendNumber(value) } else { out.appendLiteral("null") }
  }

  /// An item's JSON object: its index, frame, and column, span and enlargement when given.
  private func appendJSON(_ item: Item, to out: inout OutputBuffer) {
    out.appendLiteral("{\"index\":")
    out.appendInteger(item.index)
    out.appendLiteral(",\"x\":")
    out.appendNumber(item.frame.x)
    out.appendLiteral(",\"y\":")
    out.appendNumber(item.frame.y, isCached: false)
    out.appendLiteral(",\"width\":")
    out.appendNumber(item.frame.width)
    out.appendLiteral(",\"height\":")
    out.appendNumber(item.frame.height, isCached: false)
    if let column = item.column {
      out.appendLiteral(",\"column\":")
      out.appendInteger(column)
    }
    if let span = item.span {
      out.appendLiteral(",\"span\":")
      out.appendInteger(span)
    }
    if let enlarged = item.isEnlarged {
      out.appendLiteral(",\"enlarged\":")
      out.appendBoolean(enlarged)
    }
    out.appendLiteral("}")
  }

  /// "item 3 at 10, 20, 100 × 150".
  private func describe(_ item: Item) -> String {
    let frame = item.frame
    return "item \(item.index) at \(formatNumber(frame.x)), \(formatNumber(frame.y)), "
      + "\(formatNumber(frame.width)) × \(formatNumber(frame.height))"
  }

  /// What changed of an item: "y 10 → 12, height 150 → 148, enlarged false → true".
  private func changes(_ old: Item, _ new: Item) -> String {
    var parts: [String] = []
    for (name, a, b) in [
      ("x", old.frame.x, new.frame.x), ("y", old.frame.y, new.frame.y),
      ("width", old.frame.width, new.frame.width), ("height", old.frame.height, new.frame.height),
    ] where abs(a - b) > tolerance {
      parts.append("\(name) \(formatNumber(a)) → \(formatNumber(b))")
    }
    func text<Value>(_ value: Value?) -> String { value.map { "\($0)" } ?? "none" }
    if old.column != new.column { parts.append("column \(text(old.column)) → \(text(new.column))") }
    if old.span != new.span { parts.append("span \(text(old.span)) → \(text(new.span))") }
    if old.isEnlarged != new.isEnlarged {
      parts.append("enlarged \(text(old.isEnlarged)) → \(text(new.isEnlarged))")
    }
    return parts.joined(separator: ", ")
  }
}
