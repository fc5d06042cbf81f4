import FallsFeed

/// What differs between two layouts, items matched by index: which items only the new one
/// holds, which only the old, which both with a frame past the tolerance or another column,
/// span or enlargement, and the content heights. `falls diff` writes it (``DiffReport``).
struct LayoutDiff: Sendable {
  typealias Item = LayoutDocument.Item

  let old: LayoutDocument
  let new: LayoutDocument
  var tolerance: Double
  /// How many items only the new layout holds, only the old, and both with a difference.
  private(set) var added = 0, removed = 0, changed = 0
  /// How many items both layouts hold.
  private(set) var common = 0

  var contentHeight: (old: Double?, new: Double?) { (old.contentHeight, new.contentHeight) }

  /// What one item is to the diff, by its positions in the documents' items.
  enum Step {
    case removed(old: Int)
    case added(new: Int)
    case changed(old: Int, new: Int)
    case same
  }

  /// Compares `old` with `new`, items matched by index, and counts what differs; the items
  /// themselves are walked again as a report is written, so that nothing but the documents
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
}
