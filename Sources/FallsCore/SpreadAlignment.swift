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
  /// The share of the bound a correction may spend, past the seed's: measured on the real
  /// feeds (mj-shop-1, xr-waterfall) and 500 random sizes, spending the whole bound keeps as
  /// many enlargements as the seed but distorts the corrected items by 5–6% on average; 70%
  /// keeps nearly as many at 3–4%.
  static let enlargingShare = 0.7

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
    // A margin below the bound, for the ulps the restacking moves the last height by.
    let bound = bound * (1 - 1e-9)
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
    @inline(__always) func consider(_ distortion: Double, _ correction: Correction) {
      guard distortion <= limit, distortion < least else { return }
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
      consider(abs(gap) / own, Correction(bottom: bottom, neighbour: neighbour, isHalfway: false))
      if runs.count(neighbour) > 0 {
        let theirs = runs.naturalSum(neighbour)
        consider(
          abs(gap) / (own + theirs),
          Correction(
            bottom: naturalBottom + gap * (own / (own + theirs)), neighbour: neighbour,
            isHalfway: true))
      }
    }
    return best
  }
}

/// Which items of a batch each column's end may move: a no-op for the layouts that never move
/// an item once placed (the plain waterfall, and the seed's alignment without a flat end), so
/// that their placement loop carries nothing of it.
protocol RunTracking {
  init(columns: Int)
  /// Notes the one-column item at batch offset `offset`, of natural extent `natural`, placed at
  /// `top` in `column` at its natural extent.
  mutating func add(_ offset: Int, column: Int, top: Double, natural: Double)
  /// Makes `column`'s bottom a fixed edge: its run is empty.
  mutating func fix(_ column: Int)
  /// How many items `column`'s run holds; 0 for a column outside the layout.
  func count(_ column: Int) -> Int
  /// The sum of the natural extents of `column`'s run.
  func naturalSum(_ column: Int) -> Double
  /// See ``FreeRuns/restack(_:to:rowSpacing:width:startCount:transform:into:current:)``.
  mutating func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?
  ) -> (top: Double, extent: Double)?
  /// The runs, for a flat end; `nil` where none are kept.
  var kept: FreeRuns? { get }
}

/// The layouts whose items never move.
struct NoRuns: RunTracking {
  init(columns: Int) {}
  @inline(__always) func add(_ offset: Int, column: Int, top: Double, natural: Double) {}
  @inline(__always) func fix(_ column: Int) {}
  func count(_ column: Int) -> Int { 0 }
  func naturalSum(_ column: Int) -> Double { 0 }
  func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>, current: Int?
  ) -> (top: Double, extent: Double)? { nil }
  var kept: FreeRuns? { nil }
}

/// Each column's free run: its items' batch offsets and natural extents, top down, and the top
/// of the first.
struct FreeRuns: RunTracking, Sendable {
  private var members: [[(offset: Int, natural: Double)]]
  private var sums: [Double]
  private var tops: [Double]

  init(columns: Int) {
    members = Array(repeating: [], count: columns)
    sums = Array(repeating: 0, count: columns)
    tops = Array(repeating: 0, count: columns)
  }

  /// How many items `column`'s run holds; 0 for a column outside the layout.
  func count(_ column: Int) -> Int {
    members.indices.contains(column) ? members[column].count : 0
  }

  /// The sum of the natural extents of `column`'s run.
  func naturalSum(_ column: Int) -> Double { sums[column] }

  mutating func add(_ offset: Int, column: Int, top: Double, natural: Double) {
    if members[column].isEmpty {
      tops[column] = top
      sums[column] = 0
    }
    members[column].append((offset, natural))
    sums[column] += natural
  }

  mutating func fix(_ column: Int) {
    members[column].removeAll(keepingCapacity: true)
    sums[column] = 0
  }

  var kept: FreeRuns? { self }

  /// The columns whose run holds items, with the natural bottom of each run (the bottom the
  /// column has: its items are at their natural extents) left to the caller.
  var movableColumns: [Int] { members.indices.filter { !members[$0].isEmpty } }

  /// Scales `column`'s run by one factor so that it ends exactly at `bottom`, stacks it again
  /// from its top with `rowSpacing` between items, writes each item's element into `placed`
  /// (at its batch offset; element index `startCount` + offset), and fixes the column's bottom.
  /// The item at offset `current`, if it is in the run, is not written: its top and extent are
  /// returned.
  ///
  /// The factor is `(bottom − top − (k − 1) · rowSpacing) / Σ natural` for *k* items; the last
  /// item takes the height that lands exactly on `bottom` (``Alignment/height(from:reaching:)``).
  mutating func restack<Transform: FrameTransform>(
    _ column: Int, to bottom: Double, rowSpacing: Double, width: Double, startCount: Int,
    transform: Transform, into placed: UnsafeMutableBufferPointer<LayoutElement>,
    current: Int? = nil
  ) -> (top: Double, extent: Double)? {
    let run = members[column]
    let factor = (bottom - tops[column] - Double(run.count - 1) * rowSpacing) / sums[column]
    var top = tops[column]
    var kept: (top: Double, extent: Double)?
    for (index, member) in run.enumerated() {
      let extent =
        index == run.count - 1
        ? Alignment.height(from: top, reaching: bottom) : member.natural * factor
      if member.offset == current {
        kept = (top, extent)
      } else {
        placed[member.offset] = LayoutElement(
          checkedIndex: startCount &+ member.offset, column: column, span: 1,
          frame: transform.frame(column: column, span: 1, top: top, extent: extent, width: width),
          isEnlarged: false, isAligned: extent != member.natural)
      }
      top = top + extent + rowSpacing
    }
    fix(column)
    return kept
  }
}
