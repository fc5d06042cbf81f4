// The flat end: the last page placed again with its end in view, its runs moved to one line.
extension ColumnsEngine {
  /// The most rows at the end of the last page that spread leaves free for a flat end, and
  /// that the planned alignment leaves unlevelled: a try costs the page's placement, which is
  /// the planned alignment's look-ahead, and on the feeds of docs/layout-rules.md none of its
  /// flattest ends needs more than 2 rows. Past ``PlannedAlignment/mostPlannedColumns`` the
  /// planned flat end searches least (``isWide``).
  func mostFreeEndRows() -> Int {
    switch working.alignment {
    case .seed: 0
    case .spread: 20
    case .planned: isWide ? 0 : 2
    }
  }

  /// Whether the layout has more columns than the planned alignment's look-ahead simulates:
  /// then a planned flat end tries one line and the whole move or none, since each check of a
  /// move places the page's end again at O(*c*) an item.
  var isWide: Bool { working.columns > PlannedAlignment.mostPlannedColumns }

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
    let rows = 0...mostFreeEndRows()
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
  ///
  /// Under the planned alignment, whose frames keep every column choice, a column moves only
  /// the fewest last items of its run that reach the line, and only as far as every choice
  /// stays: the largest share of the moves, to 1/64, that keeps them all. Two lines are tried,
  /// the one that asks the least distortion and the lowest end (which the others only grow
  /// towards; the last item of a column can always grow), and the flatter result is kept.
  private mutating func flattenRuns(_ elements: inout [LayoutElement]) {
    guard let (startCount, kept) = lastBatchRuns else { return }
    // Taken out while it is written, so that it is written in place rather than copied.
    lastBatchRuns = nil
    defer { lastBatchRuns = (startCount, kept) }
    var memory = kept
    let isPlanned = working.alignment == .planned
    let lines = FreeRuns.withRuns(&memory) { runs in self.lines(runs, isPlanned: isPlanned) }
    guard isPlanned else {
      let moves = FreeRuns.withRuns(&memory) { runs in
        self.moves(runs, to: lines[0], fewest: false)
      }
      guard !moves.isEmpty else { return }
      return move(moves, share: 1, startCount: startCount, runs: kept, &elements)
    }
    var best: (moves: [RunMove], share: Double, raggedness: Double)?
    for line in lines {
      let moves = FreeRuns.withRuns(&memory) { runs in self.moves(runs, to: line, fewest: true) }
      guard !moves.isEmpty else { continue }
      let share = largestShare(moves, startCount: startCount, runs: kept, &elements)
      // The ends as the moves would leave them.
      var ends = columns.bottoms
      for move in moves { ends[move.column + 1] = move.bottom(at: share) }
      let used = (1...working.columns).filter { columns.flags[$0] & ColumnState.empty == 0 }
      let raggedness = (used.map { ends[$0] }.max() ?? 0) - (used.map { ends[$0] }.min() ?? 0)
      if raggedness < best?.raggedness ?? .infinity { best = (moves, share, raggedness) }
    }
    if let best {
      move(best.moves, share: best.share, startCount: startCount, runs: kept, &elements)
    }
  }

  /// The largest share of `moves`, to 1/64, that keeps every column choice; the batch and the
  /// columns are left as they stand.
  private mutating func largestShare(
    _ moves: [RunMove], startCount: Int, runs: FreeRunMemory, _ elements: inout [LayoutElement]
  ) -> Double {
    let (placed, before) = (Array(elements[startCount...]), columns)
    defer { (columns, elements[startCount...]) = (before, placed[...]) }
    let first = startCount + (moves.map(\.firstOffset).min() ?? 0)
    // On a pixel grid the frames' edges are rounded, and can tie where the engine's did not:
    // the choices the frames change with nothing moved are the most a move may change.
    let allowed =
      configuration.pixelGrid == nil
      ? 0 : changedChoices(elements, startCount: startCount, from: first)
    func keeps(_ share: Double) -> Bool {
      elements.replaceSubrange(startCount..., with: placed)
      move(moves, share: share, startCount: startCount, runs: runs, &elements)
      return changedChoices(elements, startCount: startCount, from: first) <= allowed
    }
    guard !keeps(1) else { return 1 }
    var (low, high) = (0.0, 1.0)
    for _ in 0..<(isWide ? 0 : 6) {
      let share = (low + high) / 2
      if keeps(share) { low = share } else { high = share }
    }
    return low
  }

  /// A move of the last `last` items of one column's free run: the column's bottom, where it
  /// is to end, and the batch offset of the first item moved.
  private struct RunMove {
    var column: Int
    var last: Int
    var bottom: Double
    var target: Double
    var firstOffset: Int

    /// Where the column ends after `share` of the move.
    func bottom(at share: Double) -> Double {
      share == 1 ? target : bottom + share * (target - bottom)
    }
  }

  /// The lines the free runs may move towards: the one that asks the least distortion and,
  /// under the planned alignment, the lowest end.
  private func lines(_ runs: FreeRuns, isPlanned: Bool) -> [Double] {
    let count = working.columns
    let used = (0..<count).filter { columns.flags[$0 + 1] & ColumnState.empty == 0 }
    let movable = used.filter { runs.count($0) > 0 }
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
    return [(low + high) / 2] + (isPlanned && !isWide ? [bottoms.max() ?? 0] : [])
  }

  /// Where each column's free run is to end: on `line`, or as near it as the bound allows;
  /// with `fewest`, by moving the fewest last items of the run that reach it.
  private func moves(_ runs: FreeRuns, to line: Double, fewest: Bool) -> [RunMove] {
    let bound = SpreadAlignment.usable(working.maxDistortion)
    return (0..<working.columns).compactMap { column in
      let count = runs.count(column)
      guard count > 0, columns.flags[column + 1] & ColumnState.empty == 0 else { return nil }
      let bottom = columns.bottoms[column + 1]
      var (last, sum, first) = runs.suffix(column) { fewest && bound * $0 >= abs(line - bottom) }
      // The whole run's sum as it was added, top down.
      if !fewest { sum = runs.naturalSum(column) }
      let reach = bound * sum
      let target = bottom + min(max(line - bottom, -reach), reach)
      guard target != bottom else { return nil }
      return RunMove(
        column: column, last: last, bottom: bottom, target: target, firstOffset: first)
    }
  }

  /// Makes `share` of each move: each run stacked again to end that far towards its target,
  /// from the runs as `memory` keeps them.
  private mutating func move(
    _ moves: [RunMove], share: Double, startCount: Int, runs memory: FreeRunMemory,
    _ elements: inout [LayoutElement]
  ) {
    var memory = memory
    FreeRuns.withRuns(&memory) { runs in
      columnXs.withUnsafeBufferPointer { columnXs in
        let transform = Mapped(columnXs: columnXs, configuration: configuration)
        elements.withUnsafeMutableBufferPointer { all in
          let batch = UnsafeMutableBufferPointer(rebasing: all[startCount...])
          for move in moves {
            let target = move.bottom(at: share)
            columns.bottoms[move.column + 1] = target
            columns.reachable[move.column + 1] = target
            guard share > 0 else { continue }
            _ = runs.restack(
              move.column, last: move.last, to: target, rowSpacing: working.rowSpacing,
              width: columnWidth, startCount: startCount, transform: transform, into: batch,
              current: nil)
          }
        }
      }
    }
    columns.lowest =
      (0..<working.columns).filter { columns.flags[$0 + 1] & ColumnState.empty == 0 }
      .map { columns.bottoms[$0 + 1] }.max() ?? columns.lowest
  }

  /// How many of the batch's elements from position `first` on stand in a column other than
  /// the one the order chooses, each column's bottom where the last frame in it ends (the
  /// state before the batch is the last page's).
  private func changedChoices(_ elements: [LayoutElement], startCount: Int, from first: Int) -> Int
  {
    guard var state = lastPageStart?.columns else { return 0 }
    var chooser = Self.chooser(working, cursor: state.cursor)
    let axis = configuration.axis
    return state.withView(insetTop: working.insets.top, rowSpacing: working.rowSpacing) { view in
      var changed = 0
      for element in elements[startCount...] {
        let (column, span) = (element.column, element.span)
        if element.index >= first,
          chooser.column(span: element.isEnlarged ? 1 : span, in: view).column != column
        {
          changed += 1
        }
        let bottom = element.frame.along(axis).1
        for covered in column..<column + span {
          view.bottoms[covered] = bottom
          view.flags[covered] = element.isEnlarged ? ColumnState.endsEnlarged : 0
        }
        chooser.placed(column: column, span: span, count: view.count)
      }
      return changed
    }
  }
}
