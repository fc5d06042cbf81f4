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
  /// The share of the bound a correction may spend, past the seed's: the least that keeps the
  /// enlargements within one of the seed's, since a larger share distorts more for few more
  /// enlargements, and a smaller one loses them (docs/layout-rules.md, "Alignment").
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
      abs(target.bottom - naturalBottom) <= bound * height
    {
      return Correction(bottom: target.bottom, neighbour: column &+ target.side, isHalfway: false)
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
