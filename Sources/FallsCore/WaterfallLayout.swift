/// A waterfall (瀑布流) layout: items placed in order, each into the shortest column.
///
/// A layout is a value: it holds its configuration, the elements placed so far and the state of
/// each column. `append(_:)` places more items below them without moving any already placed (a
/// page loaded when the user pulls up), continuing the random stream where it stopped, so that
/// appending pages one by one gives exactly the layout of their concatenation; `reset()` starts
/// over (a pull-down refresh). It does no I/O and may be used from any thread; like any value, a
/// copy is independent.
///
/// The rules, for column width `w` (see ``LayoutConfiguration/columnWidth``):
/// - An item's natural height is `w · height / width`.
/// - Each item goes into the column whose bottom is highest on screen (the smallest y); ties go to
///   the leftmost. A column's first item has `y = top`; a later one sits exactly `rowSpacing`
///   below the bottom of the item above it.
/// - `.irregular` only: an item placed in column `k` is enlarged to span `k` and `k + 1`, with
///   frame `(x, y, 2w + columnSpacing, 2h + rowSpacing)`, when `k` is not the last column,
///   columns `k` and `k + 1` are both empty or end at exactly the same bottom, the previous item
///   was not enlarged, the last items of columns `k` and `k + 1` are not enlarged, no enlarged
///   item in column `k − 1` or `k + 2` overlaps its vertical extent, and a draw from the seeded
///   ``SplitMix64`` stream passes ``LayoutConfiguration/enlargeChance``. The draw is made only
///   when every other condition holds.
/// - `.irregular` only: a one-column item whose natural bottom lands less than
///   `alignTolerance · h` away from the bottom of the right neighbour column (checked first), or
///   else of the left one, takes exactly that bottom and is marked aligned. Empty neighbours are
///   never aligned to.
///
/// Column bottoms are stored, never recomputed: an aligned column takes the very value of the
/// bottom it was aligned to, and the next item's top is computed from the stored value, so equal
/// bottoms compare equal. Every frame's `y + height` is that stored bottom exactly, so a reader of
/// the frames alone sees the same numbers; the one exception is an aligned item for which no
/// Double height makes `y + height` land on the target (a rounding tie, seen near the top of a
/// layout where an item is taller than its top), whose `y + height` is then one ulp away.
///
///     var layout = try WaterfallLayout(LayoutConfiguration(style: .waterfall, columns: 2))
///     try layout.append([LayoutItem(width: 200, height: 300)])
///     layout.elements[0].frame  // x 10, y 10, width 172.5, height 258.75
///
/// The other styles of the family: `.grid` fills a repeating ``QuiltPattern`` block by block;
/// `.circle`, `.cube` and `.sphere` place every item by its index and the item count (see
/// ``LayoutStyle``), so appending to them places every item again, and they carry a
/// ``Transform3D`` and a centre per item in ``transforms`` and ``centers``.
///
/// Beyond the seeds, the columnar styles take what the well-known masonry engines offer: items
/// that span several columns (``LayoutItem/span``), a placement ``PlacementOrder`` and a flow
/// ``LayoutConfiguration/tolerance``, right-to-left columns, pixel alignment
/// (``LayoutConfiguration/scale``) and a horizontal ``LayoutAxis``. ``elements(in:)`` answers
/// which elements intersect a rectangle without scanning them all.
///
/// - Complexity: Placing one item costs O(*c*) for *c* columns in the columnar styles (O(*c* ·
///   *s*) for a span of *s*), O(1) in `.grid`; appending *k* items to a ring style costs
///   O(*n* + *k*) for the *n* already there.
public struct WaterfallLayout: Sendable {
  /// The configuration the layout was made with; it never changes.
  public let configuration: LayoutConfiguration
  /// Every element placed so far, in the order the items were given.
  public internal(set) var elements: [LayoutElement] = []
  /// The 3D transform of each element in a ring style (`circle`, `cube`, `sphere`); empty in the
  /// others.
  public internal(set) var transforms: [Transform3D] = []
  /// The centre of each element in a ring style, as computed (not rounded through the frame);
  /// empty in the others.
  public internal(set) var centers: [Point] = []

  /// What the engine computes in: ``LayoutConfiguration/geometry``.
  let geometry: LayoutConfiguration
  let columnWidth: Double
  let columnXs: [Double]
  var state: ColumnState
  /// Per column, the vertical extents of the enlarged items covering it, top to bottom.
  var enlargedRuns: [[ClosedRange<Double>]]
  /// The rect query's index of the elements.
  var blockIndex = BlockIndex()
  /// Whether the plain waterfall and the plain irregular style may take their specialised
  /// loops; tests turn it off to compare the loops with the general placement.
  var allowsPlainLoop = true

  /// The per-column state that placing an item reads and changes; small enough to snapshot.
  struct ColumnState: Sendable {
    /// The stored bottom of each column; meaningful only where `isEmpty` is false.
    var bottoms: [Double]
    var isEmpty: [Bool]
    /// Whether the last item placed in each column is enlarged.
    var endsEnlarged: [Bool]
    var previousWasEnlarged = false
    var lowestBottom = -Double.infinity
    var generator: SplitMix64
    /// Where the next item's search starts: the column after the previous item (in the order's
    /// own counting for the turn-taking orders).
    var cursor = 0
  }

  /// Creates an empty layout.
  ///
  /// - Throws: What ``LayoutConfiguration/validate()`` throws.
  /// - Complexity: O(*c*) for *c* columns.
  public init(_ configuration: LayoutConfiguration) throws(LayoutError) {
    try configuration.validate()
    self.configuration = configuration
    let geometry = configuration.geometry
    self.geometry = geometry
    columnWidth = geometry.columnWidth
    columnXs = (0..<geometry.columns).map { geometry.x(ofColumn: $0) }
    state = Self.emptyState(geometry)
    enlargedRuns = Array(repeating: [], count: geometry.columns)
  }

  private static func emptyState(_ geometry: LayoutConfiguration) -> ColumnState {
    let columns = geometry.columns
    return ColumnState(
      bottoms: Array(repeating: geometry.insets.top, count: columns),
      isEmpty: Array(repeating: true, count: columns),
      endsEnlarged: Array(repeating: false, count: columns),
      generator: SplitMix64(seed: geometry.seed)
    )
  }

  /// Creates a layout of `items`.
  ///
  /// - Throws: What ``init(_:)`` and ``append(_:)`` throw.
  /// - Complexity: O(*n* · *c*) for *n* items and *c* columns.
  @inlinable
  public init(_ configuration: LayoutConfiguration, items: some Sequence<LayoutItem>)
    throws(LayoutError)
  {
    try self.init(configuration)
    try append(Array(items))
  }

  /// The extent of the content along the scroll axis: the lowest column bottom plus the bottom
  /// inset, or `top + bottom` when there are no items (for a horizontal axis: the rightmost
  /// row end plus the right inset).
  ///
  /// A ring style's content is the viewport: `viewportHeight` for `.circle`, and one viewport
  /// per item (at least one) for `.cube` and `.sphere`, which turn as they scroll.
  public var contentExtent: Double {
    let insets = geometry.insets
    switch configuration.style {
    case .circle:
      return configuration.viewportHeight
    case .cube, .sphere:
      return configuration.viewportHeight * Double(max(elements.count, 1))
    case .irregular, .waterfall, .grid:
      return elements.isEmpty ? insets.top + insets.bottom : state.lowestBottom + insets.bottom
    }
  }

  /// The size of the content: the container width by ``contentExtent`` for a vertical axis,
  /// ``contentExtent`` by the viewport height for a horizontal one.
  public var contentSize: Size {
    configuration.axis == .vertical
      ? Size(width: configuration.width, height: contentExtent)
      : Size(width: contentExtent, height: configuration.viewportHeight)
  }

  /// The height of the content; see ``contentSize``.
  public var contentHeight: Double { contentSize.height }

  /// The stored bottom of each column, or `nil` for a column without items (along the scroll
  /// axis, in the engine's coordinates).
  public var columnBottoms: [Double?] {
    zip(state.bottoms, state.isEmpty).map { $1 ? nil : $0 }
  }

  /// The element of the item at `index`, if there is one.
  ///
  /// - Complexity: O(1).
  public func element(at index: Int) -> LayoutElement? {
    elements.indices.contains(index) ? elements[index] : nil
  }

  /// Removes every element and starts over, as a pull-down refresh does; the random stream
  /// starts again from the seed, so appending the same items gives the same layout as a fresh
  /// one.
  ///
  /// - Complexity: O(*c*) for *c* columns, plus releasing the elements.
  public mutating func reset() {
    elements.removeAll()
    transforms.removeAll()
    centers.removeAll()
    state = Self.emptyState(geometry)
    enlargedRuns = Array(repeating: [], count: geometry.columns)
    blockIndex = BlockIndex()
  }

  /// Makes room for `count` elements in all, for a caller that will append that many in several
  /// batches (each batch otherwise grows the storage as it needs, up to twice what it holds).
  /// Room beyond what is held grows at least twofold, so that reserving before every small page
  /// stays cheap.
  ///
  /// - Complexity: O(*n*) for the *n* elements already placed, when the storage moves.
  public mutating func reserveCapacity(_ count: Int) {
    guard count > elements.capacity else { return }
    let capacity = elements.isEmpty ? count : max(count, elements.capacity * 2)
    reserveElements(capacity)
    blockIndex.reserveCapacity(capacity)
  }

  /// Makes room for `capacity` elements, in huge pages when the storage is large (see
  /// ``HugePages``).
  mutating func reserveElements(_ capacity: Int) {
    guard capacity > elements.capacity else { return }
    elements.reserveCapacity(capacity)
    HugePages.advise(&elements)
  }

  /// Places `items` below those already laid out.
  ///
  /// On error nothing is appended and the layout is unchanged.
  /// - Throws: ``LayoutError/invalidItemSize(index:width:height:)`` for an item whose size is
  ///   not finite and positive or whose span is below 1, ``LayoutError/heightOverflow(index:)``
  ///   for one whose height or bottom is too large to represent.
  /// - Complexity: O(*k* · *c*) for *k* new items and *c* columns, plus O(*c*) to keep a snapshot
  ///   for the all-or-nothing promise; independent of the items already laid out (ring styles
  ///   excepted, see the type's discussion).
  @inlinable
  public mutating func append(_ items: some Sequence<LayoutItem>) throws(LayoutError) {
    try append(Array(items))
  }

  /// Places `items` below those already laid out; see ``append(_:)-(Sequence<LayoutItem>)``.
  ///
  /// This overload is not generic, so the placement loop is compiled for arrays once.
  public mutating func append(_ items: [LayoutItem]) throws(LayoutError) {
    if configuration.style.isRing {
      var count = elements.count
      for item in items {
        guard item.hasValidSize else {
          throw .invalidItemSize(index: count, width: item.width, height: item.height)
        }
        count += 1
      }
      placeRing(count: count)
      return
    }
    if allowsPlainLoop {
      if isPlainWaterfall, try appendPlainWaterfall(items) { return }
      if isPlainIrregular, try appendIrregular(items) { return }
    }
    let snapshot = state
    let startCount = elements.count
    // Grow geometrically, once, rather than item by item (a large batch would otherwise copy
    // the elements several times over).
    let needed = startCount + items.count
    if elements.capacity < needed {
      reserveElements(max(needed, elements.capacity * 2))
      blockIndex.reserveCapacity(max(needed, elements.capacity))
    }
    let runCounts = enlargedRuns.map(\.count)
    for item in items {
      do {
        try place(item)
      } catch {
        state = snapshot
        elements.removeSubrange(startCount...)
        for column in enlargedRuns.indices {
          enlargedRuns[column].removeSubrange(runCounts[column]...)
        }
        throw error
      }
    }
    // The index learns of the new elements once they all stand: nothing to undo on an error.
    blockIndex.add(elements[startCount...], axis: configuration.axis)
  }

  private mutating func place(_ item: LayoutItem) throws(LayoutError) {
    let index = elements.count
    guard item.hasValidSize, item.span >= 1 else {
      throw .invalidItemSize(index: index, width: item.width, height: item.height)
    }
    if configuration.style == .grid {
      try placeTile(index: index)
      return
    }
    let columns = geometry.columns
    let span = min(item.span, columns)
    let spanWidth = Double(span) * columnWidth + Double(span - 1) * geometry.columnSpacing
    // In a horizontal layout the engine's "height" is the item's width.
    let (itemAcross, itemAlong) =
      configuration.axis == .vertical ? (item.width, item.height) : (item.height, item.width)
    let height = spanWidth * itemAlong / itemAcross
    guard height > 0 else { throw .heightUnderflow(index: index) }
    guard height <= LayoutConfiguration.maximumExtent else { throw .heightOverflow(index: index) }

    let column = chooseColumn(span: span)
    var top = -Double.infinity
    for covered in column..<column + span {
      top = max(
        top,
        state.isEmpty[covered] ? geometry.insets.top : state.bottoms[covered] + geometry.rowSpacing)
    }
    var placedSpan = span
    var isEnlarged = false
    var isAligned = false
    var extent = height
    var bottom: Double
    if configuration.style == .irregular, span == 1,
      canEnlarge(column: column, top: top, height: height)
    {
      placedSpan = 2
      isEnlarged = true
      extent = 2 * height + geometry.rowSpacing
      bottom = top + extent
    } else if configuration.style == .irregular, span == 1,
      let target = alignmentTarget(column: column, top: top, height: height)
    {
      isAligned = true
      extent = Self.height(from: top, reaching: target)
      bottom = target
    } else {
      bottom = top + height
    }
    // A height lost in rounding against the top (or an alignment that meets it) places nothing.
    guard top + height > top, bottom > top else { throw .heightUnderflow(index: index) }
    guard bottom <= LayoutConfiguration.maximumExtent else { throw .heightOverflow(index: index) }
    for covered in column..<column + placedSpan {
      state.bottoms[covered] = bottom
      state.isEmpty[covered] = false
      state.endsEnlarged[covered] = isEnlarged
      if isEnlarged { enlargedRuns[covered].append(top...bottom) }
    }
    state.previousWasEnlarged = isEnlarged
    state.lowestBottom = max(state.lowestBottom, bottom)
    advanceCursor(column: column, span: placedSpan)
    let frame = finalFrame(
      column: column, span: placedSpan, top: top, extent: extent,
      width: Double(placedSpan) * columnWidth + Double(placedSpan - 1) * geometry.columnSpacing)
    record(
      LayoutElement(
        index: index, column: column, span: placedSpan, frame: frame, isEnlarged: isEnlarged,
        isAligned: isAligned))
  }

  /// Appends an element (``append(_:)`` adds it to the rect query's index with the rest of its
  /// batch).
  mutating func record(_ element: LayoutElement) {
    elements.append(element)
  }

  /// The frame on screen of a placement computed in the engine's coordinates: columns counted
  /// from the right for `.rightToLeft`, edges rounded to the pixel grid, x and y exchanged for a
  /// horizontal axis.
  func finalFrame(column: Int, span: Int, top: Double, extent: Double, width: Double) -> Rect {
    let physical = geometry.direction == .leftToRight ? column : geometry.columns - column - span
    var frame = Rect(x: columnXs[physical], y: top, width: width, height: extent)
    if let scale = geometry.scale {
      func snap(_ value: Double) -> Double { (value * scale).rounded() / scale }
      // A right edge followed by another column is that column's left edge less the (snapped)
      // spacing, so that neighbours snap to the same grid line: from x + width, the two sums
      // can round to either side of a half-way point and overlap by a pixel.
      let next = physical + span
      let maxX =
        next < geometry.columns
        ? snap(columnXs[next]) - geometry.columnSpacing : snap(frame.maxX)
      let (x, y, maxY) = (snap(frame.x), snap(frame.y), snap(frame.maxY))
      frame = Rect(x: x, y: y, width: maxX - x, height: maxY - y)
    }
    if configuration.axis == .horizontal {
      frame = Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
    }
    return frame
  }

  /// The column where an item of `span` columns starts, by the configured order.
  // `mutating` though it changes nothing: a call of a non-mutating method from `place` copied
  // the whole layout value (and retained its arrays) to pass it.
  private mutating func chooseColumn(span: Int) -> Int {
    let columns = geometry.columns
    switch geometry.order {
    case .leftToRight:
      return state.cursor + span <= columns ? state.cursor : 0
    case .rightToLeft:
      let position = state.cursor + span <= columns ? state.cursor : 0
      return columns - position - span
    case .shortest where span == 1 && geometry.tolerance == 0:
      // The common case, without the general case's bookkeeping.
      var best = 0
      var bestBottom = state.bottoms[0]
      for column in 1..<columns where state.bottoms[column] < bestBottom {
        best = column
        bestBottom = state.bottoms[column]
      }
      return best
    case .shortest:
      // The top of each start: the highest bottom among the columns it would cover.
      var tops = [Double](repeating: 0, count: columns - span + 1)
      var lowest = Double.infinity
      for start in tops.indices {
        var top = -Double.infinity
        for covered in start..<start + span { top = max(top, state.bottoms[covered]) }
        tops[start] = top
        lowest = min(lowest, top)
      }
      let tolerance = geometry.tolerance
      guard tolerance > 0 else { return tops.firstIndex(of: lowest) ?? 0 }
      let tied = tops.indices.filter { tops[$0] <= lowest + tolerance }
      return tied.first { $0 >= state.cursor } ?? tied.first ?? 0
    }
  }

  private mutating func advanceCursor(column: Int, span: Int) {
    let columns = geometry.columns
    switch geometry.order {
    case .leftToRight, .shortest:
      state.cursor = (column + span) % columns
    case .rightToLeft:
      state.cursor = (columns - column) % columns
    }
  }

  /// Whether an item of natural height `height` placed at `top` in `column` may be enlarged;
  /// draws from the stream only when every other condition holds.
  private mutating func canEnlarge(column: Int, top: Double, height: Double) -> Bool {
    let next = column + 1
    guard next < geometry.columns, !state.previousWasEnlarged else { return false }
    let bothEmpty = state.isEmpty[column] && state.isEmpty[next]
    let sameBottom =
      !state.isEmpty[column] && !state.isEmpty[next]
      && state.bottoms[column] == state.bottoms[next]
    guard bothEmpty || sameBottom else { return false }
    guard !state.endsEnlarged[column], !state.endsEnlarged[next] else { return false }
    let bottom = top + 2 * height + geometry.rowSpacing
    if column > 0, Self.overlaps(enlargedRuns[column - 1], top: top, bottom: bottom) {
      return false
    }
    if next + 1 < geometry.columns, Self.overlaps(enlargedRuns[next + 1], top: top, bottom: bottom)
    {
      return false
    }
    return state.generator.draw(geometry.enlargeChance)
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
    return low < runs.count && runs[low].lowerBound < bottom
  }

  /// The neighbour bottom a one-column item aligns to, right neighbour first, if any is due.
  // `mutating` though it changes nothing: a call of a non-mutating method from `place` copied
  // the whole layout value (and retained its arrays) to pass it.
  private mutating func alignmentTarget(column: Int, top: Double, height: Double) -> Double? {
    let naturalBottom = top + height
    let reach = geometry.alignTolerance * height
    let right = column + 1
    if right < geometry.columns, !state.isEmpty[right],
      abs(naturalBottom - state.bottoms[right]) < reach
    {
      return state.bottoms[right]
    }
    let left = column - 1
    if left >= 0, !state.isEmpty[left], abs(naturalBottom - state.bottoms[left]) < reach {
      return state.bottoms[left]
    }
    return nil
  }

  /// The height `h` nearest to `bottom − top` for which `top + h` is exactly `bottom`.
  ///
  /// `bottom − top` itself is usually such a height; otherwise one a few ulps away is. When a
  /// rounding tie makes every candidate miss, the nearest miss is returned.
  static func height(from top: Double, reaching bottom: Double) -> Double {
    let difference = bottom - top
    if top + difference == bottom { return difference }
    // Candidates in the order difference, then one ulp above and below, two, three.
    var best = difference
    var bestMiss = abs(top + difference - bottom)
    var below = difference
    var above = difference
    /// Whether `candidate` lands exactly; otherwise keeps it if it misses by least so far.
    func lands(_ candidate: Double) -> Bool {
      let miss = abs(top + candidate - bottom)
      if miss < bestMiss {
        best = candidate
        bestMiss = miss
      }
      return miss == 0
    }
    for _ in 1..<4 {
      above = above.nextUp
      below = below.nextDown
      if lands(above) || lands(below) { return best }
    }
    return best
  }
}
