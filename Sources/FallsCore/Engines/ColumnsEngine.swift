import FallsMemory

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

  /// The planned alignment's memory, which goes on from one append to the next (not with a flat
  /// end, whose last page is placed again alone).
  var planner: Planner?
  /// How many of the last elements may still move: under the planned alignment without a flat
  /// end, the last items of the last append, at most ``PlannedAlignment/window``, which the
  /// next append's levellings may move; 0 otherwise, and after ``finish()``.
  private(set) var heldBackCount = 0
  /// The elements held back, during the append that takes them over.
  private var carried: [LayoutElement] = []

  mutating func finish() { heldBackCount = 0 }

  /// Places `items` below the elements placed. The elements held back (``heldBackCount``) are
  /// taken out first and lead the batch's own, so that its levellings may move them, and go
  /// back as they were if an item cannot be placed.
  mutating func append(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    // An empty page changes nothing: what is held back stays held, the planner's memory and the
    // page a flat end flattens stay as they were.
    guard items.count > 0 else { return }
    let count = heldBackCount
    guard count > 0 else { return try appendPage(items, to: &elements, index: &index) }
    carried = Array(elements.suffix(count))
    defer { carried = [] }
    elements.removeLast(count)
    index.truncate(to: elements.count)
    do {
      try appendPage(items, to: &elements, index: &index)
    } catch {
      let start = elements.count
      elements += carried
      index.add(elements[start...], axis: configuration.axis)
      throw error
    }
  }

  // The options pick the loop: the order its chooser, the direction, grid and axis its
  // transform, the style whether it enlarges and aligns.
  private mutating func appendPage(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    let page = working.flatEnd ? (columns, enlargedExtents, items) : nil
    switch items {
    case .array(let array):
      // The loop reads an array through a buffer pointer, as it reads every other array.
      var failure: LayoutError?
      array.withUnsafeBufferPointer { items in
        do throws(LayoutError) {
          try append(items, to: &elements, index: &index)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
    case .generated(let items):
      try append(items, to: &elements, index: &index)
    }
    if let page { lastPageStart = page }
  }

  private mutating func append<Items: RandomAccessCollection<LayoutItem>>(
    _ items: Items, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) where Items.Index == Int {
    // Each chooser type by name, so that the loop is specialised for it.
    switch Self.chooser(working, cursor: columns.cursor) {
    case let chooser as Shortest: try append(items, to: &elements, index: &index, chooser)
    case let chooser as WithinTolerance: try append(items, to: &elements, index: &index, chooser)
    case let chooser as InTurn: try append(items, to: &elements, index: &index, chooser)
    case let chooser: preconditionFailure("no loop for \(type(of: chooser))")
    }
  }

  /// The chooser of `working`'s order, its search starting at `cursor`.
  static func chooser(_ working: LayoutConfiguration, cursor: Int) -> any ColumnChooser {
    switch working.order {
    case .shortest where working.tolerance > 0:
      WithinTolerance(tolerance: working.tolerance, cursor: cursor)
    case .shortest:
      Shortest(cursor: cursor)
    case .leftToRight, .rightToLeft:
      InTurn(isFromRight: working.order == .rightToLeft, cursor: cursor)
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
    precondition(
      startCount + carried.count + itemCount <= Int(Int32.max) + 1, "more than 2^31 elements")
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
    // The elements held back from the append before, which its levellings may still move, lead
    // the batch's elements (an append of the planned alignment, ``append(_:to:index:)``).
    let held = carried
    let total = held.count + itemCount
    let planner = Rules.Planning(
      resuming: working.flatEnd ? nil : self.planner, columns: working.columns, state: next.plan,
      bound: PlannedAlignment.usable(working.maxDistortion), floor: startCount,
      first: startCount + held.count)
    var carriedPlanner: Planner?
    var failure: LayoutError?
    var runMemory = Rules.Runs.memory(columns: working.columns, items: total)
    var blocks = BatchBlocks(startCount: startCount, count: total)
    let placed = [LayoutElement](ownStorageFor: total) { buffer, count in
      HugePages.advise(buffer)
      for (offset, element) in held.enumerated() {
        buffer.initializeElement(at: offset, to: element)
      }
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
          var placedCount = held.count
          defer {
            count = placedCount
            ended = (
              step.enlargement.generator, step.previousEnlarged, step.lowest, step.chooser.cursor,
              step.planner.state
            )
            carriedPlanner = step.planner.carried
          }
          // The planned alignment looks ahead: each item is seen a horizon before it is placed.
          let horizon = Rules.plans ? PlannedAlignment.horizon : 0
          if Rules.plans {
            for index in 0..<min(horizon, itemCount) { step.see(items[index]) }
          }
          for index in 0..<itemCount {
            let offset = held.count &+ index
            do throws(LayoutError) {
              buffer.initializeElement(
                at: offset, to: try step.place(items[index], at: startCount &+ offset))
            } catch {
              failure = error
              return
            }
            placedCount = offset &+ 1
            if Rules.plans, index &+ horizon < itemCount { step.see(items[index &+ horizon]) }
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
    if Rules.plans, !working.flatEnd {
      self.planner = carriedPlanner
      heldBackCount = min(PlannedAlignment.window, itemCount)
    }
    return (placed, blocks)
  }
}
