// The flat end: the last page placed again with its end in view, its runs moved to one line.
extension ColumnsEngine {
  /// The most rows at the end of the last page that spread leaves free for a flat end.
  static let mostFreeEndRows = 20

  mutating func flattenEnd(_ elements: inout [LayoutElement], index: inout BlockIndex) {
    guard working.flatEnd, let page = lastPageStart, let (startCount, _) = lastBatchRuns else {
      return
    }
    // The last page again, from the state before it, with its last 0, 1, 2, … rows left free of
    // spread's own corrections (the seed's still made), until the ends meet: the fewest rows that
    // flatten best, so that the page keeps as many corrections, and enlargements, as it can.
    // Each try places the page after the earlier pages' elements, which stay where they are, and
    // is taken back: only how many rows the best one left free is kept, and that try is made
    // again at the end. A try costs the page's time, and the page is held once, not once a try.
    var scratch = index
    // The page as placed goes, and the memory of its runs: each try makes its own.
    Self.takeBack(&elements, from: startCount)
    lastBatchRuns = nil
    let before = self
    var best: (freeRows: Int, raggedness: Double)?
    let rows = working.alignment != .seed ? 0...Self.mostFreeEndRows : 0...0
    for freeRows in rows {
      guard
        let again = before.placedAgain(
          page, freeRows: freeRows, startCount: startCount, into: &elements, index: &scratch)
      else {
        // Placed once already; placed again with fewer corrections, an item could in principle
        // overflow: that try is left out.
        continue
      }
      Self.takeBack(&elements, from: startCount)
      let ends = again.columns.columnBottoms.compactMap { $0 }
      let raggedness = (ends.max() ?? 0) - (ends.min() ?? 0)
      if raggedness < best?.raggedness ?? .infinity { best = (freeRows, raggedness) }
      if raggedness <= 1e-9 * (ends.max() ?? 0) { break }
    }
    // The best try made again; or, should every try fail, the page as it was placed (the same
    // placement, made again).
    let final =
      best.flatMap {
        before.placedAgain(
          page, freeRows: $0.freeRows, startCount: startCount, into: &elements, index: &scratch)
      }
      ?? before.placedAgain(
        page, freeRows: nil, startCount: startCount, into: &elements, index: &scratch)
    guard let final else {
      preconditionFailure("the last page, placed once, could not be placed again as it was")
    }
    self = final
    index = BlockIndex(elements, axis: configuration.axis)
  }

  /// The engine as it stands with the last page placed again after the `startCount` elements of
  /// the pages before, from the state before it, its last `freeRows` rows left free of spread's
  /// own corrections and its runs then flattened (``flattenRuns(_:)``); with `freeRows` `nil`, as
  /// the page was first placed, nothing left free or flattened. `nil` when an item cannot be
  /// placed so, and then `elements` is as it was.
  private func placedAgain(
    _ page: (columns: ColumnState, enlargedExtents: [[ClosedRange<Double>]], items: PageItems),
    freeRows: Int?, startCount: Int, into elements: inout [LayoutElement],
    index: inout BlockIndex
  ) -> ColumnsEngine? {
    var again = self
    (again.columns, again.enlargedExtents, again.lastBatchRuns) = (
      page.columns, page.enlargedExtents, nil
    )
    again.endStart = freeRows.map { max(0, page.items.count - $0 * working.columns) } ?? .max
    do {
      try again.append(page.items, to: &elements, index: &index)
    } catch {
      return nil
    }
    again.endStart = .max
    if freeRows != nil { again.flattenRuns(&elements) }
    return again
  }

  /// Takes back the elements from `start` on; when that is all of them, their memory goes too,
  /// so that the next placement's array is taken as it is rather than copied into this one.
  private static func takeBack(_ elements: inout [LayoutElement], from start: Int) {
    if start == 0 { elements = [] } else { elements.removeSubrange(start...) }
  }

  /// Moves each column's free run of the last batch towards one line, as far as the bound
  /// allows.
  private mutating func flattenRuns(_ elements: inout [LayoutElement]) {
    guard let (startCount, kept) = lastBatchRuns else { return }
    // Taken out while it is written, so that it is written in place rather than copied.
    lastBatchRuns = nil
    var memory = kept
    FreeRuns.withRuns(&memory) { runs in flatten(runs, startCount: startCount, &elements) }
    lastBatchRuns = (startCount, memory)
  }

  private mutating func flatten(
    _ runs: FreeRuns, startCount: Int, _ elements: inout [LayoutElement]
  ) {
    let count = working.columns
    let used = (0..<count).filter { columns.flags[$0 + 1] & ColumnState.empty == 0 }
    let movable = used.filter { runs.count($0) > 0 }
    guard !movable.isEmpty else { return }
    let bottoms = used.map { columns.bottoms[$0 + 1] }
    let fixed = used.filter { runs.count($0) == 0 }.map { columns.bottoms[$0 + 1] }
    // The line lies between the fixed ends, which cannot move, or else anywhere between the
    // ends; the largest distortion it asks, max |line − bottom| / Σ natural over the runs, is
    // convex in the line, so a ternary search finds its least.
    var (low, high) =
      fixed.isEmpty
      ? (bottoms.min() ?? 0, bottoms.max() ?? 0) : (fixed.min() ?? 0, fixed.max() ?? 0)
    func cost(_ line: Double) -> Double {
      movable.map { abs(line - columns.bottoms[$0 + 1]) / runs.naturalSum($0) }.max() ?? 0
    }
    for _ in 0..<300 where high - low > 4 * max(abs(low), abs(high)).ulp {
      let third = (high - low) / 3
      if cost(low + third) <= cost(high - third) { high -= third } else { low += third }
    }
    let line = (low + high) / 2
    let bound = SpreadAlignment.usable(working.maxDistortion)
    columnXs.withUnsafeBufferPointer { columnXs in
      let transform = Mapped(columnXs: columnXs, configuration: configuration)
      elements.withUnsafeMutableBufferPointer { all in
        let batch = UnsafeMutableBufferPointer(rebasing: all[startCount...])
        for column in movable {
          let bottom = columns.bottoms[column + 1]
          let reach = bound * runs.naturalSum(column)
          let target = bottom + min(max(line - bottom, -reach), reach)
          guard target != bottom else { continue }
          _ = runs.restack(
            column, to: target, rowSpacing: working.rowSpacing, width: columnWidth,
            startCount: startCount, transform: transform, into: batch, current: nil)
          columns.bottoms[column + 1] = target
          columns.reachable[column + 1] = target
        }
      }
    }
    columns.lowest = used.map { columns.bottoms[$0 + 1] }.max() ?? columns.lowest
  }
}
