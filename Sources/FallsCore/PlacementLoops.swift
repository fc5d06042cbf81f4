// The placement loops of the two plain styles: the rules of `place(_:)` for one-column items in
// the shortest column, left to right, vertical, without a pixel grid, written as tight loops over
// a batch with the column state in memory of its own, so that no step checks a bound, a
// capacity or whether an array is shared. Tests hold each to the general placement, frame for
// frame.

/// The column state of a batch, in memory of its own: copied from the layout at the start, and
/// back once the whole batch stands (a failed batch changes nothing).
///
/// `bottoms` and `flags` also hold a column before the first and one after the last (indices −1
/// and `count`) whose bottom is NaN and whose flags are clear: it equals no bottom and is near
/// none, so a loop may compare a column with its neighbours without first asking whether they
/// exist.
struct ColumnScratch {
  /// The flag of a column that holds no item yet.
  static let empty: UInt8 = 1
  /// The flag of a column whose last item is enlarged.
  static let endsEnlarged: UInt8 = 2

  let count: Int
  /// Where a column's first item starts.
  let insetTop: Double
  /// The gap between an item and the one above it in its column.
  let rowSpacing: Double
  let bottoms: UnsafeMutablePointer<Double>
  /// Each column's bottom as a neighbour may align to it: its bottom, or NaN while it is empty
  /// (and for the sentinels), which is near nothing.
  let reachable: UnsafeMutablePointer<Double>
  /// Each column's `empty` and `endsEnlarged` flags, as bits of one byte, so that a loop tests
  /// two columns' flags with a few instructions and no branch.
  let flags: UnsafeMutablePointer<UInt8>
  let xs: UnsafeMutablePointer<Double>

  init(_ state: WaterfallLayout.ColumnState, columnXs: [Double], geometry: LayoutConfiguration) {
    count = columnXs.count
    insetTop = geometry.insets.top
    rowSpacing = geometry.rowSpacing
    bottoms = .allocate(capacity: count + 2) + 1
    reachable = .allocate(capacity: count + 2) + 1
    flags = .allocate(capacity: count + 2) + 1
    xs = .allocate(capacity: count)
    for column in 0..<count {
      bottoms[column] = state.bottoms[column]
      reachable[column] = state.isEmpty[column] ? .nan : state.bottoms[column]
      flags[column] =
        (state.isEmpty[column] ? Self.empty : 0)
        | (state.endsEnlarged[column] ? Self.endsEnlarged : 0)
      xs[column] = columnXs[column]
    }
    for outside in [-1, count] {
      bottoms[outside] = .nan
      reachable[outside] = .nan
      flags[outside] = 0
    }
  }

  func deallocate() {
    (bottoms - 1).deallocate()
    (reachable - 1).deallocate()
    (flags - 1).deallocate()
    xs.deallocate()
  }

  func store(into state: inout WaterfallLayout.ColumnState) {
    for column in 0..<count {
      state.bottoms[column] = bottoms[column]
      state.isEmpty[column] = flags[column] & Self.empty != 0
      state.endsEnlarged[column] = flags[column] & Self.endsEnlarged != 0
    }
  }

  /// The column with the lowest stored bottom, leftmost on ties (as `chooseColumn(span:)` for
  /// one column without tolerance), and that bottom (so that it is not read again: the next
  /// item waits for it).
  @inline(__always)
  func shortest() -> (column: Int, bottom: Double) {
    // Two, three and four columns (the layouts of phones and most others) as trees of
    // comparisons, which take about half the instructions of the loop and, for four columns,
    // put two comparisons after one another instead of three; a tie keeps the left one at
    // every step.
    @inline(__always) func lower(_ left: (Int, Double), _ right: (Int, Double)) -> (Int, Double) {
      right.1 < left.1 ? right : left
    }
    switch count {
    case 2: return lower((0, bottoms[0]), (1, bottoms[1]))
    case 3: return lower(lower((0, bottoms[0]), (1, bottoms[1])), (2, bottoms[2]))
    case 4:
      return lower(lower((0, bottoms[0]), (1, bottoms[1])), lower((2, bottoms[2]), (3, bottoms[3])))
    default:
      var column = 0
      var lowest = bottoms[0]
      for candidate in 1..<count where bottoms[candidate] < lowest {
        column = candidate
        lowest = bottoms[candidate]
      }
      return (column, lowest)
    }
  }

  /// Where an item starts in `column`, whose stored bottom is `bottom`: the top inset in an
  /// empty column, else the row spacing below its bottom.
  func top(of column: Int, bottom: Double) -> Double {
    flags[column] & Self.empty != 0 ? insetTop : bottom + rowSpacing
  }
}

/// Whether `value` is finite and greater than zero, from its bits: the positive finite doubles
/// are the bit patterns 1 through that of `greatestFiniteMagnitude`, so one subtraction and one
/// unsigned comparison tell (where the compiler makes some fifteen instructions of
/// `value > 0 && value < .infinity`).
@inline(__always)
func isPositiveAndFinite(_ value: Double) -> Bool {
  value.bitPattern &- 1 < Double.greatestFiniteMagnitude.bitPattern
}

extension WaterfallLayout {
  /// Whether every option is at its plain default: the waterfall style, shortest column first
  /// without tolerance, left to right, vertical, no pixel grid.
  var isPlainWaterfall: Bool {
    geometry.style == .waterfall && isPlainOrder
  }

  /// Whether the irregular style's loop may place a batch: every other option at its plain
  /// value.
  var isPlainIrregular: Bool {
    geometry.style == .irregular && isPlainOrder
  }

  private var isPlainOrder: Bool {
    geometry.order == .shortest && geometry.tolerance == 0
      && geometry.direction == .leftToRight && configuration.axis == .vertical
      && geometry.scale == nil
  }

  /// The natural height of a one-column item at `position`, or why it cannot be placed (the
  /// checks of `place(_:)`, in its order).
  static func naturalHeight(of item: LayoutItem, columnWidth: Double, position: Int)
    -> Result<Double, LayoutError>
  {
    let height = columnWidth * item.height / item.width
    guard item.hasValidSize else {
      return .failure(.invalidItemSize(index: position, width: item.width, height: item.height))
    }
    guard height > 0 else { return .failure(.heightUnderflow(index: position)) }
    guard height <= LayoutConfiguration.maximumExtent else {
      return .failure(.heightOverflow(index: position))
    }
    return .success(height)
  }

  /// Places each of `items` with `step`, giving it the item's position, natural height and the
  /// slot of the new array its element goes into, and gathers the blocks of the placed elements
  /// for the rect query's index; the first item that cannot be placed (by its size, or as the
  /// step says by returning an error instead of filling the slot) ends the batch with the reason.
  /// Returns `nil` when an item spans other than one column: the batch is then for the general
  /// placement (checked here, as the items are read, rather than in a pass of its own over a
  /// large batch).
  private static func placeEach<Step: ColumnStep>(
    _ items: [LayoutItem], from startCount: Int, columnWidth: Double, _ step: inout Step
  ) throws(LayoutError) -> (elements: [LayoutElement], blocks: BatchBlocks)? {
    // Elements store their index in 32 bits: checked once for the batch rather than per element.
    precondition(startCount + items.count <= Int(Int32.max) + 1, "more than 2^31 elements")
    var failure: LayoutError?
    var needsGeneralPlacement = false
    var blocks = BatchBlocks(startCount: startCount, count: items.count)
    let placed = [LayoutElement](unsafeUninitializedCapacity: items.count) { buffer, count in
      guard let output = buffer.baseAddress else { return }
      HugePages.advise(
        UnsafeMutableRawPointer(output),
        byteCount: buffer.count * MemoryLayout<LayoutElement>.stride)
      items.withUnsafeBufferPointer { items in
        // The step as a local copy, put back once the loop ends: a captured variable lives in
        // memory, and the compiler reloads and stores it around every write through the output
        // pointer, which may be any memory to it. (The blocks stay captured: as a local copy too,
        // the waterfall took 3% longer for the same instructions, 0.83 ms against 0.80.)
        var localStep = step
        var placedCount = 0
        defer {
          step = localStep
          count = placedCount
        }
        for offset in 0..<items.count {
          let position = startCount &+ offset
          let item = items[offset]
          guard item.span == 1 else {
            needsGeneralPlacement = true
            return
          }
          let height = columnWidth * item.height / item.width
          // A positive width and a finite, positive height: the same as both sizes finite and
          // positive (with the width positive, a height that is not makes the result negative,
          // zero or NaN; an infinite width makes it 0 or NaN, an infinite height infinite or
          // NaN), in fewer tests. Which check failed is worked out only then.
          guard item.width > 0, isPositiveAndFinite(height) else {
            switch naturalHeight(of: item, columnWidth: columnWidth, position: position) {
            case .failure(let error): failure = error
            case .success: failure = .heightOverflow(index: position)
            }
            return
          }
          if let error = localStep.place(position: position, height: height, in: output + offset) {
            failure = error
            return
          }
          blocks.include(
            position: position, of: output, axis: .vertical, byBlock: Step.readsBlocksWhole)
          placedCount = offset &+ 1
        }
      }
    }
    if let failure { throw failure }
    return needsGeneralPlacement ? nil : (placed, blocks)
  }

  /// The plain waterfall's placement as one loop; `false`, with nothing changed, when an item
  /// spans other than one column.
  mutating func appendPlainWaterfall(_ items: [LayoutItem]) throws(LayoutError) -> Bool {
    let columns = ColumnScratch(state, columnXs: columnXs, geometry: geometry)
    defer { columns.deallocate() }
    var step = WaterfallStep(columns: columns, columnWidth: columnWidth, lowest: state.lowestBottom)
    let batch = try Self.placeEach(
      items, from: elements.count, columnWidth: columnWidth, &step)
    guard let (placed, blocks) = batch else { return false }
    commit(placed, blocks: blocks, columns: columns, lowest: step.lowest)
    // The next search starts after the last item (read from it, rather than kept in the loop).
    if let last = placed.last {
      state.previousWasEnlarged = false
      state.cursor = (last.column + 1) % columns.count
    }
    return true
  }

  /// Appends a batch's elements and their blocks, and stores its column state.
  private mutating func commit(
    _ placed: [LayoutElement], blocks: BatchBlocks, columns: ColumnScratch, lowest: Double
  ) {
    blocks.add(to: &blockIndex)
    // The batch's array is taken as it is, unless room was reserved for more (one feed appended
    // in batches), which is then used.
    if elements.isEmpty, elements.capacity < placed.count {
      elements = placed
    } else {
      let needed = elements.count + placed.count
      if needed > elements.capacity { reserveElements(max(needed, elements.capacity * 2)) }
      elements += placed
    }
    columns.store(into: &state)
    state.lowestBottom = lowest
  }

  /// Places `items` (all one column wide) as ``place(_:)`` would, with the same floating-point
  /// operations in the same order and the same draws from the random stream, so the same
  /// frames; the column state lives in memory of its own for the batch, so that no step checks
  /// whether an array is shared. On error nothing changes; `false`, with nothing changed, when an
  /// item spans other than one column.
  mutating func appendIrregular(_ items: [LayoutItem]) throws(LayoutError) -> Bool {
    let columns = ColumnScratch(state, columnXs: columnXs, geometry: geometry)
    defer { columns.deallocate() }
    // The runs are moved into the step's memory for the batch, so that adding one copies
    // nothing; put back (less this batch's, on an error) before returning.
    let runCounts = enlargedRuns.map(\.count)
    var step = IrregularStep(
      columns: columns, geometry: geometry, columnWidth: columnWidth, runs: enlargedRuns,
      generator: state.generator, previousWasEnlarged: state.previousWasEnlarged,
      lowest: state.lowestBottom)
    enlargedRuns = []
    let batch: (elements: [LayoutElement], blocks: BatchBlocks)?
    do {
      batch = try Self.placeEach(items, from: elements.count, columnWidth: columnWidth, &step)
    } catch {
      enlargedRuns = step.enlargement.takeRuns(trimmedTo: runCounts)
      throw error
    }
    guard let (placed, blocks) = batch else {
      enlargedRuns = step.enlargement.takeRuns(trimmedTo: runCounts)
      return false
    }
    commit(placed, blocks: blocks, columns: columns, lowest: step.lowest)
    enlargedRuns = step.enlargement.takeRuns(trimmedTo: nil)
    state.generator = step.enlargement.generator
    state.previousWasEnlarged = step.previousEnlarged != 0
    if let last = placed.last { state.cursor = (last.column + last.span) % columns.count }
    return true
  }
}

/// One item's placement in a plain loop, with the state it carries from item to item.
protocol ColumnStep {
  /// Whether the rect index's block extents are read from a block's frames once it is written
  /// (else element by element as they are written); see
  /// ``BatchBlocks/include(position:of:axis:byBlock:)``.
  static var readsBlocksWhole: Bool { get }

  /// Places the one-column item at `position`, of natural height `height`, by initializing
  /// `slot` with its element; or returns why it cannot, leaving `slot` as it was.
  mutating func place(
    position: Int, height: Double, in slot: UnsafeMutablePointer<LayoutElement>
  ) -> LayoutError?
}

/// The plain waterfall's step: the shortest column, leftmost on ties, `rowSpacing` below its
/// bottom.
struct WaterfallStep: ColumnStep {
  static let readsBlocksWhole = false
  let columns: ColumnScratch
  let columnWidth: Double
  /// The lowest bottom so far.
  var lowest: Double

  @inline(__always)
  mutating func place(
    position: Int, height: Double, in slot: UnsafeMutablePointer<LayoutElement>
  ) -> LayoutError? {
    let (column, columnBottom) = columns.shortest()
    let y = columns.top(of: column, bottom: columnBottom)
    let newBottom = y + height
    // A bottom past the largest extent, or one that does not pass the top (a height lost in
    // rounding against it), is refused.
    guard newBottom <= LayoutConfiguration.maximumExtent, newBottom > y else {
      return newBottom > y ? .heightOverflow(index: position) : .heightUnderflow(index: position)
    }
    columns.bottoms[column] = newBottom
    columns.flags[column] = 0
    lowest = newBottom > lowest ? newBottom : lowest
    slot.initialize(
      to: LayoutElement(
        checkedIndex: position, column: column, span: 1,
        frame: Rect(x: columns.xs[column], y: y, width: columnWidth, height: height),
        isEnlarged: false, isAligned: false))
    return nil
  }
}

/// The irregular style's step: the waterfall's column, then enlargement across two level
/// columns, or alignment with a neighbour's bottom (the rules of ``WaterfallLayout``).
///
/// Most items are neither enlarged nor aligned (in the benchmark's feed of 100,000, 9.5% may be
/// enlarged by their columns, 5.9% are, and 11.9% are aligned), so the common path is the
/// natural placement: each rule's work is done once its cheap test says it may apply. (The
/// enlargement's own work out of line, as a call, was slower: the call saves and restores the
/// loop's values around it.)
struct IrregularStep: ColumnStep {
  static let readsBlocksWhole = true

  let columns: ColumnScratch
  let columnWidth: Double
  let enlargedWidth: Double
  let tolerance: Double
  /// The runs and the random stream, which only enlargement reads.
  private(set) var enlargement: Enlargement
  /// The previous item's enlargement as the `endsEnlarged` flag, so that it joins the other
  /// flags' test.
  private(set) var previousEnlarged: UInt8
  /// The lowest bottom so far.
  private(set) var lowest: Double

  init(
    columns: ColumnScratch, geometry: LayoutConfiguration, columnWidth: Double,
    runs: [[ClosedRange<Double>]], generator: SplitMix64, previousWasEnlarged: Bool,
    lowest: Double
  ) {
    self.columns = columns
    self.columnWidth = columnWidth
    enlargedWidth = 2 * columnWidth + geometry.columnSpacing
    tolerance = geometry.alignTolerance
    enlargement = Enlargement(runs: runs, generator: generator, chance: geometry.enlargeChance)
    previousEnlarged = previousWasEnlarged ? ColumnScratch.endsEnlarged : 0
    self.lowest = lowest
  }

  @inline(__always)
  mutating func place(
    position: Int, height: Double, in slot: UnsafeMutablePointer<LayoutElement>
  ) -> LayoutError? {
    let (bottoms, reachable, flags) = (columns.bottoms, columns.reachable, columns.flags)
    let (empty, endsEnlarged) = (ColumnScratch.empty, ColumnScratch.endsEnlarged)
    let (column, columnBottom) = columns.shortest()
    let next = column &+ 1
    let (here, right) = (flags[column], flags[next])
    let itemTop = columns.top(of: column, bottom: columnBottom)
    let rowSpacing = columns.rowSpacing
    // A height lost in rounding against the top places nothing: refused, enlarged or not.
    guard itemTop + height > itemTop else { return .heightUnderflow(index: position) }
    // Enlargement: the conditions of canEnlarge(column:top:height:), the runs and the draw
    // last. Columns that are both empty, or both not and end level, are exactly the neighbours
    // with equal stored bottoms and the same emptiness (an empty column's bottom is the top
    // inset); the NaN beyond the last column equals nothing. The flags' conditions are one
    // number, 0 when all hold, and so are the bottoms' bits (`apart`), so that one test of both
    // decides: as tests of their own, even joined with `&&` or `&`, the compiler made each a
    // branch, and the processor mispredicted the bottoms'.
    let unlike = UInt64(
      (here ^ right) & empty | (here | right | previousEnlarged) & endsEnlarged)
    // Equal bits are equal bottoms here: no column's bottom is NaN but the sentinel's, whose
    // bits no bottom has, and only empty columns can have a zero bottom, all the same top inset.
    let apart = columnBottom.bitPattern ^ bottoms[next].bitPattern
    // The enlarged extent and bottom as the frame has them; the overlap test reaches to
    // `top + 2 · height + rowSpacing`, summed from the left as canEnlarge(column:top:height:)
    // does, which may round otherwise.
    let enlargedExtent = 2 * height + rowSpacing
    let enlargedBottom = itemTop + enlargedExtent
    if apart | unlike == 0,
      enlargement.enlarges(
        column: column, top: itemTop, reach: itemTop + 2 * height + rowSpacing,
        bottom: enlargedBottom)
    {
      guard enlargedBottom <= LayoutConfiguration.maximumExtent else {
        return .heightOverflow(index: position)
      }
      (bottoms[column], bottoms[next]) = (enlargedBottom, enlargedBottom)
      (reachable[column], reachable[next]) = (enlargedBottom, enlargedBottom)
      (flags[column], flags[next]) = (endsEnlarged, endsEnlarged)
      previousEnlarged = endsEnlarged
      lowest = enlargedBottom > lowest ? enlargedBottom : lowest
      slot.initialize(
        to: LayoutElement(
          checkedIndex: position, column: column, span: 2,
          frame: Rect(
            x: columns.xs[column], y: itemTop, width: enlargedWidth, height: enlargedExtent),
          isEnlarged: true, isAligned: false))
      return nil
    }
    previousEnlarged = 0
    // Alignment: alignmentTarget(column:top:height:), right neighbour first, a non-empty
    // neighbour whose bottom is within reach of the natural one; an empty column's and the
    // sentinels' reachable bottoms are NaN, near nothing.
    let naturalBottom = itemTop + height
    let reach = tolerance * height
    let (rightBottom, leftBottom) = (reachable[next], reachable[column &- 1])
    let towardsRight = abs(naturalBottom - rightBottom) < reach
    let isAligned = towardsRight || abs(naturalBottom - leftBottom) < reach
    var bottom = naturalBottom
    var extent = height
    if isAligned {
      bottom = towardsRight ? rightBottom : leftBottom
      // height(from:reaching:), its usual answer without a call; an item that keeps its natural
      // height always reaches its natural bottom.
      extent = bottom - itemTop
      if itemTop + extent != bottom {
        extent = WaterfallLayout.height(from: itemTop, reaching: bottom)
      }
    }
    // An alignment may only meet a bottom below the top (it can fail to for a height of a few
    // ulps of the top).
    guard bottom <= LayoutConfiguration.maximumExtent, bottom > itemTop else {
      return bottom > itemTop
        ? .heightOverflow(index: position) : .heightUnderflow(index: position)
    }
    bottoms[column] = bottom
    reachable[column] = bottom
    flags[column] = 0
    lowest = bottom > lowest ? bottom : lowest
    slot.initialize(
      to: LayoutElement(
        checkedIndex: position, column: column, span: 1,
        frame: Rect(x: columns.xs[column], y: itemTop, width: columnWidth, height: extent),
        isEnlarged: false, isAligned: isAligned))
    return nil
  }
}

/// What the irregular style's enlargement reads beyond the columns: the enlarged runs of each
/// column and the random stream.
struct Enlargement {
  /// Per column, the vertical extents of the enlarged items covering it, top to bottom, in
  /// memory of its own for the batch: the loop's copies of its step share them, so that adding a
  /// run never copies a column's array (a copied array of arrays would, once per batch and
  /// column: for a page appended to a long layout, all the runs of that column); given back by
  /// ``takeRuns(trimmedTo:)``.
  let runs: UnsafeMutablePointer<[ClosedRange<Double>]>
  private(set) var generator: SplitMix64
  let chance: Double
  let columnCount: Int

  init(runs: [[ClosedRange<Double>]], generator: SplitMix64, chance: Double) {
    self.runs = .allocate(capacity: runs.count)
    self.runs.initialize(from: runs, count: runs.count)
    self.generator = generator
    self.chance = chance
    columnCount = runs.count
  }

  /// Whether the item at `top` in `column`, which ends level with the next column where neither
  /// ends enlarged nor was the previous item, is enlarged: no enlarged item beside the pair
  /// overlaps `top..<reach`, and the draw passes (made only then). When it is, its run
  /// `top...bottom` is added to both columns.
  @inline(__always)
  mutating func enlarges(column: Int, top: Double, reach: Double, bottom: Double) -> Bool {
    let next = column &+ 1
    if column > 0, WaterfallLayout.overlaps(runs[column &- 1], top: top, bottom: reach) {
      return false
    }
    if next &+ 1 < columnCount, WaterfallLayout.overlaps(runs[next &+ 1], top: top, bottom: reach) {
      return false
    }
    guard generator.draw(chance) else { return false }
    let run = top...bottom
    runs[column].append(run)
    runs[next].append(run)
    return true
  }

  /// The runs, less those added after each column held `counts` when given, and the end of this
  /// value's memory: call once, last.
  func takeRuns(trimmedTo counts: [Int]?) -> [[ClosedRange<Double>]] {
    if let counts {
      for column in 0..<columnCount { runs[column].removeSubrange(counts[column]...) }
    }
    let taken = Array(UnsafeBufferPointer(start: runs, count: columnCount))
    runs.deinitialize(count: columnCount)
    runs.deallocate()
    return taken
  }
}
