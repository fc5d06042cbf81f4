/// The enlargement rule of the irregular style.
///
/// An item placed in column *k* is enlarged across columns *k* and *k* + 1 when *k* is not the
/// last column, the two columns are both empty or end at exactly the same bottom, the previous
/// item was not enlarged, neither column's last item is enlarged, no enlarged item in column
/// *k* − 1 or *k* + 2 overlaps the extent it would take, and a draw from the seeded
/// ``SplitMix64`` stream passes ``LayoutConfiguration/enlargeChance``. The draw is made only
/// when every other condition holds. An enlarged item of natural height *h* is `2w +
/// columnSpacing` wide and `2h + rowSpacing` tall, for the column width *w*; it ends both
/// columns, and is marked enlarged.
///
/// The rule applies to items of one column only; an item that asks for a span keeps it.
struct Enlargement {
  /// The stream of the draws.
  private(set) var generator: SplitMix64
  let chance: Double
  /// Per column, the extents of the enlarged items covering it, top to bottom, as memory the
  /// placement loop borrows for a batch (so that adding one copies nothing).
  let runs: UnsafeMutableBufferPointer<[ClosedRange<Double>]>

  /// The extent and bottom of the item of natural height `height` at `top` in `column`, whose
  /// stored bottom is `bottom`, if the rule enlarges it; its run is then added to both columns.
  ///
  /// `previousEnlarged` is ``ColumnState/endsEnlarged`` when the previous item was enlarged.
  /// `wanted` decides in place of the draw when it is given: the planned alignment
  /// (``PlannedAlignment``) draws when an enlargement is wanted, not where one may be made.
  @inline(__always)
  mutating func enlarged(
    column: Int, bottom: Double, top: Double, height: Double, previousEnlarged: UInt8,
    in columns: ColumnView, wanted: Bool? = nil
  ) -> (extent: Double, bottom: Double)? {
    guard
      Self.allows(column: column, bottom: bottom, previousEnlarged: previousEnlarged, in: columns)
    else { return nil }
    // The frame's extent and bottom; the extent tested for overlaps is summed from the top
    // (top + 2h, then the spacing), which may round otherwise by an ulp.
    let extent = Self.extent(ofHeight: height, rowSpacing: columns.rowSpacing)
    let enlargedBottom = top + extent
    if overlapsNeighbours(column: column, top: top, height: height, rowSpacing: columns.rowSpacing)
    {
      return nil
    }
    guard wanted ?? generator.draw(chance) else { return nil }
    let run = top...enlargedBottom
    runs[column].append(run)
    runs[column &+ 1].append(run)
    return (extent, enlargedBottom)
  }

  /// Whether the columns let an item placed in `column`, whose stored bottom is `bottom`, be
  /// enlarged: `column` is not the last, it and the next are both empty or both not and level,
  /// neither ends with an enlarged item, and the previous item was not enlarged.
  @inline(__always)
  static func allows(column: Int, bottom: Double, previousEnlarged: UInt8, in columns: ColumnView)
    -> Bool
  {
    let (empty, endsEnlarged) = (ColumnState.empty, ColumnState.endsEnlarged)
    let next = column &+ 1
    let (here, right) = (columns.flags[column], columns.flags[next])
    // Columns both empty, or both not and level, are exactly the neighbours with equal stored
    // bottoms and the same emptiness (an empty column's bottom is the top inset); the NaN of
    // the sentinel past the last column equals nothing. The conditions on flags are one number,
    // 0 when all hold, and so are the bottoms' bits, so that one test decides them all: as tests
    // of their own, the compiler made each a branch, and the processor mispredicts the bottoms'.
    let unlike = UInt64((here ^ right) & empty | (here | right | previousEnlarged) & endsEnlarged)
    // Equal bits are equal bottoms here: no bottom is NaN but the sentinel's, whose bits no
    // bottom has, and only empty columns can have a zero bottom, all the same top inset.
    let apart = bottom.bitPattern ^ columns.bottoms[next].bitPattern
    return apart | unlike == 0
  }

  /// Whether an enlarged item at `top` in `column` and the next, of one-column natural height
  /// `height`, would overlap an enlarged item in the column before or the column after them.
  @inline(__always)
  func overlapsNeighbours(column: Int, top: Double, height: Double, rowSpacing: Double) -> Bool {
    let reach = top + 2 * height + rowSpacing
    let next = column &+ 1
    if column > 0, Self.overlaps(runs[column &- 1], top: top, bottom: reach) { return true }
    return next &+ 1 < runs.count && Self.overlaps(runs[next &+ 1], top: top, bottom: reach)
  }

  /// A draw from the seeded stream at the chance: for the planned alignment, whether an
  /// enlargement is wanted.
  @inline(__always)
  mutating func draw() -> Bool { generator.draw(chance) }

  /// The extent of an enlarged item whose one-column natural height is `height`: two rows'
  /// worth, `2h + rowSpacing`.
  @inline(__always)
  static func extent(ofHeight height: Double, rowSpacing: Double) -> Double {
    2 * height + rowSpacing
  }

  /// Whether any of `runs` (top to bottom, disjoint) overlaps the open extent `top..<bottom`.
  ///
  /// - Complexity: O(log *m*) for *m* runs.
  static func overlaps(_ runs: [ClosedRange<Double>], top: Double, bottom: Double) -> Bool {
    // The first run ending below `top`; runs are stacked, so later ones end lower. Items are
    // placed near the columns' bottoms, so it is nearly always the last run or none: those two
    // cases are settled first, without the search's unpredictable branches.
    guard let last = runs.last, last.upperBound > top else { return false }
    if runs.count == 1 || runs[runs.count - 2].upperBound <= top { return last.lowerBound < bottom }
    var low = 0
    var high = runs.count - 2
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].upperBound > top { high = middle } else { low = middle + 1 }
    }
    return runs[low].lowerBound < bottom
  }
}
