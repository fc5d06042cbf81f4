// The placement loops of the two plain styles: the rules of `place(_:)` for one-column items in
// the shortest column, left to right, vertical, without a pixel grid, written as tight loops over
// a batch with the column state in memory of its own, so that no step checks a bound, a
// capacity or whether an array is shared. Tests hold each to the general placement, frame for
// frame.

/// The column state of a batch, in memory of its own: copied from the layout at the start, and
/// back once the whole batch stands (a failed batch changes nothing).
struct ColumnScratch {
  let count: Int
  let bottoms: UnsafeMutablePointer<Double>
  let isEmpty: UnsafeMutablePointer<Bool>
  let endsEnlarged: UnsafeMutablePointer<Bool>
  let xs: UnsafeMutablePointer<Double>

  init(_ state: WaterfallLayout.ColumnState, columnXs: [Double]) {
    count = columnXs.count
    bottoms = .allocate(capacity: count)
    isEmpty = .allocate(capacity: count)
    endsEnlarged = .allocate(capacity: count)
    xs = .allocate(capacity: count)
    for column in 0..<count {
      bottoms[column] = state.bottoms[column]
      isEmpty[column] = state.isEmpty[column]
      endsEnlarged[column] = state.endsEnlarged[column]
      xs[column] = columnXs[column]
    }
  }

  func deallocate() {
    bottoms.deallocate()
    isEmpty.deallocate()
    endsEnlarged.deallocate()
    xs.deallocate()
  }

  func store(into state: inout WaterfallLayout.ColumnState) {
    for column in 0..<count {
      state.bottoms[column] = bottoms[column]
      state.isEmpty[column] = isEmpty[column]
      state.endsEnlarged[column] = endsEnlarged[column]
    }
  }

  /// The column with the lowest stored bottom, leftmost on ties (as `chooseColumn(span:)` for
  /// one column without tolerance).
  func shortest() -> Int {
    var column = 0
    var lowest = bottoms[0]
    for candidate in 1..<count where bottoms[candidate] < lowest {
      column = candidate
      lowest = bottoms[candidate]
    }
    return column
  }

  /// Where an item in `column` starts: the top inset in an empty column, else the row spacing
  /// below its bottom.
  func top(of column: Int, insetTop: Double, rowSpacing: Double) -> Double {
    isEmpty[column] ? insetTop : bottoms[column] + rowSpacing
  }
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
    guard height.isFinite, height > 0 else { return .failure(.heightOverflow(index: position)) }
    return .success(height)
  }

  /// Calls `place` with each item's position and natural height, writing the elements it makes
  /// straight into a new array; the first item that cannot be placed (by its size, or as
  /// `place` says) ends the batch with the reason. Returns `nil` when an item spans other than
  /// one column: the batch is then for the general placement (checked here, as the items are
  /// read, rather than in a pass of its own over a large batch).
  private static func placeEach(
    _ items: [LayoutItem], from startCount: Int, columnWidth: Double,
    _ place: (_ position: Int, _ height: Double) -> Result<LayoutElement, LayoutError>
  ) throws(LayoutError) -> [LayoutElement]? {
    var failure: LayoutError?
    var needsGeneralPlacement = false
    let placed = [LayoutElement](unsafeUninitializedCapacity: items.count) { buffer, count in
      guard let output = buffer.baseAddress else { return }
      HugePages.advise(
        UnsafeMutableRawPointer(output),
        byteCount: buffer.count * MemoryLayout<LayoutElement>.stride)
      items.withUnsafeBufferPointer { items in
        for offset in 0..<items.count {
          let position = startCount + offset
          guard items[offset].span == 1 else {
            needsGeneralPlacement = true
            return
          }
          let element = naturalHeight(
            of: items[offset], columnWidth: columnWidth, position: position
          )
          .flatMap { place(position, $0) }
          switch element {
          case .success(let element):
            (output + offset).initialize(to: element)
            count = offset + 1
          case .failure(let error):
            failure = error
            return
          }
        }
      }
    }
    if let failure { throw failure }
    return needsGeneralPlacement ? nil : placed
  }

  /// The plain waterfall's placement as one loop; `false`, with nothing changed, when an item
  /// spans other than one column.
  mutating func appendPlainWaterfall(_ items: [LayoutItem]) throws(LayoutError) -> Bool {
    let startCount = elements.count
    let top = geometry.insets.top
    let rowSpacing = geometry.rowSpacing
    let columnWidth = columnWidth
    let columns = ColumnScratch(state, columnXs: columnXs)
    defer { columns.deallocate() }
    var lowest = state.lowestBottom
    var lastColumn = -1
    // Each block's extent, added to the index once every item stands: the extent of the items
    // of the current block so far, and those of the blocks before.
    var blockLow = Double.infinity
    var blockHigh = -Double.infinity
    var blockBounds: [(position: Int, low: Double, high: Double)] = []
    blockBounds.reserveCapacity(items.count / BlockIndex.blockSize + 2)
    let lastPosition = startCount + items.count - 1
    let batch = try Self.placeEach(items, from: startCount, columnWidth: columnWidth) {
      position, height in
      let column = columns.shortest()
      let y = columns.top(of: column, insetTop: top, rowSpacing: rowSpacing)
      let newBottom = y + height
      guard newBottom.isFinite else { return .failure(.heightOverflow(index: position)) }
      columns.bottoms[column] = newBottom
      columns.isEmpty[column] = false
      columns.endsEnlarged[column] = false
      lowest = max(lowest, newBottom)
      lastColumn = column
      blockLow = min(blockLow, y)
      blockHigh = max(blockHigh, newBottom)
      if (position + 1) % BlockIndex.blockSize == 0 || position == lastPosition {
        blockBounds.append((position, blockLow, blockHigh))
        blockLow = .infinity
        blockHigh = -.infinity
      }
      return .success(
        LayoutElement(
          index: position, column: column, span: 1,
          frame: Rect(x: columns.xs[column], y: y, width: columnWidth, height: height),
          isEnlarged: false, isAligned: false))
    }
    guard let placed = batch else { return false }
    blockIndex.reserveCapacity(startCount + items.count)
    for bounds in blockBounds {
      blockIndex.add(index: bounds.position, low: bounds.low, high: bounds.high)
    }
    commit(placed, columns: columns, lowest: lowest)
    if lastColumn >= 0 {
      state.previousWasEnlarged = false
      state.cursor = (lastColumn + 1) % columns.count
    }
    return true
  }

  /// Appends a batch's elements and stores its column state.
  private mutating func commit(_ placed: [LayoutElement], columns: ColumnScratch, lowest: Double) {
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
    let startCount = elements.count
    let top = geometry.insets.top
    let rowSpacing = geometry.rowSpacing
    let columnWidth = columnWidth
    let enlargedWidth = 2 * columnWidth + geometry.columnSpacing
    let tolerance = geometry.alignTolerance
    let chance = geometry.enlargeChance
    let scratch = ColumnScratch(state, columnXs: columnXs)
    defer { scratch.deallocate() }
    let columns = scratch.count
    let (bottoms, isEmpty, endsEnlarged) = (scratch.bottoms, scratch.isEmpty, scratch.endsEnlarged)
    // Moved out, so that appending a run copies nothing; put back (less this batch's runs, on an
    // error) before returning.
    var runs = enlargedRuns
    enlargedRuns = []
    let runCounts = runs.map(\.count)
    var generator = state.generator
    var previousWasEnlarged = state.previousWasEnlarged
    var lowest = state.lowestBottom
    var lastColumn = -1
    var lastSpan = 1
    let batch: [LayoutElement]?
    do {
      batch = try Self.placeEach(items, from: startCount, columnWidth: columnWidth) {
        position, height in
        let column = scratch.shortest()
        let itemTop = scratch.top(of: column, insetTop: top, rowSpacing: rowSpacing)
        // Enlargement: the conditions of canEnlarge(column:top:height:), the draw last.
        var isEnlarged = false
        let next = column + 1
        if next < columns, !previousWasEnlarged,
          (isEmpty[column] && isEmpty[next])
            || (!isEmpty[column] && !isEmpty[next] && bottoms[column] == bottoms[next]),
          !endsEnlarged[column], !endsEnlarged[next]
        {
          let enlargedBottom = itemTop + 2 * height + rowSpacing
          let blockedLeft =
            column > 0 && Self.overlaps(runs[column - 1], top: itemTop, bottom: enlargedBottom)
          let blockedRight =
            !blockedLeft && next + 1 < columns
            && Self.overlaps(runs[next + 1], top: itemTop, bottom: enlargedBottom)
          if !blockedLeft, !blockedRight { isEnlarged = generator.draw(chance) }
        }
        var extent = height
        var bottom: Double
        var isAligned = false
        if isEnlarged {
          extent = 2 * height + rowSpacing
          bottom = itemTop + extent
        } else {
          // Alignment: alignmentTarget(column:top:height:), right neighbour first.
          let naturalBottom = itemTop + height
          let reach = tolerance * height
          var target: Double?
          if next < columns, !isEmpty[next], abs(naturalBottom - bottoms[next]) < reach {
            target = bottoms[next]
          } else if column > 0, !isEmpty[column - 1],
            abs(naturalBottom - bottoms[column - 1]) < reach
          {
            target = bottoms[column - 1]
          }
          if let target {
            isAligned = true
            extent = Self.height(from: itemTop, reaching: target)
            bottom = target
          } else {
            bottom = itemTop + height
          }
        }
        guard bottom.isFinite else { return .failure(.heightOverflow(index: position)) }
        let span = isEnlarged ? 2 : 1
        for covered in column..<column + span {
          bottoms[covered] = bottom
          isEmpty[covered] = false
          endsEnlarged[covered] = isEnlarged
          if isEnlarged { runs[covered].append(itemTop...bottom) }
        }
        previousWasEnlarged = isEnlarged
        lowest = max(lowest, bottom)
        lastColumn = column
        lastSpan = span
        let frame = Rect(
          x: scratch.xs[column], y: itemTop, width: isEnlarged ? enlargedWidth : columnWidth,
          height: extent)
        return .success(
          LayoutElement(
            index: position, column: column, span: span, frame: frame, isEnlarged: isEnlarged,
            isAligned: isAligned))
      }
    } catch {
      for column in runs.indices { runs[column].removeSubrange(runCounts[column]...) }
      enlargedRuns = runs
      throw error
    }
    guard let placed = batch else {
      for column in runs.indices { runs[column].removeSubrange(runCounts[column]...) }
      enlargedRuns = runs
      return false
    }
    commit(placed, columns: scratch, lowest: lowest)
    enlargedRuns = runs
    state.generator = generator
    state.previousWasEnlarged = previousWasEnlarged
    if lastColumn >= 0 { state.cursor = (lastColumn + lastSpan) % columns }
    blockIndex.add(elements[startCount...], axis: .vertical)
    return true
  }
}
