// Making a levelling: the replay that checks it, the tails stacked again, the partner shifted.
extension Planner {
  /// Whether placing the items from the first one `levelling` moves up to `next` again, with
  /// the moved items at their new heights, chooses every column as before. When `records`, the
  /// placements remember what that gave: each moved item's new extent, and the columns' bottoms
  /// before each placement after the first moved item. (The same replay checks and records, so
  /// that a levelling is made as it was checked.)
  mutating func replays<Chooser: ColumnChooser>(
    _ levelling: Levelling, before next: Int, view: ColumnView, chooser: Chooser, records: Bool
  ) -> Bool {
    let rowSpacing = view.rowSpacing
    // Each column's moved items: the tail's slots from `first`, scaled by `factor`, the last
    // ending on the line.
    let sides = (
      moved(levelling, side: 0, rowSpacing: rowSpacing),
      moved(levelling, side: 1, rowSpacing: rowSpacing)
    )
    let starts = (
      sides.0.map { tailOffset[$0.first] } ?? .max, sides.1.map { tailOffset[$0.first] } ?? .max
    )
    let start = min(starts.0, starts.1)
    guard start < .max else { return false }
    // The moved item at `offset` on one side: its new extent, or NaN when it ends on the line.
    func movedExtent(_ offset: Int) -> Double? {
      for side in 0..<2 {
        guard let side = side == 0 ? sides.0 : sides.1 else { continue }
        for slot in side.first..<side.first + side.count where tailOffset[slot] == offset {
          return slot == side.first + side.count - 1 ? .nan : tailNatural[slot] * side.factor
        }
      }
      return nil
    }
    // The columns as the replay places them, in the planner's own scratch arrays (taken out
    // while the replay runs, so that nothing is allocated).
    var (bottoms, flags) = ([Double](), [UInt8]())
    swap(&bottoms, &replayBottoms)
    swap(&flags, &replayFlags)
    defer {
      swap(&bottoms, &replayBottoms)
      swap(&flags, &replayFlags)
    }
    let first = snapshot(start)
    for index in 0..<stride {
      bottoms[index] = historyBottoms[first.lowerBound + index]
      flags[index] = historyFlags[first.lowerBound + index]
    }
    return bottoms.withUnsafeMutableBufferPointer { bottoms in
      flags.withUnsafeMutableBufferPointer { flags in
        let columns = ColumnView(
          bottoms: ColumnValues(bottoms), reachable: ColumnValues(bottoms),
          flags: ColumnValues(flags), count: self.columns, insetTop: view.insetTop,
          rowSpacing: rowSpacing)
        for offset in start..<next {
          let slot = offset % Self.historyLength
          let placement = history[slot]
          var chooser = chooser
          chooser.cursor = historyCursor[slot]
          let asked = placement.isEnlarged ? 1 : placement.span
          let (column, bottom) = chooser.column(span: asked, in: columns)
          guard column == placement.column else { return false }
          let top =
            asked == 1
            ? columns.top(of: column, bottom: bottom) : columns.top(of: column, span: asked)
          var end = top + placement.extent
          if let extent = movedExtent(offset) {
            end = extent.isNaN ? levelling.line : top + extent
            if records { history[slot].extent = extent.isNaN ? levelling.line - top : extent }
          }
          for covered in column..<column + placement.span {
            columns.bottoms[covered] = end
            columns.flags[covered] = placement.isEnlarged ? ColumnState.endsEnlarged : 0
          }
          if records, offset + 1 < next {
            let after = (offset + 1) % Self.historyLength * stride
            for index in 0..<stride { historyBottoms[after + index] = bottoms[index] }
          }
        }
        return true
      }
    }
  }

  /// The items of the tail on `side` (0 the left column) that `levelling` moves: the tail's
  /// slots from `first`, `count` of them, scaled by `factor`; `nil` when it moves none.
  private func moved(_ levelling: Levelling, side: Int, rowSpacing: Double) -> (
    first: Int, count: Int, factor: Double
  )? {
    let (column, first, sum) = levelling.side(side)
    guard
      let (_, factor, count) = tailItems(
        column, from: first, sum: sum, line: levelling.line, rowSpacing: rowSpacing)
    else { return nil }
    return (column * PlannedAlignment.tailLength + first, count, factor)
  }

  /// The range of the snapshot before the placement at batch offset `offset`.
  func snapshot(_ offset: Int) -> Range<Int> {
    let slot = offset % Self.historyLength
    return slot * stride..<(slot + 1) * stride
  }

  /// Makes `levelling` before the item at `next`: each tail stacked again onto the line, the
  /// placements after the first moved item remembered with their new bottoms and extents.
  mutating func make<Chooser: ColumnChooser, Transform: FrameTransform, Runs: RunTracking>(
    _ levelling: Levelling, before next: Int, view: ColumnView, chooser: Chooser, runs: Runs,
    enlargement: Enlargement, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int,
    widths: (column: Double, enlarged: Double)
  ) {
    // The placements after the first moved item as the replay makes them (it was checked to
    // choose every column as before): read from the tails before they are stacked again.
    let replayed = replays(levelling, before: next, view: view, chooser: chooser, records: true)
    assert(replayed, "a levelling is made only once its replay has been checked")
    let rowSpacing = view.rowSpacing
    let length = PlannedAlignment.tailLength
    for side in 0..<2 {
      let (column, first, sum) = levelling.side(side)
      defer {
        tailCount[column] = 0
        runHead[column] = -1
        runs.fix(column)
        view.bottoms[column] = levelling.line
        view.reachable[column] = levelling.line
      }
      guard
        let (top, factor, count) = tailItems(
          column, from: first, sum: sum, line: levelling.line, rowSpacing: rowSpacing)
      else { continue }
      let base = column * length + first
      // An enlarged item heading the tail moves with it, across its partner column.
      let partner = first == 0 ? tailPartner[column * length] : -1
      _ = FreeRuns.stack(
        count, sum: sum, in: column, from: top, to: levelling.line,
        rowSpacing: rowSpacing, width: widths.column, startCount: startCount,
        transform: transform, into: placed, current: nil,
        head: partner >= 0 ? (min(column, partner), widths.enlarged) : nil
      ) { slot in (tailOffset[base + slot] - startCount, tailNatural[base + slot]) }
      if partner >= 0 {
        let bottom =
          count == 1 ? levelling.line : top + tailNatural[base] * factor
        shift(
          partner, below: bottom, enlargedTop: top, enlarged: tailOffset[base], before: next,
          view: view, enlargement: enlargement, runs: runs, transform: transform, placed: placed,
          startCount: startCount, width: widths.column)
      }
    }
    state.waiting = levelling.left
  }

  /// Moves `partner`'s items after the enlarged item at batch offset `enlarged` (all placed
  /// before `next`, at their natural heights) to stack from `bottom`, the enlarged item's new
  /// bottom (its top `enlargedTop`). The enlarged item, moved once, leaves the partner's run and
  /// tail, and its new extent is the one the enlargement rule's overlaps see.
  private mutating func shift<Transform: FrameTransform, Runs: RunTracking>(
    _ partner: Int, below bottom: Double, enlargedTop: Double, enlarged: Int, before next: Int,
    view: ColumnView, enlargement: Enlargement, runs: Runs, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int, width: Double
  ) {
    let length = PlannedAlignment.tailLength
    let base = partner * length
    let other = history[enlarged % Self.historyLength].column
    for covered in [other, other + 1] {
      let extents = enlargement.runs[covered]
      enlargement.runs[covered][extents.count - 1] = enlargedTop...bottom
    }
    var end = bottom
    for offset in enlarged + 1..<next where history[offset % Self.historyLength].column == partner {
      let top = end + view.rowSpacing
      let natural = history[offset % Self.historyLength].extent
      placed[offset - startCount] = LayoutElement(
        checkedIndex: offset, column: partner, span: 1,
        frame: transform.frame(column: partner, span: 1, top: top, extent: natural, width: width),
        isEnlarged: false, isAligned: false)
      for slot in base..<base + tailCount[partner] where tailOffset[slot] == offset {
        tailTop[slot] = top
      }
      end = top + natural
    }
    if tailCount[partner] > 0, tailOffset[base] == enlarged {
      for slot in base..<base + tailCount[partner] - 1 {
        (tailOffset[slot], tailTop[slot], tailNatural[slot], tailPartner[slot]) = (
          tailOffset[slot + 1], tailTop[slot + 1], tailNatural[slot + 1], tailPartner[slot + 1]
        )
      }
      tailCount[partner] -= 1
    }
    runHead[partner] = -1
    view.bottoms[partner] = end
    view.reachable[partner] = end
    // Its free run for a flat end starts where it was: its end is fixed.
    runs.fix(partner)
  }

  /// Whether an enlarged item that heads a tail of `levelling`, and grows with it, stays clear
  /// of the enlarged items in the columns beside it: never two enlarged items side by side.
  func growsClear(_ levelling: Levelling, rowSpacing: Double, enlargement: Enlargement) -> Bool {
    let length = PlannedAlignment.tailLength
    for side in 0..<2 {
      let (column, first, sum) = levelling.side(side)
      let partner = tailPartner[column * length]
      guard first == 0, partner >= 0,
        let (top, factor, count) = tailItems(
          column, from: 0, sum: sum, line: levelling.line, rowSpacing: rowSpacing)
      else { continue }
      let bottom = count == 1 ? levelling.line : top + tailNatural[column * length] * factor
      let left = min(column, partner)
      for beside in [left - 1, left + 2] where beside >= 0 && beside < enlargement.runs.count {
        if Enlargement.overlaps(enlargement.runs[beside], top: top, bottom: bottom) { return false }
      }
    }
    return true
  }
}
