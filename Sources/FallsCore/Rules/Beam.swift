/// The look-ahead's states, in two halves: the parents of a step in one, their children in the
/// other. A state is the columns' bottoms and flags, each column's tail (by position and natural
/// extent) and its last enlarged item's extent in the look-ahead, and what the plan has made.
struct Beam {
  /// The states a step may make: each of the beam's branches into no levelling and the
  /// cheapest ones.
  static let slotsPerHalf = PlannedAlignment.beamWidth * (PlannedAlignment.branches + 1)

  /// What a state has made, and carries from one item to the next.
  struct Info {
    var previousEnlarged: UInt8 = 0
    var waiting = -1
    var cursor = 0
    var enlargements = 0
    /// The sum of the enlargements' places in the look-ahead.
    var places = 0.0
    /// The sum of the levellings' distortions.
    var distortion = 0.0
    /// Which root levelling the state started with, or −1.
    var first = -1
    /// The batch offset of the item before which the state made its first levelling in the
    /// look-ahead, or −1.
    var levelledBefore = -1

    /// Ranks states: enlargements (half of one more when a levelled pair waits), then the
    /// places of the enlargements plus 1,000 times the distortion spent.
    func isBetter(than other: Info) -> Bool {
      if score != other.score { return score > other.score }
      return cost < other.cost
    }

    /// Whether the state ranks with `best` but for ``PlannedAlignment/margin`` of its cost.
    func isAlmost(as best: Info) -> Bool {
      score == best.score && cost <= best.cost + PlannedAlignment.margin
    }

    /// Twice the enlargements, and one more when a levelled pair waits.
    private var score: Int { 2 * enlargements + (waiting >= 0 ? 1 : 0) }
    /// The enlargements' places plus 1,000 times the distortion spent.
    private var cost: Double { places + 1000 * distortion }
  }

  let columns: Int
  let stride: Int
  /// The first item a levelling may move (``Planner/floor``).
  var floor = 0
  var bottoms: [Double]
  var flags: [UInt8]
  var tailPosition: [Int]
  var tailNatural: [Double]
  /// The partner column of an enlarged item heading a tail, or −1 (``Planner``).
  var tailPartner: [Int]
  var tailCount: [Int]
  /// Per column, the position of the enlarged item its run starts below, or −1 (``Planner``).
  var runHead: [Int]
  var enlargedTop: [Double]
  var enlargedBottom: [Double]
  var info: [Info]

  init(columns: Int) {
    self.columns = columns
    stride = columns + 2
    let slots = 2 * Self.slotsPerHalf
    bottoms = Array(repeating: .nan, count: slots * stride)
    flags = Array(repeating: 0, count: slots * stride)
    tailPosition = Array(repeating: 0, count: slots * columns * PlannedAlignment.tailLength)
    tailNatural = Array(repeating: 0, count: slots * columns * PlannedAlignment.tailLength)
    tailPartner = Array(repeating: -1, count: slots * columns * PlannedAlignment.tailLength)
    tailCount = Array(repeating: 0, count: slots * columns)
    runHead = Array(repeating: -1, count: slots * columns)
    enlargedTop = Array(repeating: .nan, count: slots * columns)
    enlargedBottom = Array(repeating: .nan, count: slots * columns)
    info = Array(repeating: Info(), count: slots)
  }

  /// Sets state `slot` to the columns of `view` and the planner's tails that a levelling before
  /// `next` may move.
  mutating func load(
    _ slot: Int, from view: ColumnView, planner: Planner, before next: Int,
    previousEnlarged: UInt8, waiting: Int, cursor: Int
  ) {
    for column in -1...columns {
      bottoms[slot * stride + column + 1] = view.bottoms[column]
      flags[slot * stride + column + 1] = view.flags[column]
    }
    let length = PlannedAlignment.tailLength
    for column in 0..<columns {
      let (first, _) = planner.tail(column, before: next, pair: nil)
      let count = planner.tailCount[column] - first
      let at = (slot * columns + column) * length
      for index in 0..<count {
        tailPosition[at + index] = planner.tailOffset[column * length + first + index]
        tailNatural[at + index] = planner.tailNatural[column * length + first + index]
        tailPartner[at + index] = planner.tailPartner[column * length + first + index]
      }
      tailCount[slot * columns + column] = count
      runHead[slot * columns + column] = planner.runHead[column]
      enlargedTop[slot * columns + column] = .nan
      enlargedBottom[slot * columns + column] = .nan
    }
    info[slot] = Info(previousEnlarged: previousEnlarged, waiting: waiting, cursor: cursor)
  }

  mutating func copy(_ from: Int, to slot: Int) {
    let tails = columns * PlannedAlignment.tailLength
    Self.copy(&bottoms, stride, from, slot)
    Self.copy(&flags, stride, from, slot)
    Self.copy(&tailPosition, tails, from, slot)
    Self.copy(&tailNatural, tails, from, slot)
    Self.copy(&tailPartner, tails, from, slot)
    Self.copy(&tailCount, columns, from, slot)
    Self.copy(&runHead, columns, from, slot)
    Self.copy(&enlargedTop, columns, from, slot)
    Self.copy(&enlargedBottom, columns, from, slot)
    info[slot] = info[from]
  }

  /// Copies state `from`'s `length` values of `array` over state `slot`'s, at once.
  private static func copy<Value>(_ array: inout [Value], _ length: Int, _ from: Int, _ slot: Int) {
    array.withUnsafeMutableBufferPointer { values in
      guard let base = values.baseAddress else { return }
      (base + slot * length).update(from: base + from * length, count: length)
    }
  }

  /// Calls `body` with state `slot`'s columns as a view.
  private mutating func withView<Result>(
    _ slot: Int, rowSpacing: Double, insetTop: Double, _ body: (ColumnView) -> Result
  ) -> Result {
    let range = slot * stride..<(slot + 1) * stride
    let count = columns
    return bottoms.withUnsafeMutableBufferPointer { bottoms in
      flags.withUnsafeMutableBufferPointer { flags in
        let bottoms = UnsafeMutableBufferPointer(rebasing: bottoms[range])
        return body(
          ColumnView(
            bottoms: ColumnValues(bottoms), reachable: ColumnValues(bottoms),
            flags: ColumnValues(UnsafeMutableBufferPointer(rebasing: flags[range])),
            count: count, insetTop: insetTop, rowSpacing: rowSpacing))
      }
    }
  }

  /// Places an item of natural extent `natural` across `span` columns, at batch offset
  /// `position`, in state `slot`: by the chooser; enlarged where the rule allows and a levelled
  /// pair waits for it, or none waits (an enlargement is assumed wanted).
  mutating func place<Chooser: ColumnChooser>(
    _ slot: Int, natural: Double, span: Int, at position: Int, root: Int, chooser: Chooser,
    enlargement: Enlargement, rowSpacing: Double, insetTop: Double
  ) {
    var chooser = chooser
    chooser.cursor = info[slot].cursor
    let state = info[slot]
    // The column, the top, and whether the columns let the item be enlarged there.
    let (column, top, allows) = withView(slot, rowSpacing: rowSpacing, insetTop: insetTop) {
      view -> (Int, Double, Bool) in
      let (column, columnBottom) = chooser.column(span: span, in: view)
      guard span == 1 else { return (column, view.top(of: column, span: span), false) }
      let allows = Enlargement.allows(
        column: column, bottom: columnBottom, previousEnlarged: state.previousEnlarged, in: view)
      return (column, view.top(of: column, bottom: columnBottom), allows)
    }
    let enlarged =
      allows && (state.waiting < 0 || state.waiting == column)
      && !enlargement.overlapsNeighbours(
        column: column, top: top, height: natural, rowSpacing: rowSpacing)
      && !overlapsEnlarged(slot, column &- 1, top: top, height: natural, rowSpacing: rowSpacing)
      && !overlapsEnlarged(slot, column &+ 2, top: top, height: natural, rowSpacing: rowSpacing)
    let covered = enlarged ? 2 : span
    let bottom =
      enlarged ? top + Enlargement.extent(ofHeight: natural, rowSpacing: rowSpacing) : top + natural
    chooser.placed(column: column, span: covered, count: columns)
    info[slot].cursor = chooser.cursor
    info[slot].previousEnlarged = enlarged ? ColumnState.endsEnlarged : 0
    for index in column..<column + covered {
      bottoms[slot * stride + index + 1] = bottom
      flags[slot * stride + index + 1] = enlarged ? ColumnState.endsEnlarged : 0
    }
    if enlarged {
      info[slot].enlargements += 1
      info[slot].places += Double(position - root)
      info[slot].waiting = -1
      let length = PlannedAlignment.tailLength
      for (index, partner) in [(column, column + 1), (column + 1, column)] {
        let at = (slot * columns + index) * length
        (tailPosition[at], tailNatural[at], tailPartner[at]) = (position, bottom - top, partner)
        tailCount[slot * columns + index] = 1
        runHead[slot * columns + index] = position
        enlargedTop[slot * columns + index] = top
        enlargedBottom[slot * columns + index] = bottom
      }
      return
    }
    let waiting = info[slot].waiting
    if waiting >= 0, column <= waiting + 1, column + covered > waiting { info[slot].waiting = -1 }
    guard covered == 1 else {
      for index in column..<column + covered {
        tailCount[slot * columns + index] = 0
        runHead[slot * columns + index] = -1
      }
      return
    }
    let length = PlannedAlignment.tailLength
    let at = (slot * columns + column) * length
    var count = tailCount[slot * columns + column]
    if count == length {
      for index in 0..<length - 1 {
        tailPosition[at + index] = tailPosition[at + index + 1]
        tailNatural[at + index] = tailNatural[at + index + 1]
        tailPartner[at + index] = tailPartner[at + index + 1]
      }
      count -= 1
    }
    tailPosition[at + count] = position
    tailNatural[at + count] = natural
    tailPartner[at + count] = -1
    tailCount[slot * columns + column] = count + 1
  }

  /// Whether the last enlarged item the look-ahead placed in `column` of state `slot` overlaps
  /// an enlarged item of natural height `height` at `top`.
  private func overlapsEnlarged(
    _ slot: Int, _ column: Int, top: Double, height: Double, rowSpacing: Double
  ) -> Bool {
    guard column >= 0, column < columns else { return false }
    let reach = top + 2 * height + rowSpacing
    let (start, end) = (
      enlargedTop[slot * columns + column], enlargedBottom[slot * columns + column]
    )
    return end > top && start < reach
  }

  /// The cheapest levellings of state `slot` before the item at `next`, at most the planned
  /// alignment's branches.
  func levellings(_ slot: Int, before next: Int, bound: Double) -> [(
    left: Int, line: Double, distortion: Double
  )] {
    var found: [(left: Int, line: Double, distortion: Double)] = []
    let closed = ColumnState.empty | ColumnState.endsEnlarged
    for left in 0..<max(0, columns - 1) {
      let right = left + 1
      let (leftAt, rightAt) = (slot * stride + left + 1, slot * stride + right + 1)
      guard (flags[leftAt] | flags[rightAt]) & closed == 0 else { continue }
      let sums = (
        tailSum(slot, left, before: next, pair: left),
        tailSum(slot, right, before: next, pair: left)
      )
      let gap = bottoms[leftAt] - bottoms[rightAt]
      guard
        let (line, distortion) = Planner.meeting(
          bottoms[leftAt], bottoms[rightAt], gap: gap, sums: sums, bound: bound)
      else { continue }
      found.append((left, line, distortion))
    }
    found.sort {
      $0.distortion < $1.distortion || ($0.distortion == $1.distortion && $0.left < $1.left)
    }
    return Array(found.prefix(PlannedAlignment.branches))
  }

  /// The natural sum of the tail of `column` in state `slot` that a levelling before `next` of
  /// the pair from `left` may move: an enlarged item heading it counts while it heads its
  /// partner's tail too, the partner outside the pair.
  private func tailSum(_ slot: Int, _ column: Int, before next: Int, pair left: Int) -> Double {
    let at = (slot * columns + column) * PlannedAlignment.tailLength
    var sum = 0.0
    for index in 0..<tailCount[slot * columns + column]
    where tailPosition[at + index] >= Self.reach(before: next, floor: floor) {
      if index == 0, tailPartner[at] >= 0, !headsBoth(slot, column, pair: left) { continue }
      sum += tailNatural[at + index]
    }
    return sum
  }

  /// Whether the enlarged item heading `column`'s tail in state `slot` heads its partner's too,
  /// the partner outside the pair from `left`.
  private func headsBoth(_ slot: Int, _ column: Int, pair left: Int) -> Bool {
    let length = PlannedAlignment.tailLength
    let at = (slot * columns + column) * length
    let partner = tailPartner[at]
    return partner != left && partner != left + 1
      && runHead[slot * columns + partner] == tailPosition[at]
  }

  /// Levels the pair from `left` in state `slot` onto `line` before the item at `next`: an
  /// enlarged item heading a tail moves its partner's end by as much as it changes.
  mutating func level(_ slot: Int, left: Int, line: Double, distortion: Double, before next: Int) {
    let length = PlannedAlignment.tailLength
    for column in left...left + 1 {
      let at = (slot * columns + column) * length
      let sum = tailSum(slot, column, before: next, pair: left)
      if tailCount[slot * columns + column] > 1, tailPartner[at] >= 0,
        tailPosition[at] >= Self.reach(before: next, floor: floor),
        headsBoth(slot, column, pair: left),
        sum > 0
      {
        let partner = tailPartner[at]
        let change = tailNatural[at] * (line - bottoms[slot * stride + column + 1]) / sum
        bottoms[slot * stride + partner + 1] += change
        // The partner's tail and run lose the enlarged item, moved once.
        let partnerAt = (slot * columns + partner) * length
        let count = tailCount[slot * columns + partner]
        if count > 0, tailPosition[partnerAt] == tailPosition[at] {
          for index in 0..<count - 1 {
            tailPosition[partnerAt + index] = tailPosition[partnerAt + index + 1]
            tailNatural[partnerAt + index] = tailNatural[partnerAt + index + 1]
            tailPartner[partnerAt + index] = tailPartner[partnerAt + index + 1]
          }
          tailCount[slot * columns + partner] = count - 1
        }
        runHead[slot * columns + partner] = -1
        enlargedBottom[slot * columns + partner] += change
      }
    }
    for column in left...left + 1 {
      bottoms[slot * stride + column + 1] = line
      tailCount[slot * columns + column] = 0
      runHead[slot * columns + column] = -1
    }
    info[slot].waiting = left
    info[slot].distortion += distortion
  }

  /// The best `count` of `slots`, best first; among equals, the first given.
  func best(_ slots: [Int], _ count: Int) -> [Int] {
    var ranked = slots
    // Few states: an insertion sort, stable.
    for index in ranked.indices.dropFirst() {
      var at = index
      while at > 0, info[ranked[at]].isBetter(than: info[ranked[at - 1]]) {
        ranked.swapAt(at, at - 1)
        at -= 1
      }
    }
    return Array(ranked.prefix(count))
  }

  /// The first item a levelling made before the item at `next` may move: one of the last
  /// ``PlannedAlignment/window`` placed, and not below `floor`.
  static func reach(before next: Int, floor: Int) -> Int {
    max(next - PlannedAlignment.window, floor)
  }
}
