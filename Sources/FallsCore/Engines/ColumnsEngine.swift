/// The engine of the columnar styles, `irregular` and `waterfall`: each item in the column (or
/// across the columns) its order chooses, at its image's aspect ratio; see ``WaterfallLayout``
/// for the rules.
///
/// ``ColumnStep`` is the only statement of the rules, and `place` the only loop over items. It is
/// generic over what the options change (which column an item goes to, how a placement becomes
/// a frame on screen, and whether the style enlarges and aligns), so that the compiler makes
/// each combination a loop of its own, with nothing of the others in it.
struct ColumnsEngine: StyleEngine {
  /// The configuration as given, and as the engine computes in (``LayoutConfiguration/working``).
  let configuration: LayoutConfiguration
  let working: LayoutConfiguration
  /// Whether items are enlarged and aligned: the irregular style.
  let enlargesAndAligns: Bool
  let columnWidth: Double
  /// The left edge of each column, in the engine's coordinates.
  let columnXs: [Double]
  var columns: ColumnState
  /// Per column, the extents of the enlarged items covering it, top to bottom.
  var enlargedExtents: [[ClosedRange<Double>]]
  /// Where the last batch starts and its columns' free runs, for the flat end; kept when the
  /// configuration spreads or asks for a flat end.
  var lastBatchRuns: (startCount: Int, runs: FreeRunMemory)?

  init(_ configuration: LayoutConfiguration, enlargesAndAligns: Bool) {
    self.configuration = configuration
    let working = configuration.working
    self.working = working
    self.enlargesAndAligns = enlargesAndAligns
    columnWidth = working.columnWidth
    columnXs = (0..<working.columns).map { working.x(ofColumn: $0) }
    columns = ColumnState(working)
    enlargedExtents = Array(repeating: [], count: working.columns)
  }

  var columnBottoms: [Double?] { columns.columnBottoms }
  var transforms: [Transform3D] { [] }
  var centers: [Point] { [] }
  var isIndexed: Bool { true }

  func contentExtent(elements: [LayoutElement]) -> Double {
    Self.contentExtent(lowestBottom: columns.lowest, isEmpty: elements.isEmpty, working: working)
  }

  /// The lowest bottom plus the bottom inset, or `top + bottom` when there are no items; with a
  /// scale, the lowest bottom on its grid, as the frames have it.
  static func contentExtent(lowestBottom: Double, isEmpty: Bool, working: LayoutConfiguration)
    -> Double
  {
    guard !isEmpty else { return working.insets.top + working.insets.bottom }
    let lowest = working.pixelGrid.map { $0.snap(lowestBottom) } ?? lowestBottom
    return lowest + working.insets.bottom
  }

  /// The natural extent of an item `width` wide whose image is `across` × `along`: the image
  /// at its aspect ratio.
  @inline(__always)
  static func naturalExtent(width: Double, _ across: Double, _ along: Double) -> Double {
    width * along / across
  }

  /// The width of an item covering `span` columns: `span · w + (span − 1) · columnSpacing`.
  static func width(ofSpan span: Int, columnWidth: Double, spacing: Double) -> Double {
    Double(span) * columnWidth + Double(span - 1) * spacing
  }

  /// The last page's items and the state before it, kept with a flat end so that the page can
  /// be placed again with its end in view.
  var lastPageStart:
    (columns: ColumnState, enlargedExtents: [[ClosedRange<Double>]], items: PageItems)?
  /// The batch offset from which spread makes no corrections but the seed's: the last rows of a
  /// page placed again for a flat end, whose runs stay free for the flattening.
  var endStart = Int.max

  /// The most rows at the end of the last page that spread leaves free for a flat end.
  static let mostFreeEndRows = 20

  mutating func flattenEnd(_ elements: inout [LayoutElement], index: inout BlockIndex) {
    guard working.flatEnd, let page = lastPageStart, let (startCount, _) = lastBatchRuns else {
      return
    }
    // The last page again, from the state before it, with its last 0, 1, 2, … rows left free of
    // spread's own corrections (the seed's still made), until the ends meet: the fewest rows that
    // flatten best, so that the page keeps as many corrections, and enlargements, as it can.
    // Each try places the page after the earlier pages' elements, which stay where they are, and
    // is taken back: only how many rows the best one left free is kept, and that try is made
    // again at the end. A try costs the page's time, and the page is held once, not once a try.
    var scratch = index
    // The page as placed goes, and the memory of its runs: each try makes its own.
    Self.takeBack(&elements, from: startCount)
    lastBatchRuns = nil
    let before = self
    var best: (freeRows: Int, raggedness: Double)?
    let rows = working.alignment != .seed ? 0...Self.mostFreeEndRows : 0...0
    for freeRows in rows {
      guard
        let again = before.placedAgain(
          page, freeRows: freeRows, startCount: startCount, into: &elements, index: &scratch)
      else {
        // Placed once already; placed again with fewer corrections, an item could in principle
        // overflow: that try is left out.
        continue
      }
      Self.takeBack(&elements, from: startCount)
      let ends = again.columns.columnBottoms.compactMap { $0 }
      let raggedness = (ends.max() ?? 0) - (ends.min() ?? 0)
      if raggedness < best?.raggedness ?? .infinity { best = (freeRows, raggedness) }
      if raggedness <= 1e-9 * (ends.max() ?? 0) { break }
    }
    // The best try made again; or, should every try fail, the page as it was placed (the same
    // placement, made again).
    let final =
      best.flatMap {
        before.placedAgain(
          page, freeRows: $0.freeRows, startCount: startCount, into: &elements, index: &scratch)
      }
      ?? before.placedAgain(
        page, freeRows: nil, startCount: startCount, into: &elements, index: &scratch)
    guard let final else {
      preconditionFailure("the last page, placed once, could not be placed again as it was")
    }
    self = final
    index = BlockIndex(elements, axis: configuration.axis)
  }

  /// The engine as it stands with the last page placed again after the `startCount` elements of
  /// the pages before, from the state before it, its last `freeRows` rows left free of spread's
  /// own corrections and its runs then flattened (``flattenRuns(_:)``); with `freeRows` `nil`, as
  /// the page was first placed, nothing left free or flattened. `nil` when an item cannot be
  /// placed so, and then `elements` is as it was.
  private func placedAgain(
    _ page: (columns: ColumnState, enlargedExtents: [[ClosedRange<Double>]], items: PageItems),
    freeRows: Int?, startCount: Int, into elements: inout [LayoutElement],
    index: inout BlockIndex
  ) -> ColumnsEngine? {
    var again = self
    (again.columns, again.enlargedExtents, again.lastBatchRuns) = (
      page.columns, page.enlargedExtents, nil
    )
    again.endStart = freeRows.map { max(0, page.items.count - $0 * working.columns) } ?? .max
    do {
      try again.append(page.items, to: &elements, index: &index)
    } catch {
      return nil
    }
    again.endStart = .max
    if freeRows != nil { again.flattenRuns(&elements) }
    return again
  }

  /// Takes back the elements from `start` on; when that is all of them, their memory goes too,
  /// so that the next placement's array is taken as it is rather than copied into this one.
  private static func takeBack(_ elements: inout [LayoutElement], from start: Int) {
    if start == 0 { elements = [] } else { elements.removeSubrange(start...) }
  }

  /// Moves each column's free run of the last batch towards one line, as far as the bound
  /// allows.
  private mutating func flattenRuns(_ elements: inout [LayoutElement]) {
    guard let (startCount, kept) = lastBatchRuns else { return }
    // Taken out while it is written, so that it is written in place rather than copied.
    lastBatchRuns = nil
    var memory = kept
    FreeRuns.withRuns(&memory) { runs in flatten(runs, startCount: startCount, &elements) }
    lastBatchRuns = (startCount, memory)
  }

  private mutating func flatten(
    _ runs: FreeRuns, startCount: Int, _ elements: inout [LayoutElement]
  ) {
    let count = working.columns
    let used = (0..<count).filter { columns.flags[$0 + 1] & ColumnState.empty == 0 }
    let movable = used.filter { runs.count($0) > 0 }
    guard !movable.isEmpty else { return }
    let bottoms = used.map { columns.bottoms[$0 + 1] }
    let fixed = used.filter { runs.count($0) == 0 }.map { columns.bottoms[$0 + 1] }
    // The line lies between the fixed ends, which cannot move, or else anywhere between the
    // ends; the largest distortion it asks, max |line − bottom| / Σ natural over the runs, is
    // convex in the line, so a ternary search finds its least.
    var (low, high) =
      fixed.isEmpty
      ? (bottoms.min() ?? 0, bottoms.max() ?? 0) : (fixed.min() ?? 0, fixed.max() ?? 0)
    func cost(_ line: Double) -> Double {
      movable.map { abs(line - columns.bottoms[$0 + 1]) / runs.naturalSum($0) }.max() ?? 0
    }
    for _ in 0..<300 where high - low > 4 * max(abs(low), abs(high)).ulp {
      let third = (high - low) / 3
      if cost(low + third) <= cost(high - third) { high -= third } else { low += third }
    }
    let line = (low + high) / 2
    let bound = SpreadAlignment.usable(working.maxDistortion)
    columnXs.withUnsafeBufferPointer { columnXs in
      let transform = Mapped(columnXs: columnXs, configuration: configuration)
      elements.withUnsafeMutableBufferPointer { all in
        let batch = UnsafeMutableBufferPointer(rebasing: all[startCount...])
        for column in movable {
          let bottom = columns.bottoms[column + 1]
          let reach = bound * runs.naturalSum(column)
          let target = bottom + min(max(line - bottom, -reach), reach)
          guard target != bottom else { continue }
          _ = runs.restack(
            column, to: target, rowSpacing: working.rowSpacing, width: columnWidth,
            startCount: startCount, transform: transform, into: batch, current: nil)
          columns.bottoms[column + 1] = target
          columns.reachable[column + 1] = target
        }
      }
    }
    columns.lowest = used.map { columns.bottoms[$0 + 1] }.max() ?? columns.lowest
  }

  // The options pick the loop: the order its chooser, the direction, grid and axis its
  // transform, the style whether it enlarges and aligns.
  mutating func append(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    let page = working.flatEnd ? (columns, enlargedExtents, items) : nil
    switch items {
    case .array(let array):
      // The loop reads an array through a buffer pointer, as it reads every other array.
      var failure: LayoutError?
      array.withUnsafeBufferPointer { items in
        do throws(LayoutError) {
          try append(items, chosenBy: working.order, to: &elements, index: &index)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
    case .generated(let items):
      try append(items, chosenBy: working.order, to: &elements, index: &index)
    }
    if let page { lastPageStart = page }
  }

  private mutating func append<Items: RandomAccessCollection<LayoutItem>>(
    _ items: Items, chosenBy order: PlacementOrder, to elements: inout [LayoutElement],
    index: inout BlockIndex
  ) throws(LayoutError) where Items.Index == Int {
    let cursor = columns.cursor
    switch order {
    case .shortest where working.tolerance > 0:
      try append(
        items, to: &elements, index: &index,
        WithinTolerance(tolerance: working.tolerance, cursor: cursor))
    case .shortest:
      try append(items, to: &elements, index: &index, Shortest(cursor: cursor))
    case .leftToRight, .rightToLeft:
      try append(
        items, to: &elements, index: &index,
        InTurn(isFromRight: working.order == .rightToLeft, cursor: cursor))
    }
  }

  private mutating func append<Items: RandomAccessCollection<LayoutItem>, Chooser: ColumnChooser>(
    _ items: Items, to elements: inout [LayoutElement], index: inout BlockIndex,
    _ chooser: Chooser
  ) throws(LayoutError) where Items.Index == Int {
    let isUpright =
      configuration.direction == .leftToRight && configuration.axis == .vertical
      && configuration.scale == nil
    let start = elements.count
    let batch =
      switch (enlargesAndAligns, working.alignment, working.flatEnd, isUpright) {
      case (true, .seed, false, true):
        try place(items, startCount: start, EnlargeSeedAlign.self, chooser, Upright.self)
      case (true, .seed, false, false):
        try place(items, startCount: start, EnlargeSeedAlign.self, chooser, Mapped.self)
      case (true, .seed, true, true):
        try place(items, startCount: start, EnlargeSeedAlignKeepingRuns.self, chooser, Upright.self)
      case (true, .seed, true, false):
        try place(items, startCount: start, EnlargeSeedAlignKeepingRuns.self, chooser, Mapped.self)
      case (true, .spread, _, true):
        try place(items, startCount: start, EnlargeSpreadAlign.self, chooser, Upright.self)
      case (true, .spread, _, false):
        try place(items, startCount: start, EnlargeSpreadAlign.self, chooser, Mapped.self)
      case (true, .planned, _, true):
        try place(items, startCount: start, EnlargePlannedAlign.self, chooser, Upright.self)
      case (true, .planned, _, false):
        try place(items, startCount: start, EnlargePlannedAlign.self, chooser, Mapped.self)
      case (false, _, _, true):
        try place(items, startCount: start, NaturalHeights.self, chooser, Upright.self)
      case (false, _, _, false):
        try place(items, startCount: start, NaturalHeights.self, chooser, Mapped.self)
      }
    batch.blocks.add(to: &index)
    FallsCore.append(batch.elements, to: &elements)
  }

  /// Calls `body` with the batch's column state as a view, the enlarged extents and the column
  /// edges, each as memory it reads and writes in place: one accessor for each owner.
  private func withMemory(
    _ state: inout ColumnState, _ extents: inout [[ClosedRange<Double>]],
    _ body: (
      ColumnView, UnsafeMutableBufferPointer<[ClosedRange<Double>]>, UnsafeBufferPointer<Double>
    ) -> Void
  ) {
    state.withView(insetTop: working.insets.top, rowSpacing: working.rowSpacing) { view in
      extents.withUnsafeMutableBufferPointer { extents in
        columnXs.withUnsafeBufferPointer { columnXs in body(view, extents, columnXs) }
      }
    }
  }

  /// Places `items` after the `startCount` elements already placed, by the rules of
  /// ``WaterfallLayout``, and returns their elements and the extents of their blocks for the rect
  /// query's index.
  ///
  /// All or nothing: the column state, the runs and the random stream change only when every
  /// item is placed; the first item that cannot be placed (by its size, or by a height lost in
  /// rounding or past ``LayoutConfiguration/maximumExtent``) ends the batch with the reason.
  ///
  /// - Complexity: O(*k*) for *k* one-column items in the shortest column (O(*c*) each for *c*
  ///   columns past four), O(*c* · *s*) for an item of *s* columns or with another order.
  private mutating func place<
    Items: RandomAccessCollection<LayoutItem>, Rules: ColumnRules, Chooser: ColumnChooser,
    Transform: FrameTransform
  >(
    _ items: Items, startCount: Int, _: Rules.Type, _ chooser: Chooser, _: Transform.Type
  ) throws(LayoutError) -> (elements: [LayoutElement], blocks: BatchBlocks)
  where Items.Index == Int {
    // Items are read by their position in the batch: an array's buffer, or generated items.
    precondition(items.startIndex == 0, "items start at 0")
    let itemCount = items.count
    // Elements store their index in 32 bits: checked once for the batch rather than per element.
    precondition(startCount + itemCount <= Int(Int32.max) + 1, "more than 2^31 elements")
    // A copy of the state (its arrays become the batch's own when the view is made), and the
    // extents moved out, so that adding one copies nothing; all put back only when the batch
    // stands.
    var next = columns
    var runs = enlargedExtents
    enlargedExtents = []
    let runCounts = Rules.enlargesAndAligns ? runs.map(\.count) : []
    let (generator, previousEnlarged, lowest) = (next.generator, next.previousEnlarged, next.lowest)
    var ended = (
      generator: generator, previousEnlarged: previousEnlarged, lowest: lowest, cursor: 0,
      plan: next.plan
    )
    let planner = Rules.Planning(
      columns: working.columns, state: next.plan,
      bound: PlannedAlignment.usable(working.maxDistortion))
    var failure: LayoutError?
    var runMemory = Rules.Runs.memory(columns: working.columns, items: itemCount)
    var blocks = BatchBlocks(startCount: startCount, count: itemCount)
    let placed = [LayoutElement](unsafeUninitializedCapacity: itemCount) { buffer, count in
      HugePages.advise(buffer)
      withMemory(&next, &runs) { view, runs, columnXs in
        Rules.Runs.withRuns(&runMemory) { freeRuns in
          // The step is made here, in the closure that runs the loop, and put back after it: a
          // variable captured from outside lives in memory, reloaded and stored around every write
          // through a pointer, which may be any memory to the compiler.
          var step = ColumnStep<Rules, Chooser, Transform>(
            view: view, chooser: chooser,
            transform: Transform(columnXs: columnXs, configuration: configuration),
            enlargement: Enlargement(
              generator: generator, chance: working.enlargeChance, runs: runs),
            previousEnlarged: previousEnlarged, lowest: lowest,
            columnWidth: columnWidth, columnSpacing: working.columnSpacing,
            alignTolerance: working.alignTolerance, maxDistortion: working.maxDistortion,
            runs: freeRuns, placed: buffer, startCount: startCount,
            endStart: endStart == .max ? .max : startCount + endStart, planner: planner)
          var placedCount = 0
          defer {
            count = placedCount
            ended = (
              step.enlargement.generator, step.previousEnlarged, step.lowest, step.chooser.cursor,
              step.planner.state
            )
          }
          // The planned alignment looks ahead: each item is seen a horizon before it is placed.
          let horizon = Rules.plans ? PlannedAlignment.horizon : 0
          if Rules.plans {
            for offset in 0..<min(horizon, itemCount) { step.see(items[offset]) }
          }
          for offset in 0..<itemCount {
            do throws(LayoutError) {
              buffer.initializeElement(
                at: offset, to: try step.place(items[offset], at: startCount &+ offset))
            } catch {
              failure = error
              return
            }
            placedCount = offset &+ 1
            if Rules.plans, offset &+ horizon < itemCount { step.see(items[offset &+ horizon]) }
            if !Rules.movesPlaced {
              blocks.include(
                offset: offset, of: UnsafeBufferPointer(buffer), axis: step.transform.axis)
            }
          }
          // Spread and the planned alignment move items placed earlier in the batch: the blocks
          // are measured once all stand.
          if Rules.movesPlaced {
            for offset in 0..<placedCount {
              blocks.include(
                offset: offset, of: UnsafeBufferPointer(buffer), axis: step.transform.axis)
            }
          }
        }
      }
    }
    if let failure {
      for column in runCounts.indices { runs[column].removeSubrange(runCounts[column]...) }
      enlargedExtents = runs
      throw failure
    }
    (next.generator, next.previousEnlarged, next.lowest, next.cursor, next.plan) = ended
    columns = next
    enlargedExtents = runs
    lastBatchRuns = Rules.Runs.kept(runMemory).map { (startCount, $0) }
    return (placed, blocks)
  }
}
