/// The planned alignment's memory (``PlannedAlignment``): the next items, each column's tail,
/// the last placements with the columns as they were before each, and the look-ahead's states.
/// Items are named by their index in the layout, so that the memory goes on from one append to
/// the next: a levelling may move the items held back from the append before
/// (``ColumnsEngine/heldBackCount``), never one below ``floor``.
struct Planner: AlignmentPlanning {
  var state: PlanState
  let columns: Int
  /// The most a levelling may distort an item (``PlannedAlignment/usable(_:)``).
  let bound: Double
  /// The length of a column snapshot: the columns and the two sentinels.
  let stride: Int
  /// Whether the look-ahead runs (``PlannedAlignment/mostPlannedColumns``).
  let looksAhead: Bool

  /// The natural extents and spans of the items seen, by batch offset modulo the horizon.
  var aheadNatural: [Double]
  var aheadSpan: [Int]
  /// How many items have been seen.
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
  static let historyLength = 16
  /// The last placements, by batch offset modulo ``historyLength``, with the chooser's cursor
  /// and the columns' bottoms and flags just before each.
  var history: [Placement]
  var historyCursor: [Int]
  var historyBottoms: [Double]
  var historyFlags: [UInt8]

  /// The batch offset before which the look-ahead next runs: a plan that waits is followed
  /// until the levelling it makes first, or for ``PlannedAlignment/idleItems`` when it makes
  /// none; an enlargement ends it, or makes the plan's second levelling the one it waits for
  /// (``thenAt``).
  var wakeAt = 0
  /// The pair the plan that waits levels at ``wakeAt``, or −1.
  var plannedLeft = -1
  /// The levelling the plan makes after the enlargement its first one is for, by the offset
  /// before which it is made and its pair's left column, when it comes within the plan's first
  /// ``PlannedAlignment/followedItems``: followed as a plan that waits once that enlargement is
  /// made (``wakeAt``, ``plannedLeft``); −1 for none.
  var thenAt = -1
  var thenLeft = -1

  /// The first item a levelling may move: the items before it are final.
  var floor = 0

  /// Scratch, kept so that an item's levellings allocate nothing: the levellings that qualify
  /// before the next item, those of them that are valid, and the columns a replay places.
  var qualifying: [Levelling] = []
  var valid: [Levelling] = []
  var replayBottoms: [Double]
  var replayFlags: [UInt8]

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
    replayBottoms = Array(repeating: .nan, count: stride)
    replayFlags = Array(repeating: 0, count: stride)
  }

  init(
    resuming: Planner?, columns: Int, state: PlanState, bound: Double, floor: Int, first: Int
  ) {
    if let resuming {
      self = resuming
    } else {
      self.init(columns: columns, state: state, bound: bound)
      // Items are seen from the batch's first on.
      seen = first
    }
    self.state = state
    self.floor = floor
    // A new batch brings new items into view: the look-ahead runs again.
    (wakeAt, plannedLeft, thenAt, thenLeft) = (0, -1, -1, -1)
  }

  var carried: Planner? { self }

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
      // The plan goes on to its next levelling when this is the enlargement its levelled pair
      // waited for and that levelling is still to come; any other enlargement ends it.
      let planned = state.waiting == column && thenAt > offset
      (state.wanted, state.waiting) = (false, -1)
      (wakeAt, plannedLeft) = planned ? (thenAt, thenLeft) : (0, -1)
      (thenAt, thenLeft) = (-1, -1)
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

    /// The column on `side` of the pair (0 the left one), the first item of its tail that the
    /// levelling moves, and the natural sum from it.
    func side(_ side: Int) -> (column: Int, first: Int, sum: Double) {
      side == 0 ? (left, firsts.0, sums.0) : (left + 1, firsts.1, sums.1)
    }
  }

  /// The first item of `column`'s tail that a levelling before the item at batch offset `next`
  /// of the pair from `left` may move, and the sum of the natural extents from it; with `left`
  /// `nil`, an enlarged item that heads the tail counts whatever the pair.
  func tail(_ column: Int, before next: Int, pair left: Int?) -> (first: Int, sum: Double) {
    let base = column * PlannedAlignment.tailLength
    var first = tailCount[column]
    var sum = 0.0
    let reach = Beam.reach(before: next, floor: floor)
    while first > 0, tailOffset[base + first - 1] >= reach {
      if first == 1, tailPartner[base] >= 0, let left, !headsBoth(column, pair: left) { break }
      first -= 1
      sum += tailNatural[base + first]
    }
    return (first, sum)
  }

  /// The natural sum of `column`'s whole tail: at least that of any part a levelling moves.
  private func wholeTail(_ column: Int) -> Double {
    let base = column * PlannedAlignment.tailLength
    var sum = 0.0
    for slot in base..<base + tailCount[column] { sum += tailNatural[slot] }
    return sum
  }

  /// Whether the enlarged item heading `column`'s tail heads its partner's too, and the partner
  /// is not in the pair from `left`: then it may move with the tail, the partner's shifting.
  private func headsBoth(_ column: Int, pair left: Int) -> Bool {
    let length = PlannedAlignment.tailLength
    let partner = tailPartner[column * length]
    return partner != left && partner != left + 1
      && runHead[partner] == tailOffset[column * length]
  }

  /// Lists the levellings that qualify before the item at `next` in ``qualifying``, cheapest
  /// first.
  private mutating func findLevellings(before next: Int, in view: ColumnView) {
    var found: [Levelling] = []
    swap(&found, &qualifying)
    defer { swap(&found, &qualifying) }
    if !found.isEmpty { found.removeAll(keepingCapacity: true) }
    let closed = ColumnState.empty | ColumnState.endsEnlarged
    for left in 0..<max(0, columns - 1) {
      let right = left + 1
      guard (view.flags[left] | view.flags[right]) & closed == 0 else { continue }
      let gap = view.bottoms[left] - view.bottoms[right]
      guard Self.mayMeet(gap: gap, wholeTails: wholeTail(left) + wholeTail(right), bound: bound)
      else { continue }
      let (a, b) = (tail(left, before: next, pair: left), tail(right, before: next, pair: left))
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
  }

  /// Whether two columns `gap` apart may meet within `bound` when their whole tails' natural
  /// heights sum to `wholeTails`: a gap past the bound over the whole tails is past it over the
  /// parts a levelling may move (``meeting(_:_:gap:sums:bound:)`` decides), so most pairs end
  /// here, before those parts are found. (The slack keeps the sums' rounding from deciding.)
  @inline(__always)
  static func mayMeet(gap: Double, wholeTails: Double, bound: Double) -> Bool {
    abs(gap) <= bound * wholeTails * (1 + 1e-9)
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
    guard next >= wakeAt else { return false }
    findLevellings(before: next, in: view)
    if !valid.isEmpty { valid.removeAll(keepingCapacity: true) }
    for candidate in qualifying {
      guard valid.count < PlannedAlignment.branches else { break }
      // The pair with its whole tails, or else (worked out only then) with the fewest of their
      // oldest items left out that lets every choice stand: the fewer items a levelling moves,
      // the fewer placements between them it can change.
      func made(_ variant: Levelling) -> Bool {
        guard replays(variant, before: next, view: view, chooser: chooser, records: false),
          growsClear(variant, rowSpacing: view.rowSpacing, enlargement: enlargement)
        else { return false }
        valid.append(variant)
        return true
      }
      guard !made(candidate) else { continue }
      for variant in shortened(candidate, view: view) where made(variant) { break }
    }
    guard !valid.isEmpty else { return false }
    var choice = 0
    if looksAhead, next == wakeAt, let planned = valid.firstIndex(where: { $0.left == plannedLeft })
    {
      choice = planned
    } else if looksAhead {
      let (best, first, then) = plan(
        valid, before: next, view: view, chooser: chooser, enlargement: enlargement,
        previousEnlarged: previousEnlarged)
      (thenAt, thenLeft) =
        if let then, then.before < next + PlannedAlignment.followedItems { then } else { (-1, -1) }
      guard let best else {
        (wakeAt, plannedLeft) = first ?? (next + PlannedAlignment.idleItems, -1)
        return false
      }
      choice = best
    }
    plannedLeft = -1
    make(
      valid[choice], before: next, view: view, chooser: chooser, runs: runs,
      enlargement: enlargement, transform: transform, placed: placed, startCount: startCount,
      widths: widths)
    return true
  }

  /// The pair of `levelling` with the oldest items of either tail left out, fewest first, each
  /// that still meets within the bound.
  func shortened(_ levelling: Levelling, view: ColumnView) -> [Levelling] {
    let length = PlannedAlignment.tailLength
    let pair = (levelling.left, levelling.left + 1)
    let counts = (tailCount[pair.0], tailCount[pair.1])
    var variants: [Levelling] = []
    let most = (counts.0 - levelling.firsts.0) + (counts.1 - levelling.firsts.1)
    for dropped in Swift.stride(from: 1, to: max(most, 1), by: 1) {
      for left in 0...dropped {
        let firsts = (levelling.firsts.0 + left, levelling.firsts.1 + dropped - left)
        guard firsts.0 <= counts.0, firsts.1 <= counts.1 else { continue }
        let sums = (
          (firsts.0..<counts.0).reduce(0) { $0 + tailNatural[pair.0 * length + $1] },
          (firsts.1..<counts.1).reduce(0) { $0 + tailNatural[pair.1 * length + $1] }
        )
        let (a, b) = (view.bottoms[pair.0], view.bottoms[pair.1])
        guard let (line, distortion) = Self.meeting(a, b, gap: a - b, sums: sums, bound: bound)
        else { continue }
        variants.append(
          Levelling(
            left: pair.0, line: line, distortion: distortion, firsts: firsts, sums: sums))
      }
    }
    return variants
  }

  /// The factor, and the items from slot `first`, of `column`'s tail meeting `line`.
  func tailItems(_ column: Int, from first: Int, sum: Double, line: Double, rowSpacing: Double)
    -> (top: Double, factor: Double, count: Int)?
  {
    let count = tailCount[column] - first
    guard count > 0 else { return nil }
    let top = tailTop[column * PlannedAlignment.tailLength + first]
    return (top, (line - top - Double(count - 1) * rowSpacing) / sum, count)
  }

}
