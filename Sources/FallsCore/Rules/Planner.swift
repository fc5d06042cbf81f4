/// The planned alignment's memory of one batch (``PlannedAlignment``): the next items, each
/// column's tail, the last placements with the columns as they were before each, and the
/// look-ahead's states.
struct Planner: AlignmentPlanning {
  var state: PlanState
  let columns: Int
  /// The most a levelling may distort an item (``PlannedAlignment/usable(_:)``).
  let bound: Double
  /// The length of a column snapshot: the columns and the two sentinels.
  private let stride: Int
  /// Whether the look-ahead runs (``PlannedAlignment/mostPlannedColumns``).
  let looksAhead: Bool

  /// The natural extents and spans of the items seen, by batch offset modulo the horizon.
  var aheadNatural: [Double]
  var aheadSpan: [Int]
  /// How many items of the batch have been seen.
  var seen = 0

  /// Each column's tail, oldest first: up to ``PlannedAlignment/tailLength`` items since its
  /// last fixed edge, by batch offset, top and natural extent. The first may be an enlarged
  /// item, whose other column is its partner (−1 for a one-column item): it moves with the
  /// tail only while it heads its partner's tail too, which then shifts with it.
  var tailOffset: [Int]
  var tailTop: [Double]
  var tailNatural: [Double]
  var tailPartner: [Int]
  var tailCount: [Int]
  /// Per column, the batch offset of the enlarged item its run starts below (no fixed edge
  /// since), or −1.
  var runHead: [Int]

  /// How many placements are remembered: more than the window a levelling may reach into.
  private static let historyLength = 16
  /// The last placements, by batch offset modulo ``historyLength``, with the chooser's cursor
  /// and the columns' bottoms and flags just before each.
  private var history: [Placement]
  private var historyCursor: [Int]
  private var historyBottoms: [Double]
  private var historyFlags: [UInt8]

  /// The look-ahead's states.
  var beam: Beam

  init(columns: Int, state: PlanState, bound: Double) {
    self.state = state
    self.columns = columns
    self.bound = bound
    stride = columns + 2
    looksAhead = columns <= PlannedAlignment.mostPlannedColumns
    let horizon = PlannedAlignment.horizon
    aheadNatural = Array(repeating: .nan, count: horizon)
    aheadSpan = Array(repeating: 1, count: horizon)
    let tails = columns * PlannedAlignment.tailLength
    tailOffset = Array(repeating: 0, count: tails)
    tailTop = Array(repeating: 0, count: tails)
    tailNatural = Array(repeating: 0, count: tails)
    tailPartner = Array(repeating: -1, count: tails)
    tailCount = Array(repeating: 0, count: columns)
    runHead = Array(repeating: -1, count: columns)
    let length = Self.historyLength
    history = Array(
      repeating: Placement(column: 0, span: 1, extent: 0, natural: 0, isEnlarged: false),
      count: length)
    historyCursor = Array(repeating: 0, count: length)
    historyBottoms = Array(repeating: .nan, count: length * stride)
    historyFlags = Array(repeating: 0, count: length * stride)
    beam = Beam(columns: looksAhead ? columns : 1)
  }

  mutating func see(natural: Double, span: Int) {
    let slot = seen % PlannedAlignment.horizon
    aheadNatural[slot] = natural
    aheadSpan[slot] = span
    seen += 1
  }

  /// Whether an item placed in `column`, where the enlargement rule allows one, is enlarged:
  /// when its pair was levelled for it, or an enlargement is wanted.
  @inline(__always)
  func enlargementWanted(column: Int) -> Bool {
    state.waiting == column || state.wanted
  }

  mutating func record(
    _ placement: Placement, offset: Int, top: Double, cursor: Int, before view: ColumnView
  ) {
    let slot = offset % Self.historyLength
    history[slot] = placement
    historyCursor[slot] = cursor
    for column in -1...columns {
      historyBottoms[slot * stride + column + 1] = view.bottoms[column]
      historyFlags[slot * stride + column + 1] = view.flags[column]
    }
    let column = placement.column
    let length = PlannedAlignment.tailLength
    if placement.span == 1, !placement.isEnlarged {
      let base = column * length
      if tailCount[column] == length {
        for slot in base..<base + length - 1 {
          (tailOffset[slot], tailTop[slot], tailNatural[slot], tailPartner[slot]) = (
            tailOffset[slot + 1], tailTop[slot + 1], tailNatural[slot + 1], tailPartner[slot + 1]
          )
        }
        tailCount[column] -= 1
      }
      let last = base + tailCount[column]
      (tailOffset[last], tailTop[last], tailNatural[last], tailPartner[last]) = (
        offset, top, placement.natural, -1
      )
      tailCount[column] += 1
    } else if placement.isEnlarged {
      // An enlarged item heads both its columns' tails.
      for (covered, partner) in [(column, column + 1), (column + 1, column)] {
        let base = covered * length
        (tailOffset[base], tailTop[base], tailNatural[base], tailPartner[base]) = (
          offset, top, placement.extent, partner
        )
        tailCount[covered] = 1
        runHead[covered] = offset
      }
    } else {
      for covered in column..<column + placement.span {
        tailCount[covered] = 0
        runHead[covered] = -1
      }
    }
    if placement.isEnlarged {
      state = PlanState(wanted: false, waiting: -1)
    } else if state.waiting >= 0, column <= state.waiting + 1,
      column + placement.span > state.waiting
    {
      state.waiting = -1
    }
  }

  /// A levelling that qualifies: the pair from `left`, the line both columns meet at, the
  /// distortion, and each column's tail (its items from `first` in the tail, and their sum).
  struct Levelling {
    var left: Int
    var line: Double
    var distortion: Double
    var firsts: (Int, Int)
    var sums: (Double, Double)
  }

  /// The first item of `column`'s tail that a levelling before the item at batch offset `next`
  /// of the pair from `left` may move, and the sum of the natural extents from it; with `left`
  /// `nil`, an enlarged item that heads the tail counts whatever the pair.
  func tail(_ column: Int, before next: Int, pair left: Int?) -> (first: Int, sum: Double) {
    let base = column * PlannedAlignment.tailLength
    var first = tailCount[column]
    var sum = 0.0
    while first > 0, tailOffset[base + first - 1] >= next - PlannedAlignment.window {
      if first == 1, tailPartner[base] >= 0, let left, !headsBoth(column, pair: left) { break }
      first -= 1
      sum += tailNatural[base + first]
    }
    return (first, sum)
  }

  /// Whether the enlarged item heading `column`'s tail heads its partner's too, and the partner
  /// is not in the pair from `left`: then it may move with the tail, the partner's shifting.
  private func headsBoth(_ column: Int, pair left: Int) -> Bool {
    let length = PlannedAlignment.tailLength
    let partner = tailPartner[column * length]
    return partner != left && partner != left + 1
      && runHead[partner] == tailOffset[column * length]
  }

  /// The levellings that qualify before the item at `next`, cheapest first.
  private func levellings(before next: Int, in view: ColumnView) -> [Levelling] {
    var found: [Levelling] = []
    let closed = ColumnState.empty | ColumnState.endsEnlarged
    for left in 0..<max(0, columns - 1) {
      let right = left + 1
      guard (view.flags[left] | view.flags[right]) & closed == 0 else { continue }
      let (a, b) = (tail(left, before: next, pair: left), tail(right, before: next, pair: left))
      let gap = view.bottoms[left] - view.bottoms[right]
      guard
        let (line, distortion) = Self.meeting(
          view.bottoms[left], view.bottoms[right], gap: gap, sums: (a.sum, b.sum), bound: bound)
      else { continue }
      found.append(
        Levelling(
          left: left, line: line, distortion: distortion, firsts: (a.first, b.first),
          sums: (a.sum, b.sum)))
    }
    // Few pairs: an insertion sort, stable, so that the left pair wins a tie.
    for index in found.indices.dropFirst() {
      var at = index
      while at > 0, found[at].distortion < found[at - 1].distortion {
        found.swapAt(at, at - 1)
        at -= 1
      }
    }
    return found
  }

  /// Where two columns ending at `left` and `right` (their gap `left − right`) meet when their
  /// tails, of natural sums `sums`, take the same distortion, and that distortion; `nil` when it
  /// is more than `bound`, or so small that no frame would show it.
  @inline(__always)
  static func meeting(
    _ left: Double, _ right: Double, gap: Double, sums: (Double, Double), bound: Double
  ) -> (line: Double, distortion: Double)? {
    let total = sums.0 + sums.1
    guard total > 0, gap != 0 else { return nil }
    let distortion = abs(gap) / total
    let noise = Double(SpreadAlignment.noiseUlps) * max(left, right).ulp
    guard distortion <= bound, distortion > LayoutQuality.noise, abs(gap) > noise else {
      return nil
    }
    // A column whose tail is empty stays; the other meets its bottom exactly.
    let line =
      sums.0 == 0 ? left : sums.1 == 0 ? right : left - (gap > 0 ? 1 : -1) * distortion * sums.0
    return (line, distortion)
  }

  /// Levels a pair before the item at batch offset `next` if the look-ahead's best plan levels
  /// one now: both tails stacked again onto the line, the line a fixed edge of both columns,
  /// the pair waiting for its enlargement. Returns whether it did.
  mutating func level<Chooser: ColumnChooser, Transform: FrameTransform, Runs: RunTracking>(
    before next: Int, view: ColumnView, chooser: Chooser, enlargement: Enlargement,
    previousEnlarged: UInt8, runs: Runs, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int,
    widths: (column: Double, enlarged: Double)
  ) -> Bool {
    var valid: [Levelling] = []
    var replays: [Replay] = []
    for candidate in levellings(before: next, in: view) {
      guard valid.count < PlannedAlignment.branches else { break }
      if let replay = replayed(candidate, before: next, view: view, chooser: chooser) {
        valid.append(candidate)
        replays.append(replay)
      }
    }
    guard !valid.isEmpty else { return false }
    var choice = 0
    if looksAhead {
      guard
        let best = plan(
          valid, before: next, view: view, chooser: chooser, enlargement: enlargement,
          previousEnlarged: previousEnlarged)
      else { return false }
      choice = best
    }
    make(
      valid[choice], replay: replays[choice], before: next, view: view, runs: runs,
      enlargement: enlargement, transform: transform, placed: placed, startCount: startCount,
      widths: widths)
    return true
  }

  /// The factor, and the items from slot `first`, of `column`'s tail meeting `line`.
  private func tailItems(_ column: Int, from first: Int, sum: Double, line: Double, rowSpacing: Double)
    -> (top: Double, factor: Double, count: Int)?
  {
    let count = tailCount[column] - first
    guard count > 0 else { return nil }
    let top = tailTop[column * PlannedAlignment.tailLength + first]
    return (top, (line - top - Double(count - 1) * rowSpacing) / sum, count)
  }

  /// The columns' bottoms before each placement from the first one `levelling` moves up to
  /// `next`, with the items at their new heights, if every column is chosen as before; `nil`
  /// otherwise.
  private func replayed<Chooser: ColumnChooser>(
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
          guard column == placement.column else { return false
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
  private func snapshot(_ offset: Int) -> Range<Int> {
    let slot = offset % Self.historyLength
    return slot * stride..<(slot + 1) * stride
  }

  /// Makes `levelling` before the item at `next`: each tail stacked again onto the line, the
  /// placements after the first moved item remembered with their new bottoms and extents.
  private mutating func make<Transform: FrameTransform, Runs: RunTracking>(
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
      ) { slot in (tailOffset[base + slot], tailNatural[base + slot]) }
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
      placed[offset] = LayoutElement(
        checkedIndex: startCount &+ offset, column: partner, span: 1,
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
}
