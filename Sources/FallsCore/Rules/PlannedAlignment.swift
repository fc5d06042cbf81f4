/// The `planned` alignment of the irregular style (``AlignmentStrategy/planned``): two columns
/// are levelled only so that an enlargement can follow, where and when a look-ahead over the
/// next items finds that it buys the most enlargements for the least distortion.
///
/// - Placement and enlargement are the seed's (`Enlargement`), but for what decides in place
///   of the draw. Before the layout's first item, and after each one-column placement while no
///   enlargement is wanted and no levelled pair waits, one draw at
///   ``LayoutConfiguration/enlargeChance`` says whether one is wanted. An item placed on a level
///   pair that the rule allows is enlarged when one is wanted, or when the pair was levelled
///   for it.
/// - A pair of adjacent columns qualifies when both hold items and neither ends with an
///   enlarged item. Its gap is closed by scaling each column's *tail* (its last ``tailLength``
///   items since its last fixed edge, among the last ``window`` placed) by one factor, the two
///   meeting where both take the same distortion, |gap| / (the sum of both tails' natural
///   heights). A levelling is made only when that distortion is above noise and at most the
///   bound (``bound``, or ``LayoutConfiguration/maxDistortion`` when that is less), and when
///   placing the items since the first one moved again, at their new heights, chooses every
///   column as before: every final frame obeys "shortest column".
/// - When an enlargement is wanted and no levelled pair waits, a beam search over the next
///   ``horizon`` items (`Planner`) decides whether to level now, and which pair: it simulates
///   them at their natural heights (an item not yet appended at the mean of the last
///   one-column items seen), every levelling assumed to be followed by its enlargement, each
///   step branching into no levelling and the ``branches`` cheapest ones, and keeps the
///   ``beamWidth`` best states, ranked by enlargements (half of one more when a levelled pair
///   waits), then by the sum of the enlargements' places in the look-ahead plus 1,000 times the
///   distortion spent. The first step of the best state is made. A plan
///   that waits is followed: when it levels, its first levelling is made when its item comes,
///   if that pair still qualifies, without looking ahead again; when it does not, the
///   look-ahead runs again ``idleItems`` items later. After the enlargement a levelling was
///   for, the plan's second levelling is followed in the same way, if it comes within the
///   plan's first ``followedItems``.
/// - Fixed edges are a levelling's line, the bottom of an enlarged or spanning item and the
///   start of a batch (earlier pages never move). An item is moved at most once, so no height
///   is more than the bound from its natural height.
public enum PlannedAlignment {
  /// The most a levelling may distort an item.
  public static let bound = 0.03
  /// The most items of a column's end a levelling moves.
  public static let tailLength = 3
  /// How many of the last items placed a levelling may move.
  public static let window = 9
  /// How many of the next items the look-ahead simulates.
  public static let horizon = 20
  /// How many states the look-ahead keeps from one item to the next.
  public static let beamWidth = 16
  /// How much worse than the best a plan may rank and still be chosen, in the look-ahead's
  /// cost (the enlargements' places plus 1,000 × the distortion spent: 1 is an enlargement an
  /// item later, or 0.1% more distortion), with as many enlargements. A wider margin gives more
  /// layouts per feed and fewer enlargements: at 10, xr-waterfall takes 12.9% against 14.3%.
  public static let margin = 4.0
  /// Through how many of its items a plan is followed: its second levelling is made when its
  /// item comes, after the enlargement the first is for, if it comes within them and its pair
  /// still qualifies; a later one is planned again, with more items in view. (At 1,000,000
  /// items that saves a third of the time, for as many enlargements within 0.4 points; followed
  /// through all 20, random 500 loses 0.4 points more for a tenth less time.)
  public static let followedItems = 14
  /// How many items a plan without a levelling is followed before the look-ahead runs again.
  /// (A plan with one is followed to its first levelling, made without a second look-ahead:
  /// at 1,000,000 items that halves the time, for as many enlargements within 0.5 points.)
  public static let idleItems = 4
  /// How many levellings, cheapest first, each state of the look-ahead tries.
  public static let branches = 2
  /// The most columns the look-ahead simulates; a wider layout levels the cheapest pair that
  /// qualifies as soon as an enlargement is wanted, so that an item costs O(*c*) for *c*
  /// columns, as in the other rules.
  public static let mostPlannedColumns = 64

  /// The distortion a levelling may have under `maxDistortion`, less the rounding of stacking
  /// items again (``SpreadAlignment/usable(_:)``).
  static func usable(_ maxDistortion: Double) -> Double {
    SpreadAlignment.usable(min(bound, maxDistortion))
  }
}

/// What the planned alignment carries from one batch to the next.
struct PlanState: Hashable, Sendable {
  /// Whether an enlargement is wanted: a draw said so, and none has been made since.
  var wanted = false
  /// The left column of the pair levelled for the next enlargement, or −1 when none waits.
  var waiting = -1
  /// The stream that chooses among plans nearly as good as the best (``PlannedAlignment/margin``),
  /// so that another seed gives another layout: the layout's seed, mixed apart from the draws'.
  var choices: SplitMix64

  init(seed: UInt64) {
    choices = SplitMix64(seed: seed ^ 0x5EED_0F_91A_77ED)
  }
}

/// What a placement loop keeps for the planned alignment: a no-op for the other rules
/// (``NoPlanner``), so that their loops carry nothing of it.
protocol AlignmentPlanning {
  /// The planner of one batch in `columns` columns, from the state the batch before left: the
  /// memory `resuming` goes on when it is given, else a new one starts at the batch's first
  /// item, the layout's item `first`; a levelling moves no item below `floor`.
  init(
    resuming: Planner?, columns: Int, state: PlanState, bound: Double, floor: Int, first: Int)
  /// The memory to go on with in the next batch; `nil` for the rules that keep none.
  var carried: Planner? { get }
  var state: PlanState { get set }
  /// Notes the next item of the batch not yet seen, of natural extent `natural` across `span`
  /// columns (NaN, or not positive, when it cannot be placed), for the look-ahead.
  mutating func see(natural: Double, span: Int)
  /// Notes the placement of the item at batch offset `offset`, made in `view` as it was before
  /// it, the chooser's cursor then `cursor`.
  mutating func record(
    _ placement: Placement, offset: Int, top: Double, cursor: Int, before view: ColumnView)
  /// Whether an item placed in `column`, where the enlargement rule allows one, is enlarged.
  func enlargementWanted(column: Int) -> Bool
  /// Levels a pair before the item at batch offset `next` if the plan says so now; returns
  /// whether it did.
  mutating func level<Chooser: ColumnChooser, Transform: FrameTransform, Runs: RunTracking>(
    before next: Int, view: ColumnView, chooser: Chooser, enlargement: Enlargement,
    previousEnlarged: UInt8, runs: Runs, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int,
    widths: (column: Double, enlarged: Double)
  ) -> Bool
}

/// One placement, as the planned alignment remembers it.
struct Placement {
  var column: Int
  var span: Int
  var extent: Double
  /// The natural extent of a one-column item at its natural height; 0 for any other.
  var natural: Double
  var isEnlarged: Bool
}

/// The rules that do not plan.
struct NoPlanner: AlignmentPlanning {
  init(
    resuming: Planner?, columns: Int, state: PlanState, bound: Double, floor: Int, first: Int
  ) {}
  var carried: Planner? { nil }
  var state: PlanState {
    get { PlanState(seed: 0) }
    set {}
  }
  @inline(__always) mutating func see(natural: Double, span: Int) {}
  @inline(__always) mutating func record(
    _ placement: Placement, offset: Int, top: Double, cursor: Int, before view: ColumnView
  ) {}
  func enlargementWanted(column: Int) -> Bool { false }
  mutating func level<Chooser: ColumnChooser, Transform: FrameTransform, Runs: RunTracking>(
    before next: Int, view: ColumnView, chooser: Chooser, enlargement: Enlargement,
    previousEnlarged: UInt8, runs: Runs, transform: Transform,
    placed: UnsafeMutableBufferPointer<LayoutElement>, startCount: Int,
    widths: (column: Double, enlarged: Double)
  ) -> Bool { false }
}
