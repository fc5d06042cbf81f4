/// One item's placement, and what it carries from one item to the next during a batch.
struct ColumnStep<Rules: ColumnRules, Chooser: ColumnChooser, Transform: FrameTransform> {
  let view: ColumnView
  var chooser: Chooser
  let transform: Transform
  var enlargement: Enlargement
  /// ``ColumnState/endsEnlarged`` when the previous item was enlarged, else 0.
  var previousEnlarged: UInt8
  var lowest: Double
  let columnWidth: Double
  let columnSpacing: Double
  let alignTolerance: Double
  let maxDistortion: Double
  /// The columns' free runs, for the styles that move them.
  let runs: Rules.Runs
  /// The batch's elements so far, which a spread correction rewrites.
  let placed: UnsafeMutableBufferPointer<LayoutElement>
  /// The position of the batch's first item.
  let startCount: Int
  /// The position from which spread makes only the seed's corrections, and the planned
  /// alignment levels nothing (``ColumnsEngine/endStart``).
  let endStart: Int
  /// What the planned alignment keeps during the batch.
  var planner: Rules.Planning

  /// The element of `item`, the item at `position`: its column, its extent, and whether it is
  /// enlarged or aligned.
  @inline(__always)
  mutating func place(_ item: LayoutItem, at position: Int) throws(LayoutError) -> LayoutElement {
    if Rules.plans { planBefore(position) }
    // One column as a constant, so that the compiler makes the common case a path of its own.
    if item.span == 1 { return try place(item, at: position, span: 1) }
    // Other spans through a copy of the step: the call takes its address, and the loop's own
    // copy, whose address is never taken, stays in registers.
    var spanning = self
    defer { self = spanning }
    return try spanning.placeSpanning(item, at: position)
  }

  /// Lets the planned alignment level a pair before the item at `position`, when an
  /// enlargement is wanted and no levelled pair waits.
  @inline(never)
  private mutating func planBefore(_ position: Int) {
    // The layout's first item is drawn for as under the seed's rule: a draw before it says
    // whether an enlargement is wanted.
    if position == 0 { planner.state.wanted = enlargement.draw() }
    guard planner.state.wanted, planner.state.waiting < 0, position < endStart else { return }
    guard
      planner.level(
        before: position, view: view, chooser: chooser, enlargement: enlargement,
        previousEnlarged: previousEnlarged, runs: runs, transform: transform, placed: placed,
        startCount: startCount, widths: (columnWidth, enlargedWidth))
    else { return }
    // A column may have ended lower before: the lowest bottom is measured again.
    measureLowest()
  }

  /// Notes the item `position` places ahead of the one being placed, for the planned
  /// alignment's look-ahead: its natural extent across its columns, NaN when it cannot be
  /// placed.
  mutating func see(_ item: LayoutItem) {
    let span = min(item.span, view.count)
    let (across, along) = transform.extents(of: item)
    let width =
      span == 1
      ? columnWidth
      : ColumnsEngine.width(ofSpan: span, columnWidth: columnWidth, spacing: columnSpacing)
    let natural = ColumnsEngine.naturalExtent(width: width, across, along)
    let placeable =
      span >= 1 && across > 0 && isPositive(natural, atMost: LayoutConfiguration.maximumExtent)
    planner.see(natural: placeable ? natural : .nan, span: max(span, 1))
  }

  /// Measures the lowest bottom again, after a correction moved a column's end.
  private mutating func measureLowest() {
    lowest = -.infinity
    for other in 0..<view.count where view.flags[other] & ColumnState.empty == 0 {
      lowest = max(lowest, view.bottoms[other])
    }
  }

  @inline(never)
  private mutating func placeSpanning(_ item: LayoutItem, at position: Int) throws(LayoutError)
    -> LayoutElement
  {
    guard item.span >= 1 else {
      throw .invalidItemSize(index: position, width: item.width, height: item.height)
    }
    return try place(item, at: position, span: min(item.span, view.count))
  }

  @inline(__always)
  private mutating func place(_ item: LayoutItem, at position: Int, span: Int)
    throws(LayoutError) -> LayoutElement
  {
    let width =
      span == 1
      ? columnWidth
      : ColumnsEngine.width(ofSpan: span, columnWidth: columnWidth, spacing: columnSpacing)
    let (across, along) = transform.extents(of: item)
    let height = ColumnsEngine.naturalExtent(width: width, across, along)
    // A positive width and a height above 0 and at most the largest extent: the same as both
    // sizes finite and positive and the height in range (with the width positive, a height that
    // is not makes the result negative, zero or NaN; an infinite width makes it 0 or NaN, an
    // infinite height infinite or NaN), in fewer tests. Which check failed is worked out only
    // then.
    guard across > 0, isPositive(height, atMost: LayoutConfiguration.maximumExtent) else {
      throw !item.hasValidSize
        ? .invalidItemSize(index: position, width: item.width, height: item.height)
        : height > 0 ? .heightOverflow(index: position) : .heightUnderflow(index: position)
    }
    let (column, columnBottom) = chooser.column(span: span, in: view)
    var top =
      span == 1 ? view.top(of: column, bottom: columnBottom) : view.top(of: column, span: span)
    // A height lost in rounding against the top places nothing, enlarged or not.
    guard top + height > top else { throw .heightUnderflow(index: position) }
    if Rules.enlargesAndAligns, span == 1 {
      if let enlarged = enlargement.enlarged(
        column: column, bottom: columnBottom, top: top, height: height,
        previousEnlarged: previousEnlarged, in: view,
        wanted: Rules.plans ? planner.enlargementWanted(column: column) : nil)
      {
        guard enlarged.bottom <= LayoutConfiguration.maximumExtent else {
          throw .heightOverflow(index: position)
        }
        return finish(
          position, column: column, span: 2, width: enlargedWidth, top: top,
          extent: enlarged.extent, bottom: enlarged.bottom, isEnlarged: true, isAligned: false)
      }
    }
    // The natural placement, or the alignment's.
    var (bottom, extent, isAligned) = (top + height, height, false)
    if Rules.spreads, span == 1 {
      runs.add(position &- startCount, column: column, top: top, natural: height)
      if let correction = SpreadAlignment.correction(
        column: column, top: top, height: height, runs: runs,
        view: view, tolerance: alignTolerance, bound: maxDistortion,
        isSeedOnly: position >= endStart)
      {
        (top, extent, bottom) = spread(correction, column: column, position: position)
        isAligned = extent != height
      }
    } else if Rules.plans {
      // Levelled only for an enlargement, before the next item (``planBefore(_:)``).
      if span == 1 { runs.add(position &- startCount, column: column, top: top, natural: height) }
    } else if Rules.enlargesAndAligns, span == 1,
      let target = Alignment.target(
        top: top, height: height, tolerance: alignTolerance, left: view.reachable[column &- 1],
        right: view.reachable[column &+ 1])
    {
      (bottom, extent, isAligned) = (
        target.bottom, Alignment.height(from: top, reaching: target.bottom), true
      )
      runs.fix(column)
      runs.fix(column &+ target.side)
    } else if span == 1 {
      runs.add(position &- startCount, column: column, top: top, natural: height)
    }
    // An alignment may only meet a bottom below the top (it can fail to for a height of a few
    // ulps of the top).
    guard bottom <= LayoutConfiguration.maximumExtent, bottom > top else {
      throw bottom > top ? .heightOverflow(index: position) : .heightUnderflow(index: position)
    }
    return finish(
      position, column: column, span: span, width: width, top: top, extent: extent, bottom: bottom,
      isEnlarged: false, isAligned: isAligned)
  }

  /// Makes `correction` for the item at `position` in `column`, the last of its run: its run
  /// (and the neighbour's, halfway) stacked again to end at the correction's bottom, the bottom
  /// a fixed edge of both columns; returns the item's top, extent and bottom.
  ///
  /// A halfway meeting's line is where the item's frame ends: its bottom, unless no height from
  /// its top lands on it (a rounding tie), when the frame ends an ulp off and the line moves
  /// with it, so that the line is one the frames show. (Meeting a neighbour's bottom keeps that
  /// bottom, as the seed's alignment does.)
  @inline(never)
  private mutating func spread(
    _ correction: SpreadAlignment.Correction, column: Int, position: Int
  ) -> (top: Double, extent: Double, bottom: Double) {
    let neighbour = correction.neighbour
    if correction.isHalfway {
      _ = runs.restack(
        neighbour, to: correction.bottom, rowSpacing: view.rowSpacing, width: columnWidth,
        startCount: startCount, transform: transform, into: placed, current: nil)
    } else {
      runs.fix(neighbour)
    }
    guard
      let kept = runs.restack(
        column, to: correction.bottom, rowSpacing: view.rowSpacing, width: columnWidth,
        startCount: startCount, transform: transform, into: placed,
        current: position &- startCount)
    else { preconditionFailure("the item placed is in its column's run") }
    var bottom = correction.bottom
    if correction.isHalfway {
      bottom = kept.top + kept.extent
      view.bottoms[neighbour] = bottom
      view.reachable[neighbour] = bottom
    }
    // A column may have ended lower before: the lowest bottom is measured again.
    measureLowest()
    return (kept.top, kept.extent, bottom)
  }

  /// The width of an enlarged item.
  private var enlargedWidth: Double {
    ColumnsEngine.width(ofSpan: 2, columnWidth: columnWidth, spacing: columnSpacing)
  }

  /// Ends the `span` columns from `column` at `bottom`, and returns the element of the item at
  /// `position`.
  @inline(__always)
  private mutating func finish(
    _ position: Int, column: Int, span: Int, width: Double, top: Double, extent: Double,
    bottom: Double, isEnlarged: Bool, isAligned: Bool
  ) -> LayoutElement {
    if Rules.plans {
      planner.record(
        Placement(
          column: column, span: span, extent: extent,
          natural: span == 1 && !isEnlarged ? extent : 0, isEnlarged: isEnlarged),
        offset: position, top: top, cursor: chooser.cursor, before: view)
    }
    let flags = isEnlarged ? ColumnState.endsEnlarged : 0
    for covered in 0..<span {
      view.bottoms[column &+ covered] = bottom
      view.flags[column &+ covered] = flags
      if Rules.enlargesAndAligns { view.reachable[column &+ covered] = bottom }
      // An enlarged item's bottom, or a spanning item's, is a fixed edge.
      if span > 1 { runs.fix(column &+ covered) }
    }
    previousEnlarged = flags
    lowest = bottom > lowest ? bottom : lowest
    chooser.placed(column: column, span: span, count: view.count)
    // After each one-column placement, while none is wanted and no levelled pair waits, a draw
    // says whether an enlargement is wanted.
    if Rules.plans, span == 1, planner.state.waiting < 0, !planner.state.wanted {
      planner.state.wanted = enlargement.draw()
    }
    return LayoutElement(
      checkedIndex: position, column: column, span: span,
      frame: transform.frame(column: column, span: span, top: top, extent: extent, width: width),
      isEnlarged: isEnlarged, isAligned: isAligned)
  }
}

/// Whether `value` is above 0 and at most `limit` (positive and finite), from its bits: the
/// positive doubles are ordered as their bit patterns, so one subtraction and one unsigned
/// comparison tell (where the compiler makes some fifteen instructions of the comparisons).
@inline(__always)
func isPositive(_ value: Double, atMost limit: Double) -> Bool {
  value.bitPattern &- 1 < limit.bitPattern
}
