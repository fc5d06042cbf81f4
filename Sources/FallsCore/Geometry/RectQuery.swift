// Which elements intersect a rectangle: UICollectionViewLayout's
// layoutAttributesForElements(in:), answered from an index of element blocks instead of a scan.

/// The rect query's index: the elements in blocks of 64 consecutive indices, with each block's
/// extent along the scroll axis, and two running bounds that make the blocks a query can meet a
/// contiguous range found by binary search.
///
/// Keeping it costs a comparison or two per placed item and 32 bytes per 64 items; it holds for
/// every placement (items placed higher than earlier ones included), since it never assumes an
/// order of the elements along the axis.
struct BlockIndex: Equatable, Sendable {
  static let blockSize = 64

  /// Per block: the lowest near edge and the highest far edge of its elements.
  private(set) var lows: [Double] = []
  private(set) var highs: [Double] = []
  /// `reachedHighs[b]` is the highest far edge of blocks 0…b: never decreases, so the first
  /// block reaching past a query's near edge is a binary search away.
  private var reachedHighs: [Double] = []
  /// `remainingLows[b]` is the lowest near edge of blocks b…end: never decreases, so the last
  /// block starting before a query's far edge is a binary search away.
  private var remainingLows: [Double] = []

  /// Adds the element at `index` (the next one, or one of the current last block) that spans
  /// `low..<high` along the scroll axis.
  ///
  /// - Complexity: O(1) amortized, except when an element starts above blocks before its own,
  ///   which are lowered one by one.
  mutating func add(index: Int, low: Double, high: Double) {
    let block = index / Self.blockSize
    if block == lows.count {
      lows.append(low)
      highs.append(high)
      reachedHighs.append(max(reachedHighs.last ?? -.infinity, high))
      remainingLows.append(low)
    } else {
      lows[block] = min(lows[block], low)
      highs[block] = max(highs[block], high)
      reachedHighs[block] = max(reachedHighs[block], high)
      remainingLows[block] = min(remainingLows[block], low)
    }
    var earlier = block - 1
    while earlier >= 0, remainingLows[earlier] > low {
      remainingLows[earlier] = low
      earlier -= 1
    }
  }

  init() {}

  /// The index of `elements` along `axis`.
  init(_ elements: [LayoutElement], axis: LayoutAxis) {
    add(elements[...], axis: axis)
  }

  /// Forgets the blocks past the first `count` elements, which were taken back (an append that
  /// places its held-back items again). A block that keeps some of its elements keeps its
  /// extent, which may now reach further than they do: the query still finds every element
  /// that meets it, and looks at a few more.
  mutating func truncate(to count: Int) {
    let blocks = (count + Self.blockSize - 1) / Self.blockSize
    guard blocks < lows.count else { return }
    lows.removeSubrange(blocks...)
    highs.removeSubrange(blocks...)
    reachedHighs.removeSubrange(blocks...)
    remainingLows.removeSubrange(blocks...)
  }

  /// Adds `elements`, the ones after those already indexed, block by block.
  mutating func add(_ elements: ArraySlice<LayoutElement>, axis: LayoutAxis) {
    var blocks = BatchBlocks(startCount: elements.startIndex, count: elements.count)
    elements.withUnsafeBufferPointer { batch in
      for offset in batch.indices {
        blocks.include(offset: offset, of: batch, axis: axis)
      }
    }
    blocks.add(to: &self)
  }

  mutating func reserveCapacity(_ elementCount: Int) {
    let blocks = (elementCount + Self.blockSize - 1) / Self.blockSize
    lows.reserveCapacity(blocks)
    highs.reserveCapacity(blocks)
    reachedHighs.reserveCapacity(blocks)
    remainingLows.reserveCapacity(blocks)
  }

  /// The blocks that may hold an element meeting `low..<high` along the axis: from the first
  /// reaching past `low` to the last starting before `high`.
  func candidateBlocks(low: Double, high: Double) -> Range<Int> {
    // The first block reaching past `low`, then from there the first whose remaining blocks all
    // start at or after `high`.
    let first = reachedHighs.withUnsafeBufferPointer { highs in
      Self.partitionPoint(of: highs, from: 0) { $0 <= low }
    }
    let end = remainingLows.withUnsafeBufferPointer { lows in
      Self.partitionPoint(of: lows, from: first) { $0 < high }
    }
    return first..<end
  }

  /// The first index from `start` on at which `isBefore` no longer holds, for `values` along
  /// which it holds up to some index and not after.
  ///
  /// Each step halves the range by a selection rather than a branch: a query's searches land
  /// anywhere, so a branch per step went either way at random, and a mispredicted one costs
  /// more than the step.
  /// - Complexity: O(log *n*) for *n* values from `start`.
  @inline(__always)
  static func partitionPoint(
    of values: UnsafeBufferPointer<Double>, from start: Int, while isBefore: (Double) -> Bool
  ) -> Int {
    var base = start
    var length = values.count - start
    guard length > 0 else { return start }
    while length > 1 {
      let half = length / 2
      base = isBefore(values[base &+ half]) ? base &+ half : base
      length -= half
    }
    return isBefore(values[base]) ? base &+ 1 : base
  }

}

extension WaterfallLayout {
  /// The elements whose frames intersect `rect` (share interior points with it), in index
  /// order.
  ///
  /// The elements are indexed in blocks of 64 consecutive indices with each block's extent along
  /// the scroll axis; the query binary-searches the range of blocks that can reach the
  /// rectangle, skips those of them that do not, and tests the elements of the rest. Ring
  /// styles, whose items overlap by design and move on every append, are scanned.
  ///
  /// - Complexity: O(log(*n*/64) + *b* + 64 · *b*′) for *n* elements, *b* blocks between the
  ///   first reaching the rectangle and the last starting before its far edge, and *b*′ of them
  ///   meeting it; for a feed of ordinary images *b* and *b*′ are a handful whatever *n*. O(*n*)
  ///   for the ring styles.
  public func elements(in rect: Rect) -> [LayoutElement] {
    guard engine.isIndexed else { return elements.filter { $0.frame.intersects(rect) } }
    let (low, high) = rect.along(configuration.axis)
    guard low < high, rect.width > 0, rect.height > 0 else { return [] }
    var found: [LayoutElement] = []
    let blocks = blockIndex.candidateBlocks(low: low, high: high)
    // Room for a block's worth at once, more than a screenful usually meets: grown one element
    // at a time from empty, the array was reallocated five or six times for a phone's screen, a
    // quarter of the query's time.
    found.reserveCapacity(BlockIndex.blockSize)
    elements.withUnsafeBufferPointer { elements in
      for block in blocks
      where blockIndex.lows[block] < high && blockIndex.highs[block] > low {
        let start = block * BlockIndex.blockSize
        for index in start..<min(start + BlockIndex.blockSize, elements.count)
        where elements[index].frame.intersects(rect) {
          found.append(elements[index])
        }
      }
    }
    return found
  }
}

/// The extents of a batch's blocks for the rect query's index, gathered as a loop places the
/// items and added to the index once the whole batch stands (a failed batch adds nothing).
///
/// A block's extent is read from its frames once its last element is written, in a burst the
/// processor's minimum and maximum instructions do without branches; kept from a loop's own
/// values, element by element, the compiler made them branches on the irregular style's paths,
/// mispredicted for a third of the items.
struct BatchBlocks {
  private var blocks: [(position: Int, low: Double, high: Double)] = []
  private let startCount: Int
  private let lastPosition: Int
  /// The position that closes the current block: the last of its 64, or the batch's last.
  private var blockEnd: Int

  init(startCount: Int, count: Int) {
    self.startCount = startCount
    lastPosition = startCount + count - 1
    blockEnd = min(
      startCount / BlockIndex.blockSize * BlockIndex.blockSize + BlockIndex.blockSize - 1,
      lastPosition)
    blocks.reserveCapacity(count / BlockIndex.blockSize + 2)
  }

  /// Takes in the element at `offset` of the batch (the next one), once it is written.
  @inline(__always)
  mutating func include(
    offset: Int, of batch: UnsafeBufferPointer<LayoutElement>, axis: LayoutAxis
  ) {
    if startCount &+ offset == blockEnd { closeScannedBlock(batch, axis: axis) }
  }

  /// Records the extent of the block that ends at `blockEnd`, from its elements' frames.
  // Inlined into the loop that calls it once per 64 elements: a call would save and restore
  // the loop's registers around it.
  @inline(__always)
  private mutating func closeScannedBlock(
    _ batch: UnsafeBufferPointer<LayoutElement>, axis: LayoutAxis
  ) {
    let blockStart = max(blockEnd / BlockIndex.blockSize * BlockIndex.blockSize, startCount)
    let block = UnsafeBufferPointer(
      rebasing: batch[(blockStart - startCount)...(blockEnd - startCount)])
    @inline(__always) func extent(_ along: (Rect) -> (near: Double, far: Double)) -> (
      low: Double, high: Double
    ) {
      // Two minima and maxima side by side, so that each step waits for the one two back
      // rather than the one before (a chain of dependent minimum instructions).
      var (low, high) = (Double.infinity, -Double.infinity)
      var (otherLow, otherHigh) = (Double.infinity, -Double.infinity)
      var offset = 0
      while offset &+ 1 < block.count {
        let (near, far) = along(block[offset].frame)
        let (otherNear, otherFar) = along(block[offset &+ 1].frame)
        low = near < low ? near : low
        high = far > high ? far : high
        otherLow = otherNear < otherLow ? otherNear : otherLow
        otherHigh = otherFar > otherHigh ? otherFar : otherHigh
        offset &+= 2
      }
      if offset < block.count {
        let (near, far) = along(block[offset].frame)
        low = near < low ? near : low
        high = far > high ? far : high
      }
      low = otherLow < low ? otherLow : low
      high = otherHigh > high ? otherHigh : high
      return (low, high)
    }
    let (low, high) = axis == .vertical ? extent { ($0.y, $0.maxY) } : extent { ($0.x, $0.maxX) }
    blocks.append((blockEnd, low, high))
    blockEnd = min(blockEnd + BlockIndex.blockSize, lastPosition)
  }

  func add(to index: inout BlockIndex) {
    index.reserveCapacity(lastPosition + 1)
    for block in blocks { index.add(index: block.position, low: block.low, high: block.high) }
  }
}
