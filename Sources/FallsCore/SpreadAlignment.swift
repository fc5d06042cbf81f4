/// The `spread` alignment of the irregular style (``AlignmentStrategy/spread``), and the free
/// runs it moves, which the flat end (``WaterfallLayout/flattenEnd()``) moves too.
///
/// A column's *free run* is its items since its last *fixed edge*: the column's start, the start
/// of the batch (a page: earlier pages never move), the bottom of an enlarged item or of an item
/// with a span, and a bottom another column met. The items of a free run are at their natural
/// heights, stacked exactly. Under `spread`, an item placed in column *c* may end *c*'s run on a
/// neighbour's bottom by scaling every item of the run by one factor and stacking them again,
/// exactly, from the run's top; or both columns may meet halfway, each run scaled towards the
/// other. The line met is then a fixed edge of both. No item's height moves from its natural
/// height by more than ``LayoutConfiguration/maxDistortion``.
///
/// Which correction is made, for the item just placed in *c*:
/// 1. If *c*'s run is that item alone and the seed's rule (``Alignment``) aligns it within the
///    bound, the seed's correction: `spread` generalises the seed's rule.
/// 2. Otherwise (but in the last rows of a page placed again for a flat end, which stay free
///    for it), of the corrections that meet the right or the left neighbour (*c*'s run alone,
///    or halfway with the neighbour's run when it has one), the least distorting, if it levels
///    two columns that may then take an enlarged item (the neighbour does not end with one) and
///    distorts by at most ``enlargingShare`` of the bound. A correction that levels nothing an
///    enlargement could use is not made: it would distort for nothing.
enum SpreadAlignment {
  /// The share of the bound a correction may spend, past the seed's. Measured on the real feeds
  /// (mj-shop-1, xr-waterfall) and 500 random sizes (README, "Alignment"): the whole bound keeps
  /// at least the seed's enlargements but distorts the corrected items by 5–6% on average; 70%
  /// keeps them within one of the seed's at 3–5%; 50% falls to 3–4% but loses a fifth of them.
  static let enlargingShare = 0.7

  /// How many ulps of a run's bottom a correction must move it by, at least, to be one the
  /// frames show (a run's factor is read from its positions to a few of their ulps).
  static let noiseUlps = 128

  /// The distortion a correction may plan for under `bound`: a millionth less, for the rounding
  /// of stacking a run again (each top is a sum, and the last height absorbs their errors),
  /// which the fuzzer saw reach two billionths of the bound on columns a third of a point wide.
  static func usable(_ bound: Double) -> Double {
    bound * (1 - 1e-6)
  }

  /// A correction: the bottom both columns end at, and the neighbour met.
  struct Correction: Equatable {
    var bottom: Double
    /// The neighbour column whose bottom is met, or moved to meet halfway.
    var neighbour: Int
    /// Whether the neighbour's run moves too.
    var isHalfway: Bool
  }

  /// The correction for the item of natural height `height` just placed at `top` in `column`,
  /// already added to `runs`, if one is made; `tolerance` is the seed's, `bound` the largest
  /// distortion.
  @inline(__always)
  static func correction(
    column: Int, top: Double, height: Double, runs: some RunTracking, view: ColumnView,
    tolerance: Double, bound: Double, isSeedOnly: Bool = false
  ) -> Correction? {
    let bound = usable(bound)
    let naturalBottom = top + height
    let (left, right) = (view.reachable[column &- 1], view.reachable[column &+ 1])
    if runs.count(column) == 1,
      let target = Alignment.target(
        top: top, height: height, tolerance: tolerance, left: left, right: right),
      abs(target - naturalBottom) <= bound * height
    {
      return Correction(
        bottom: target, neighbour: target == right ? column &+ 1 : column &- 1, isHalfway: false)
    }
    guard !isSeedOnly else { return nil }
    let limit = bound * enlargingShare
    let own = runs.naturalSum(column)
    var best: Correction?
    var least = Double.infinity
    // A correction that moves nothing but by floating-point noise is not made: the columns
    // meet, or miss by rounding, and an edge fixed by nothing the frames show would be a rule no
    // reader of them could check. Noise is a billionth of a run's height, or where items lie far
    // down (a row spacing of 10^9 points) the ulps of their positions over it (``noiseUlps``).
    let positionNoise = Double(noiseUlps) * naturalBottom.ulp
    @inline(__always) func consider(_ distortion: Double, _ correction: Correction, run: Double) {
      guard distortion > LayoutQuality.noise, distortion * run > positionNoise,
        distortion <= limit, distortion < least
      else { return }
      (best, least) = (correction, distortion)
    }
    // Right first, as the seed looks; on equal distortion the first considered stays.
    for neighbour in stride(from: column &+ 1, through: column &- 1, by: -2) {
      let bottom = view.reachable[neighbour]
      // An empty or missing column (NaN), or one ending with an enlarged item, which no
      // enlargement may follow.
      guard !bottom.isNaN, view.flags[neighbour] & ColumnState.endsEnlarged == 0 else {
        continue
      }
      let gap = bottom - naturalBottom
      consider(
        abs(gap) / own, Correction(bottom: bottom, neighbour: neighbour, isHalfway: false),
        run: own)
      if runs.count(neighbour) > 0 {
        let theirs = runs.naturalSum(neighbour)
        consider(
          abs(gap) / (own + theirs),
          Correction(
            bottom: naturalBottom + gap * (own / (own + theirs)), neighbour: neighbour,
            isHalfway: true),
          run: min(own, theirs))
      }
    }
    return best
  }
}

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
/// top. Flat arrays, so that noting an item is a few stores.
struct FreeRunMemory: Sendable {
  fileprivate var above: [Int32]
  fileprivate var naturals: [Double]
  fileprivate var lasts: [Int]
  fileprivate var counts: [Int]
  fileprivate var sums: [Double]
  fileprivate var tops: [Double]
  /// Room to put a run in order, top down, when it is stacked again.
  fileprivate var order: [Int32]

  init(columns: Int, items: Int) {
    above = Array(repeating: -1, count: items)
    naturals = Array(repeating: 0, count: items)
    lasts = Array(repeating: -1, count: columns)
    counts = Array(repeating: 0, count: columns)
    sums = Array(repeating: 0, count: columns)
    tops = Array(repeating: 0, count: columns)
    order = Array(repeating: 0, count: items)
  }
}

/// Each column's free run, as a view of a batch's ``FreeRunMemory`` that the placement loop
/// writes in place; every access is checked against the memory's end in debug builds.
struct FreeRuns: RunTracking {
  private let above: UnsafeMutableBufferPointer<Int32>
  private let naturals: UnsafeMutableBufferPointer<Double>
  private let lasts: UnsafeMutableBufferPointer<Int>
  private let counts: UnsafeMutableBufferPointer<Int>
  private let sums: UnsafeMutableBufferPointer<Double>
  private let tops: UnsafeMutableBufferPointer<Double>
  private let order: UnsafeMutableBufferPointer<Int32>

  static func memory(columns: Int, items: Int) -> FreeRunMemory {
    FreeRunMemory(columns: columns, items: items)
  }

  static func withRuns<Result>(_ memory: inout FreeRunMemory, _ body: (FreeRuns) -> Result)
    -> Result
  {
    memory.above.withUnsafeMutableBufferPointer { above in
      memory.naturals.withUnsafeMutableBufferPointer { naturals in
        memory.lasts.withUnsafeMutableBufferPointer { lasts in
          memory.counts.withUnsafeMutableBufferPointer { counts in
            memory.sums.withUnsafeMutableBufferPointer { sums in
              memory.tops.withUnsafeMutableBufferPointer { tops in
                memory.order.withUnsafeMutableBufferPointer { order in
                  body(
                    FreeRuns(
                      above: above, naturals: naturals, lasts: lasts, counts: counts, sums: sums,
                      tops: tops, order: order))
                }
              }
            }
          }
        }
      }
    }
  }

  static func kept(_ memory: FreeRunMemory) -> FreeRunMemory? { memory }

  @inline(__always)
  func count(_ column: Int) -> Int {
    column >= 0 && column < counts.count ? counts[column] : 0
  }

  @inline(__always)
  func naturalSum(_ column: Int) -> Double { sums[column] }

  @inline(__always)
  func add(_ offset: Int, column: Int, top: Double, natural: Double) {
    if counts[column] == 0 {
      tops[column] = top
      sums[column] = 0
    }
    above[offset] = Int32(truncatingIfNeeded: lasts[column])
    naturals[offset] = natural
    lasts[column] = offset
    counts[column] &+= 1
    sums[column] += natural
  }

  @inline(__always)
  func fix(_ column: Int) {
    counts[column] = 0
    lasts[column] = -1
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
    let count = counts[column]
    // The run top down, from the links that lead up from its last item.
    var member = lasts[column]
    for slot in stride(from: count - 1, through: 0, by: -1) {
      order[slot] = Int32(truncatingIfNeeded: member)
      member = Int(above[member])
    }
    let factor = (bottom - tops[column] - Double(count - 1) * rowSpacing) / sums[column]
    var top = tops[column]
    var kept: (top: Double, extent: Double)?
    for slot in 0..<count {
      let offset = Int(order[slot])
      let natural = naturals[offset]
      let extent =
        slot == count - 1 ? Alignment.height(from: top, reaching: bottom) : natural * factor
      if offset == current {
        kept = (top, extent)
      } else {
        placed[offset] = LayoutElement(
          checkedIndex: startCount &+ offset, column: column, span: 1,
          frame: transform.frame(column: column, span: 1, top: top, extent: extent, width: width),
          isEnlarged: false, isAligned: extent != natural)
      }
      top = top + extent + rowSpacing
    }
    fix(column)
    return kept
  }
}
