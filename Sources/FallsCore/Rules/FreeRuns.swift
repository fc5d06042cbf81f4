/// Which items of a batch each column's end may move: a no-op for the layouts that never move
/// an item once placed (the plain waterfall, and the seed's alignment without a flat end), so
/// that their placement loop carries nothing of it.
protocol RunTracking {
  /// The memory the runs of one batch live in, owned by the batch (and kept after it for a
  /// flat end).
  associatedtype Memory
  static func memory(columns: Int, items: Int) -> Memory
  /// Calls `body` with the runs as a view of `memory`, written in place.
  static func withRuns<Result>(_ memory: inout Memory, _ body: (Self) -> Result) -> Result
  /// The memory, for a flat end; `nil` where none is kept.
  static func kept(_ memory: Memory) -> FreeRunMemory?

  /// Notes the one-column item at batch offset `offset`, of natural extent `natural`, placed at
  /// `top` in `column` at its natural extent.
  func add(_ offset: Int, column: Int, top: Double, natural: Double)
  /// Makes `column`'s bottom a fixed edge: its run is empty.
  func fix(_ column: Int)
  /// How many items `column`'s run holds; 0 for a column outside the layout.
  func count(_ column: Int) -> Int
  /// The sum of the natural extents of `column`'s run.
  func naturalSum(_ column: Int) -> Double
  /// See ``FreeRuns/restack(_:to:rowSpacing:width:startCount:transform:into:current:)``.
  func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?
  ) -> (top: Double, extent: Double)?
}

/// The layouts whose items never move.
struct NoRuns: RunTracking {
  static func memory(columns: Int, items: Int) {}
  static func withRuns<Result>(_ memory: inout Void, _ body: (NoRuns) -> Result) -> Result {
    body(NoRuns())
  }
  static func kept(_ memory: Void) -> FreeRunMemory? { nil }
  @inline(__always) func add(_ offset: Int, column: Int, top: Double, natural: Double) {}
  @inline(__always) func fix(_ column: Int) {}
  func count(_ column: Int) -> Int { 0 }
  func naturalSum(_ column: Int) -> Double { 0 }
  func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?
  ) -> (top: Double, extent: Double)? { nil }
}

/// The memory of the columns' free runs during one batch: per item a link to the item above it
/// in its run and its natural extent, per column its run's last item, length, natural sum and
/// top. Two flat arrays of small structs, so that noting an item is a few stores.
struct FreeRunMemory: Sendable {
  /// What a run knows of one item of the batch, by its offset in the batch.
  fileprivate struct Item: Sendable {
    /// The offset of the item above it in its run, or −1.
    var above: Int32 = -1
    /// Room to put a run in order, top down, when it is stacked again: slot *k* of a run.
    var order: Int32 = 0
    var natural = 0.0
  }

  /// One column's free run.
  fileprivate struct Column: Sendable {
    /// The offset of its last item, or −1.
    var last = -1
    var count = 0
    /// The sum of its items' natural extents.
    var sum = 0.0
    var top = 0.0
  }

  fileprivate var items: [Item]
  fileprivate var columns: [Column]

  init(columns: Int, items: Int) {
    self.items = Array(repeating: Item(), count: items)
    self.columns = Array(repeating: Column(), count: columns)
  }
}

/// Each column's free run, as a view of a batch's ``FreeRunMemory`` that the placement loop
/// writes in place; every access is checked against the memory's end in debug builds.
struct FreeRuns: RunTracking {
  private let items: UnsafeMutableBufferPointer<FreeRunMemory.Item>
  private let columns: UnsafeMutableBufferPointer<FreeRunMemory.Column>

  static func memory(columns: Int, items: Int) -> FreeRunMemory {
    FreeRunMemory(columns: columns, items: items)
  }

  static func withRuns<Result>(_ memory: inout FreeRunMemory, _ body: (FreeRuns) -> Result)
    -> Result
  {
    memory.items.withUnsafeMutableBufferPointer { items in
      memory.columns.withUnsafeMutableBufferPointer { columns in
        body(FreeRuns(items: items, columns: columns))
      }
    }
  }

  static func kept(_ memory: FreeRunMemory) -> FreeRunMemory? { memory }

  @inline(__always)
  func count(_ column: Int) -> Int {
    column >= 0 && column < columns.count ? columns[column].count : 0
  }

  @inline(__always)
  func naturalSum(_ column: Int) -> Double { columns[column].sum }

  /// The fewest last items of `column`'s run (at least 1, at most all) whose sum of natural
  /// extents, added bottom up, `reaches`; that sum, and the batch offset of the first of them.
  func suffix(_ column: Int, reaching reaches: (Double) -> Bool)
    -> (last: Int, sum: Double, first: Int)
  {
    var (member, last, sum) = (columns[column].last, 0, 0.0)
    while true {
      (last, sum) = (last + 1, sum + items[member].natural)
      if last == columns[column].count || reaches(sum) { return (last, sum, member) }
      member = Int(items[member].above)
    }
  }

  @inline(__always)
  func add(_ offset: Int, column: Int, top: Double, natural: Double) {
    if columns[column].count == 0 {
      columns[column].top = top
      columns[column].sum = 0
    }
    items[offset].above = Int32(truncatingIfNeeded: columns[column].last)
    items[offset].natural = natural
    columns[column].last = offset
    columns[column].count &+= 1
    columns[column].sum += natural
  }

  @inline(__always)
  func fix(_ column: Int) {
    columns[column].count = 0
    columns[column].last = -1
  }

  /// Scales `column`'s run by one factor so that it ends exactly at `bottom`, stacks it again
  /// from its top with `rowSpacing` between items, writes each item's element into `placed`
  /// (at its batch offset; element index `startCount` + offset), and fixes the column's bottom.
  /// The item at offset `current`, if it is in the run, is not written: its top and extent are
  /// returned.
  ///
  /// The factor is `(bottom − top − (k − 1) · rowSpacing) / Σ natural` for *k* items; the last
  /// item takes the height that lands exactly on `bottom` (``Alignment/height(from:reaching:)``).
  func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?
  ) -> (top: Double, extent: Double)? {
    restack(
      column, last: columns[column].count, to: bottom, rowSpacing: rowSpacing, width: width,
      startCount: startCount, transform: transform, into: placed, current: current)
  }

  /// ``restack(_:to:rowSpacing:width:startCount:transform:into:current:)`` of the last `last`
  /// items of `column`'s run only (at least 1), which stand at their natural extents: the items
  /// above them stay where they are.
  func restack<Transform: FrameTransform>(
    _ column: Int, last: Int, to bottom: Double, rowSpacing: Double, width: Double,
    startCount: Int, transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>,
    current: Int?
  ) -> (top: Double, extent: Double)? {
    let run = columns[column]
    let count = run.count
    // The run top down, from the links that lead up from its last item.
    var member = run.last
    for slot in stride(from: count - 1, through: 0, by: -1) {
      items[slot].order = Int32(truncatingIfNeeded: member)
      member = Int(items[member].above)
    }
    let skipped = count - last
    var (top, sum) = (run.top, run.sum)
    if skipped > 0 {
      // The items above stand at their natural extents, stacked as the placement added them;
      // the sum of the items moved is added bottom up, as ``suffix(_:reaching:)`` adds it.
      for slot in 0..<skipped { top = top + items[Int(items[slot].order)].natural + rowSpacing }
      sum = 0
      for slot in (skipped..<count).reversed() { sum += items[Int(items[slot].order)].natural }
    }
    let kept = Self.stack(
      last, sum: sum, in: column, from: top, to: bottom, rowSpacing: rowSpacing,
      width: width, startCount: startCount, transform: transform, into: placed, current: current
    ) { slot in
      let offset = Int(items[skipped + slot].order)
      return (offset, items[offset].natural)
    }
    fix(column)
    return kept
  }

  /// Stacks `count` one-column items of `column` from `top`, exactly `rowSpacing` apart, each at
  /// its natural extent times one factor, `(bottom − top − (count − 1) · rowSpacing) / sum`, so
  /// that they end at `bottom`; the last takes the height that lands exactly on it
  /// (``Alignment/height(from:reaching:)``). `member(slot)` is the item at `slot`, top down: its
  /// batch offset and natural extent. Writes each item's element into `placed` (element index
  /// `startCount` + offset), but for the item at offset `current`, whose top and extent are
  /// returned. With `head`, the first item is an enlarged item across two columns from
  /// `head.column`, `head.width` wide (the planned alignment scales one with a column's tail).
  @inline(__always)
  static func stack<Transform: FrameTransform>(
    _ count: Int, sum: Double, in column: Int, from top: Double, to bottom: Double,
    rowSpacing: Double, width: Double, startCount: Int, transform: Transform,
    into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?,
    head: (column: Int, width: Double)? = nil, member: (Int) -> (offset: Int, natural: Double)
  ) -> (top: Double, extent: Double)? {
    let factor = (bottom - top - Double(count - 1) * rowSpacing) / sum
    var top = top
    var kept: (top: Double, extent: Double)?
    for slot in 0..<count {
      let (offset, natural) = member(slot)
      let extent =
        slot == count - 1 ? Alignment.height(from: top, reaching: bottom) : natural * factor
      if offset == current {
        kept = (top, extent)
      } else if slot == 0, let head {
        placed[offset] = LayoutElement(
          checkedIndex: startCount &+ offset, column: head.column, span: 2,
          frame: transform.frame(
            column: head.column, span: 2, top: top, extent: extent, width: head.width),
          isEnlarged: true, isAligned: extent != natural)
      } else {
        placed[offset] = LayoutElement(
          checkedIndex: startCount &+ offset, column: column, span: 1,
          frame: transform.frame(column: column, span: 1, top: top, extent: extent, width: width),
          isEnlarged: false, isAligned: extent != natural)
      }
      top = top + extent + rowSpacing
    }
    return kept
  }
}
