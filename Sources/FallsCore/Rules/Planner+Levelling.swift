// Making a levelling: the replay that checks it, the tails stacked again, the partner shifted.
extension Planner {
  /// The columns' bottoms before each placement from the first one `levelling` moves up to
  /// `next`, with the items at their new heights, if every column is chosen as before; `nil`
  /// otherwise.
  func replayed<Chooser: ColumnChooser>(
    _ levelling: Levelling, before next: Int, view: ColumnView, chooser: Chooser
  ) -> Replay? {
    let rowSpacing = view.rowSpacing
    let pair = [levelling.left, levelling.left + 1]
    let firsts = [levelling.firsts.0, levelling.firsts.1]
    let sums = [levelling.sums.0, levelling.sums.1]
    // Each moved item's offset, and its new extent (NaN: the last of its tail, which ends on
    // the line).
    var moved: [(offset: Int, extent: Double)] = []
    for side in 0..<2 {
      let column = pair[side]
      guard
        let (_, factor, count) = tailItems(
          column, from: firsts[side], sum: sums[side], line: levelling.line,
          rowSpacing: rowSpacing)
      else { continue }
      let base = column * PlannedAlignment.tailLength + firsts[side]
      for slot in 0..<count {
        moved.append(
          (tailOffset[base + slot], slot == count - 1 ? .nan : tailNatural[base + slot] * factor))
      }
    }
    guard let start = moved.map(\.offset).min() else { return nil }
    var bottoms = Array(historyBottoms[snapshot(start)])
    var flags = Array(historyFlags[snapshot(start)])
    var snapshots: [Double] = []
    snapshots.reserveCapacity((next - start) * stride)
    var extents: [(offset: Int, extent: Double)] = []
    let matches = bottoms.withUnsafeMutableBufferPointer { bottoms in
      flags.withUnsafeMutableBufferPointer { flags in
        let columns = ColumnView(
          bottoms: ColumnValues(bottoms), reachable: ColumnValues(bottoms),
          flags: ColumnValues(flags), count: self.columns, insetTop: view.insetTop,
          rowSpacing: rowSpacing)
        for offset in start..<next {
          let placement = history[offset % Self.historyLength]
          var chooser = chooser
          chooser.cursor = historyCursor[offset % Self.historyLength]
          let asked = placement.isEnlarged ? 1 : placement.span
          let (column, bottom) = chooser.column(span: asked, in: columns)
          guard column == placement.column else {
            return false
          }
          let top =
            asked == 1
            ? columns.top(of: column, bottom: bottom) : columns.top(of: column, span: asked)
          var end = top + placement.extent
          if let move = moved.first(where: { $0.offset == offset }) {
            end = move.extent.isNaN ? levelling.line : top + move.extent
            extents.append((offset, move.extent.isNaN ? levelling.line - top : move.extent))
          }
          for covered in column..<column + placement.span {
            columns.bottoms[covered] = end
            columns.flags[covered] = placement.isEnlarged ? ColumnState.endsEnlarged : 0
          }
          if offset + 1 < next { snapshots.append(contentsOf: bottoms) }
        }
        return true
      }
    }
    return matches ? Replay(snapshots: snapshots, extents: extents) : nil
  }

  /// What placing the items again after a levelling gave: the bottoms before each placement
  /// after the first moved item, and each moved item's new extent.
  struct Replay {
    var snapshots: [Double]
    var extents: [(offset: Int, extent: Double)]
  }

  /// The range of the snapshot before the placement at batch offset `offset`.
  func snapshot(_ offset: Int) -> Range<Int> {
    let slot = offset % Self.historyLength
    return slot * stride..<(slot + 1) * stride
  }

  /// Makes `levelling` before the item at `next`: each tail stacked again onto the line, the
  /// placements after the first moved item remembered with their new bottoms and extents.
  mutating func make<Transform: FrameTransform, Runs: RunTracking>(
    _ levelling: Levelling, replay: Replay, before next: Int, view: ColumnView, runs: Runs,
    enlargement: Enlargement, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int,
    widths: (column: Double, enlarged: Double)
  ) {
    let rowSpacing = view.rowSpacing
    let length = PlannedAlignment.tailLength
    let pair = [levelling.left, levelling.left + 1]
    let firsts = [levelling.firsts.0, levelling.firsts.1]
    let sums = [levelling.sums.0, levelling.sums.1]
    for side in 0..<2 {
      let column = pair[side]
      defer {
        tailCount[column] = 0
        runHead[column] = -1
        runs.fix(column)
        view.bottoms[column] = levelling.line
        view.reachable[column] = levelling.line
      }
      guard
        let (top, factor, count) = tailItems(
          column, from: firsts[side], sum: sums[side], line: levelling.line,
          rowSpacing: rowSpacing)
      else { continue }
      let base = column * length + firsts[side]
      // An enlarged item heading the tail moves with it, across its partner column.
      let partner = firsts[side] == 0 ? tailPartner[column * length] : -1
      _ = FreeRuns.stack(
        count, sum: sums[side], in: column, from: top, to: levelling.line,
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
    // The placements after the first moved item as the replay made them: the moved items'
    // extents, and the bottoms before each.
    for (offset, extent) in replay.extents { history[offset % Self.historyLength].extent = extent }
    let first = next - replay.snapshots.count / stride
    for (index, offset) in (first..<next).enumerated() {
      historyBottoms.replaceSubrange(
        snapshot(offset), with: replay.snapshots[index * stride..<(index + 1) * stride])
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
    for (side, column) in [levelling.left, levelling.left + 1].enumerated() {
      let first = side == 0 ? levelling.firsts.0 : levelling.firsts.1
      let sum = side == 0 ? levelling.sums.0 : levelling.sums.1
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
