import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// What `falls diff` found between two layouts: items added, removed and changed, and the
/// content heights.
struct DiffReport: Sendable {
  typealias Item = LayoutDocument.Item

  let old: LayoutDocument
  let new: LayoutDocument
  var tolerance: Double
  /// How many items only the new layout holds, only the old, and both with a difference.
  private(set) var added = 0, removed = 0, changed = 0
  /// How many items both layouts hold.
  private(set) var common = 0

  var contentHeight: (old: Double?, new: Double?) { (old.contentHeight, new.contentHeight) }

  /// The JSON schema name of `--format json`.
  static let schema = "falls.diff/1"

  /// What one item is to the diff, by its positions in the documents' items.
  enum Step {
    case removed(old: Int)
    case added(new: Int)
    case changed(old: Int, new: Int)
    case same
  }

  /// Compares `old` with `new`, items matched by index, and counts what differs; the items
  /// themselves are walked again as the report is written, so that nothing but the documents
  /// is held.
  ///
  /// - Complexity: O(*n*) for *n* items.
  init(old: LayoutDocument, new: LayoutDocument, tolerance: Double) {
    (self.old, self.new, self.tolerance) = (old, new, tolerance)
    var (added, removed, changed, common) = (0, 0, 0, 0)
    walk { step in
      switch step {
      case .removed: removed += 1
      case .added: added += 1
      case .changed:
        changed += 1
        common += 1
      case .same: common += 1
      }
    }
    (self.added, self.removed, self.changed, self.common) = (added, removed, changed, common)
  }

  /// Calls `body` with each item of either layout in index order, in one walk of both.
  ///
  /// - Complexity: O(*n*) for *n* items.
  func walk<Failure: Error>(_ body: (Step) throws(Failure) -> Void) throws(Failure) {
    let (before, after) = (old.items, new.items)
    var (i, j) = (0, 0)
    while i < before.count || j < after.count {
      let a = i < before.count ? old.position(inIndexOrder: i) : 0
      let b = j < after.count ? new.position(inIndexOrder: j) : 0
      if j == after.count || (i < before.count && before.index(at: a) < after.index(at: b)) {
        try body(.removed(old: a))
        i += 1
      } else if i == before.count || after.index(at: b) < before.index(at: a) {
        try body(.added(new: b))
        j += 1
      } else {
        try body(
          Self.differ(before[a], after[b], tolerance: tolerance) ? .changed(old: a, new: b) : .same)
        i += 1
        j += 1
      }
    }
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

  var isSame: Bool { added == 0 && removed == 0 && changed == 0 && !heightChanged }

  /// "same: 50 items", or "differ: 2 added, 1 removed, 3 changed; content height 3612.32 →
  /// 3700.50".
  var summary: String {
    var parts: [String] = []
    if added > 0 { parts.append("\(added) added") }
    if removed > 0 { parts.append("\(removed) removed") }
    if changed > 0 { parts.append("\(changed) changed") }
    let height =
      heightChanged
      ? "content height \(Self.text(contentHeight.old ?? 0)) → \(Self.text(contentHeight.new ?? 0))"
      : nil
    guard !isSame else { return "same: \(common) item\(common == 1 ? "" : "s")" }
    return "differ: " + (parts.isEmpty ? "" : parts.joined(separator: ", "))
      + (height.map { (parts.isEmpty ? "" : "; ") + $0 } ?? "")
  }

  /// What an item is that the report lists, in the table's order.
  enum Difference: String {
    case removed, added, changed
  }

  /// Calls `body` with the positions in the old and the new items of each item that is
  /// `difference` (-1 in the layout that lacks it), in index order.
  ///
  /// - Complexity: O(*n*) for *n* items.
  func forEach<Failure: Error>(
    _ difference: Difference, _ body: (_ old: Int, _ new: Int) throws(Failure) -> Void
  ) throws(Failure) {
    try walk { (step) throws(Failure) in
      switch (difference, step) {
      case (.removed, .removed(let position)): try body(position, -1)
      case (.added, .added(let position)): try body(-1, position)
      case (.changed, .changed(let before, let after)): try body(before, after)
      default: return
      }
    }
  }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if format == .json {
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"same\":")
      out.appendBoolean(isSame)
      out.appendLiteral(",\"tolerance\":")
      appendNumber(tolerance, to: &out)
      for difference in [Difference.added, .removed, .changed] {
        out.append(",\"\(difference.rawValue)\":[")
        var isFirst = true
        try forEach(difference) { (before, after) throws(SystemError) in
          if !isFirst { out.appendLiteral(",") }
          isFirst = false
          switch difference {
          case .added: appendJSON(new.items[after], to: &out)
          case .removed: appendJSON(old.items[before], to: &out)
          case .changed:
            out.appendLiteral("{\"index\":")
            out.appendInteger(old.items.index(at: before))
            out.appendLiteral(",\"old\":")
            appendJSON(old.items[before], to: &out)
            out.appendLiteral(",\"new\":")
            appendJSON(new.items[after], to: &out)
            out.appendLiteral("}")
          }
          try out.flushIfFull()
        }
        out.appendLiteral("]")
      }
      out.appendLiteral(",\"contentHeight\":{\"old\":")
      appendNumber(contentHeight.old, to: &out)
      out.appendLiteral(",\"new\":")
      appendNumber(contentHeight.new, to: &out)
      out.appendLiteral("}}\n")
    } else {
      out.append(summary + "\n")
      for difference in [Difference.removed, .added, .changed] {
        try forEach(difference) { (before, after) throws(SystemError) in
          switch difference {
          case .removed: out.append("removed \(describe(old.items[before]))\n")
          case .added: out.append("added \(describe(new.items[after]))\n")
          case .changed:
            let (a, b) = (old.items[before], new.items[after])
            out.append("changed item \(a.index): \(changes(a, b))\n")
          }
          try out.flushIfFull()
        }
      }
    }
    try out.flush()
  }

  /// `value` for the table, with two decimals as the layout's table shows a frame; finite, as
  /// every number of a diff is.
  private static func text(_ value: Double) -> String {
    assert(value.isFinite, "a non-finite number in the diff's table: \(value)")
    return formatFixed(value)
  }

  /// Appends `value` as a JSON number, or `null` when there is none.
  private func appendNumber(_ value: Double?, to out: inout OutputBuffer, isCached: Bool = true) {
    guard let value else { return out.appendLiteral("null") }
    // JSON has no infinity and no NaN: every number here was read finite (LayoutDocument's
    // rules, the flag's range), and no other comes in.
    assert(value.isFinite, "a non-finite number in the diff's JSON: \(value)")
    out.appendNumber(value, isCached: isCached)
  }

  /// An item's JSON object: its index, frame, and column, span and enlargement when given.
  private func appendJSON(_ item: Item, to out: inout OutputBuffer) {
    out.appendLiteral("{\"index\":")
    out.appendInteger(item.index)
    out.appendLiteral(",\"x\":")
    appendNumber(item.frame.x, to: &out)
    out.appendLiteral(",\"y\":")
    appendNumber(item.frame.y, to: &out, isCached: false)
    out.appendLiteral(",\"width\":")
    appendNumber(item.frame.width, to: &out)
    out.appendLiteral(",\"height\":")
    appendNumber(item.frame.height, to: &out, isCached: false)
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

  /// "item 3 at 10.00, 20.00, 100.00 × 150.00".
  private func describe(_ item: Item) -> String {
    let frame = item.frame
    return "item \(item.index) at \(Self.text(frame.x)), \(Self.text(frame.y)), "
      + "\(Self.text(frame.width)) × \(Self.text(frame.height))"
  }

  /// What changed of an item: "y 10.00 → 12.00, height 150.00 → 148.00, enlarged false → true".
  private func changes(_ old: Item, _ new: Item) -> String {
    var parts: [String] = []
    for (name, a, b) in [
      ("x", old.frame.x, new.frame.x), ("y", old.frame.y, new.frame.y),
      ("width", old.frame.width, new.frame.width), ("height", old.frame.height, new.frame.height),
    ] where abs(a - b) > tolerance {
      parts.append("\(name) \(Self.text(a)) → \(Self.text(b))")
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
