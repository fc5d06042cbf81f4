import FallsMemory

/// The look-ahead's states. A state is the columns' bottoms and flags, each column's tail (by
/// position and natural extent) and its last enlarged item's extent in the look-ahead, and what
/// the plan has made.
///
/// A step places the next item in each state kept (its *parents*) where it stands, and ranks
/// each placed state with its cheapest levellings by what they would make; only the levellings
/// kept are made, each in a slot of its own. The states live in memory the beam owns, a block
/// of each kind per slot, so that a state is copied a block at a time and nothing is allocated
/// or checked for sharing while a plan runs.
struct Beam: ~Copyable {
  /// The most states a step ranks: each state kept, placed, and its cheapest levellings.
  static let candidatesPerStep = PlannedAlignment.beamWidth * (PlannedAlignment.branches + 1)
  /// The slots: the states kept, and as many for the levellings a step keeps.
  static let slots = 2 * PlannedAlignment.beamWidth

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
    /// The batch offset of the item before which the state made its first levelling (`next`
    /// for a levelling at the root), or −1.
    var levelledBefore = -1
    /// The left column of the pair of that levelling, or −1.
    var levelledLeft = -1
    /// The batch offset before which the state made its second levelling, and the left column
    /// of that pair; −1 for none.
    var thenBefore = -1
    var thenLeft = -1

    /// Ranks states: enlargements (half of one more when a levelled pair waits), then the
    /// places of the enlargements plus 1,000 times the distortion spent.
    func isBetter(than other: Info) -> Bool { rank.isBetter(than: other.rank) }

    /// What ranks the state.
    var rank: Rank { Rank(score: score, cost: cost) }

    /// Whether the state ranks with `best` but for ``PlannedAlignment/margin`` of its cost.
    func isAlmost(as best: Info) -> Bool {
      score == best.score && cost <= best.cost + PlannedAlignment.margin
    }

    /// What the state makes when it levels `levelling` before the item at `next`: the pair
    /// waits for its enlargement.
    func levelled(_ levelling: Levelling, before next: Int) -> Info {
      var info = self
      info.waiting = levelling.left
      info.distortion += levelling.distortion
      if info.levelledBefore < 0 {
        (info.levelledBefore, info.levelledLeft) = (next, levelling.left)
      } else if info.thenBefore < 0 {
        (info.thenBefore, info.thenLeft) = (next, levelling.left)
      }
      return info
    }

    /// Twice the enlargements, and one more when a levelled pair waits.
    private var score: Int { 2 * enlargements + (waiting >= 0 ? 1 : 0) }
    /// The enlargements' places plus 1,000 times the distortion spent.
    private var cost: Double { places + 1000 * distortion }
  }

  /// What ranks a state (``Info/isBetter(than:)``): kept apart from the rest of what it has
  /// made, so that a step ranks its candidates without copying the rest.
  struct Rank {
    var score: Int
    var cost: Double

    func isBetter(than other: Rank) -> Bool {
      if score != other.score { return score > other.score }
      return cost < other.cost
    }
  }

  /// A levelling of a state: the pair from `left`, the line both meet at, its distortion.
  typealias Levelling = (left: Int, line: Double, distortion: Double)

  /// A state a step ranks: the one placed in `slot`, levelled by `levelling` unless its `left`
  /// is −1, and the rank of what it would have made.
  struct Candidate {
    var slot: Int
    var levelling: Levelling
    var rank: Rank
  }

  let columns: Int
  /// The length of a state's bottoms and flags: the columns and the two sentinels.
  let stride: Int
  /// The first item a levelling may move (``Planner/floor``).
  let floor: Int
  /// Each state's real numbers: its bottoms (with the sentinels), then per column the look-ahead's
  /// last enlarged item's top and bottom, then the tails' natural extents, then per column the
  /// sum of its whole tail (``subscript(wholeTail:_:)``).
  private let reals: OwnedMemory<Double>
  private let realsPerState: Int
  /// Each state's tails, by position and partner (the partner column of an enlarged item heading
  /// a tail, or −1: ``Planner``), then per column the tail's length and the position of the
  /// enlarged item its run starts below, or −1 (``Planner``).
  private let integers: OwnedMemory<Int>
  private let integersPerState: Int
  private let flagBytes: OwnedMemory<UInt8>
  private let infos: OwnedMemory<Info>
  /// The cheapest levellings of the state last asked (``levellings(_:before:bound:)``).
  let cheapest: OwnedMemory<Levelling>
  /// The slots of the states kept, best first once ranked.
  let parents: OwnedMemory<Int>
  var parentCount = 0
  /// The slots that hold no state kept, as a stack.
  let free: OwnedMemory<Int>
  var freeCount: Int
  /// What a step ranks, and the best of them, by index, best first.
  let candidates: OwnedMemory<Candidate>
  let ranked: OwnedMemory<Int>
  /// Per slot, whether a step keeps its state (set only while a step ends).
  let kept: OwnedMemory<Bool>

  init(columns: Int, floor: Int) {
    self.columns = columns
    self.floor = floor
    stride = columns + 2
    let slots = Self.slots
    let tails = columns * PlannedAlignment.tailLength
    realsPerState = stride + 3 * columns + tails
    integersPerState = 2 * tails + 2 * columns
    reals = OwnedMemory(unwrittenCount: slots * realsPerState)
    integers = OwnedMemory(unwrittenCount: slots * integersPerState)
    flagBytes = OwnedMemory(unwrittenCount: slots * stride)
    infos = OwnedMemory(unwrittenCount: slots)
    cheapest = OwnedMemory(unwrittenCount: PlannedAlignment.branches)
    parents = OwnedMemory(unwrittenCount: PlannedAlignment.beamWidth)
    free = OwnedMemory(unwrittenCount: slots)
    for slot in 0..<slots { free[slot] = slots - 1 - slot }
    freeCount = slots
    candidates = OwnedMemory(unwrittenCount: Self.candidatesPerStep)
    ranked = OwnedMemory(unwrittenCount: PlannedAlignment.beamWidth)
    kept = OwnedMemory(repeating: false, count: slots)
  }

  // The parts of state `slot`; `column` from −1 (a sentinel) in bottoms and flags, from 0 in
  // the others, `index` the place in a tail.

  subscript(bottom slot: Int, column: Int) -> Double {
    get { reals[slot &* realsPerState &+ column &+ 1] }
    nonmutating set { reals[slot &* realsPerState &+ column &+ 1] = newValue }
  }

  subscript(flags slot: Int, column: Int) -> UInt8 {
    get { flagBytes[slot &* stride &+ column &+ 1] }
    nonmutating set { flagBytes[slot &* stride &+ column &+ 1] = newValue }
  }

  subscript(enlargedTop slot: Int, column: Int) -> Double {
    get { reals[slot &* realsPerState &+ stride &+ column] }
    nonmutating set { reals[slot &* realsPerState &+ stride &+ column] = newValue }
  }

  subscript(enlargedBottom slot: Int, column: Int) -> Double {
    get { reals[slot &* realsPerState &+ stride &+ columns &+ column] }
    nonmutating set { reals[slot &* realsPerState &+ stride &+ columns &+ column] = newValue }
  }

  subscript(tailNatural slot: Int, column: Int, index: Int) -> Double {
    get { reals[tailReal(slot, column, index)] }
    nonmutating set { reals[tailReal(slot, column, index)] = newValue }
  }

  subscript(tailPosition slot: Int, column: Int, index: Int) -> Int {
    get { integers[tailInteger(slot, column, index)] }
    nonmutating set { integers[tailInteger(slot, column, index)] = newValue }
  }

  subscript(tailPartner slot: Int, column: Int, index: Int) -> Int {
    get { integers[tailInteger(slot, column, index) &+ columns &* PlannedAlignment.tailLength] }
    nonmutating set {
      integers[tailInteger(slot, column, index) &+ columns &* PlannedAlignment.tailLength] =
        newValue
    }
  }

  /// A tail's length. Setting it also sums the tail's natural extents into
  /// ``subscript(wholeTail:_:)``: a tail's extents are set before its length.
  subscript(tailCount slot: Int, column: Int) -> Int {
    get {
      integers[slot &* integersPerState &+ 2 &* columns &* PlannedAlignment.tailLength &+ column]
    }
    nonmutating set {
      integers[slot &* integersPerState &+ 2 &* columns &* PlannedAlignment.tailLength &+ column] =
        newValue
      reals[slot &* realsPerState &+ realsPerState &- columns &+ column] = summedTail(
        slot, column, count: newValue)
    }
  }

  /// The natural sum of the whole tail of `column` in state `slot`: at least what any levelling
  /// may move of it. Checked against the tail in debug builds.
  subscript(wholeTail slot: Int, column: Int) -> Double {
    let sum = reals[slot &* realsPerState &+ realsPerState &- columns &+ column]
    assert(
      sum == summedTail(slot, column, count: self[tailCount: slot, column]),
      "tail \(column) of state \(slot) changed unsummed")
    return sum
  }

  private func summedTail(_ slot: Int, _ column: Int, count: Int) -> Double {
    var sum = 0.0
    for index in 0..<count { sum += self[tailNatural: slot, column, index] }
    return sum
  }

  subscript(runHead slot: Int, column: Int) -> Int {
    get {
      integers[
        slot &* integersPerState &+ (2 &* PlannedAlignment.tailLength &+ 1) &* columns &+ column]
    }
    nonmutating set {
      integers[
        slot &* integersPerState &+ (2 &* PlannedAlignment.tailLength &+ 1) &* columns &+ column] =
        newValue
    }
  }

  subscript(info slot: Int) -> Info {
    get { infos[slot] }
    nonmutating set { infos[slot] = newValue }
  }

  /// The slot of the state kept at `index` (best first once ranked).
  subscript(parent index: Int) -> Int {
    assert(index < parentCount, "parent \(index) of \(parentCount)")
    return parents[index]
  }

  private func tailReal(_ slot: Int, _ column: Int, _ index: Int) -> Int {
    slot &* realsPerState &+ stride &+ 2 &* columns &+ column &* PlannedAlignment.tailLength
      &+ index
  }

  private func tailInteger(_ slot: Int, _ column: Int, _ index: Int) -> Int {
    slot &* integersPerState &+ column &* PlannedAlignment.tailLength &+ index
  }

  /// Sets state `slot` to the columns of `view` and the planner's tails that a levelling before
  /// `next` may move.
  func load(
    _ slot: Int, from view: ColumnView, planner: borrowing Planner, before next: Int,
    previousEnlarged: UInt8, waiting: Int, cursor: Int
  ) {
    for column in -1...columns {
      self[bottom: slot, column] = view.bottoms[column]
      self[flags: slot, column] = view.flags[column]
    }
    let length = PlannedAlignment.tailLength
    for column in 0..<columns {
      let (first, _) = planner.tail(column, before: next, pair: nil)
      let count = planner.tailCount[column] - first
      for index in 0..<count {
        let source = column * length + first + index
        self[tailPosition: slot, column, index] = planner.tailOffset[source]
        self[tailNatural: slot, column, index] = planner.tailNatural[source]
        self[tailPartner: slot, column, index] = planner.tailPartner[source]
      }
      self[tailCount: slot, column] = count
      self[runHead: slot, column] = planner.runHead[column]
      self[enlargedTop: slot, column] = .nan
      self[enlargedBottom: slot, column] = .nan
    }
    self[info: slot] = Info(previousEnlarged: previousEnlarged, waiting: waiting, cursor: cursor)
  }

  /// Makes state `slot` a copy of state `from`.
  func copy(_ from: Int, to slot: Int) {
    reals.copy(realsPerState, from: from &* realsPerState, to: slot &* realsPerState)
    integers.copy(integersPerState, from: from &* integersPerState, to: slot &* integersPerState)
    flagBytes.copy(stride, from: from &* stride, to: slot &* stride)
    infos[slot] = infos[from]
  }

  /// Calls `body` with state `slot`'s columns as a view.
  private func withView<Result>(
    _ slot: Int, rowSpacing: Double, insetTop: Double, _ body: (ColumnView) -> Result
  ) -> Result {
    let bottoms = reals.buffer(slot * realsPerState..<slot * realsPerState + stride)
    return body(
      ColumnView(
        bottoms: ColumnValues(bottoms), reachable: ColumnValues(bottoms),
        flags: ColumnValues(flagBytes.buffer(slot * stride..<(slot + 1) * stride)),
        count: columns, insetTop: insetTop, rowSpacing: rowSpacing))
  }

  /// Places an item of natural extent `natural` across `span` columns, at batch offset
  /// `position`, in state `slot`: by the chooser; enlarged where the rule allows and a levelled
  /// pair waits for it, or none waits (an enlargement is assumed wanted). Returns what the
  /// state has made since, which it also stores.
  @discardableResult
  func place<Chooser: ColumnChooser>(
    _ slot: Int, natural: Double, span: Int, at position: Int, root: Int, chooser: Chooser,
    enlargement: Enlargement, rowSpacing: Double, insetTop: Double
  ) -> Info {
    var chooser = chooser
    let state = self[info: slot]
    chooser.cursor = state.cursor
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
    var info = state
    info.cursor = chooser.cursor
    info.previousEnlarged = enlarged ? ColumnState.endsEnlarged : 0
    for index in column..<column + covered {
      self[bottom: slot, index] = bottom
      self[flags: slot, index] = enlarged ? ColumnState.endsEnlarged : 0
    }
    // (Returned, not read back: a read of what was just stored in parts waits for the stores.)
    defer { self[info: slot] = info }
    if enlarged {
      info.enlargements += 1
      info.places += Double(position - root)
      info.waiting = -1
      // Each of its columns, the other its partner (a range: no array on this path).
      for index in column...column + 1 {
        (self[tailPosition: slot, index, 0], self[tailNatural: slot, index, 0]) = (
          position, bottom - top
        )
        self[tailPartner: slot, index, 0] = 2 * column + 1 - index
        self[tailCount: slot, index] = 1
        self[runHead: slot, index] = position
        self[enlargedTop: slot, index] = top
        self[enlargedBottom: slot, index] = bottom
      }
      return info
    }
    let waiting = info.waiting
    if waiting >= 0, column <= waiting + 1, column + covered > waiting { info.waiting = -1 }
    guard covered == 1 else {
      for index in column..<column + covered {
        self[tailCount: slot, index] = 0
        self[runHead: slot, index] = -1
      }
      return info
    }
    var count = self[tailCount: slot, column]
    if count == PlannedAlignment.tailLength {
      for index in 0..<count - 1 {
        self[tailPosition: slot, column, index] = self[tailPosition: slot, column, index + 1]
        self[tailNatural: slot, column, index] = self[tailNatural: slot, column, index + 1]
        self[tailPartner: slot, column, index] = self[tailPartner: slot, column, index + 1]
      }
      count -= 1
    }
    self[tailPosition: slot, column, count] = position
    self[tailNatural: slot, column, count] = natural
    self[tailPartner: slot, column, count] = -1
    self[tailCount: slot, column] = count + 1
    return info
  }

  /// Whether the last enlarged item the look-ahead placed in `column` of state `slot` overlaps
  /// an enlarged item of natural height `height` at `top`.
  private func overlapsEnlarged(
    _ slot: Int, _ column: Int, top: Double, height: Double, rowSpacing: Double
  ) -> Bool {
    guard column >= 0, column < columns else { return false }
    let reach = top + 2 * height + rowSpacing
    return self[enlargedBottom: slot, column] > top && self[enlargedTop: slot, column] < reach
  }

  /// The first item a levelling made before the item at `next` may move: one of the last
  /// ``PlannedAlignment/window`` placed, and not below `floor`.
  static func reach(before next: Int, floor: Int) -> Int {
    max(next - PlannedAlignment.window, floor)
  }
}
