import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// What `falls diff` found between two layouts (``LayoutDiff``), as a table or JSON.
struct DiffReport: Sendable {
  typealias Item = LayoutDocument.Item
  typealias Difference = LayoutDiff.Difference

  let diff: LayoutDiff

  init(_ diff: LayoutDiff) {
    self.diff = diff
  }

  /// The report of `old` and `new` compared within `tolerance`.
  init(old: LayoutDocument, new: LayoutDocument, tolerance: Double) {
    self.init(LayoutDiff(old: old, new: new, tolerance: tolerance))
  }

  /// The JSON schema name of `--format json`.
  static let schema = "falls.diff/1"

  /// "same: 50 items", or "differ: 2 added, 1 removed, 3 changed; content height 3612.32 →
  /// 3700.50".
  var summary: String {
    var parts: [String] = []
    if diff.added > 0 { parts.append("\(diff.added) added") }
    if diff.removed > 0 { parts.append("\(diff.removed) removed") }
    if diff.changed > 0 { parts.append("\(diff.changed) changed") }
    let height =
      diff.heightChanged
      ? "content height \(Self.text(diff.contentHeight.old ?? 0)) → \(Self.text(diff.contentHeight.new ?? 0))"
      : nil
    guard !diff.isSame else { return "same: \(diff.common) item\(diff.common == 1 ? "" : "s")" }
    return "differ: " + (parts.isEmpty ? "" : parts.joined(separator: ", "))
      + (height.map { (parts.isEmpty ? "" : "; ") + $0 } ?? "")
  }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if format == .json {
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"same\":")
      out.appendBoolean(diff.isSame)
      out.appendLiteral(",\"tolerance\":")
      appendNumber(diff.tolerance, to: &out)
      for difference in [Difference.added, .removed, .changed] {
        out.append(",\"\(difference.rawValue)\":[")
        var isFirst = true
        try diff.forEach(difference) { (before, after) throws(SystemError) in
          if !isFirst { out.appendLiteral(",") }
          isFirst = false
          switch difference {
          case .added: appendJSON(diff.new.items[after], to: &out)
          case .removed: appendJSON(diff.old.items[before], to: &out)
          case .changed:
            out.appendLiteral("{\"index\":")
            out.appendInteger(diff.old.items.index(at: before))
            out.appendLiteral(",\"old\":")
            appendJSON(diff.old.items[before], to: &out)
            out.appendLiteral(",\"new\":")
            appendJSON(diff.new.items[after], to: &out)
            out.appendLiteral("}")
          }
          try out.flushIfFull()
        }
        out.appendLiteral("]")
      }
      out.appendLiteral(",\"contentHeight\":{\"old\":")
      appendNumber(diff.contentHeight.old, to: &out)
      out.appendLiteral(",\"new\":")
      appendNumber(diff.contentHeight.new, to: &out)
      out.appendLiteral("}}\n")
    } else {
      out.append(summary + "\n")
      for difference in [Difference.removed, .added, .changed] {
        try diff.forEach(difference) { (before, after) throws(SystemError) in
          switch difference {
          case .removed: out.append("removed \(describe(diff.old.items[before]))\n")
          case .added: out.append("added \(describe(diff.new.items[after]))\n")
          case .changed:
            let (a, b) = (diff.old.items[before], diff.new.items[after])
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
    ] where abs(a - b) > diff.tolerance {
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
