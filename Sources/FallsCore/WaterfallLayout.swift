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
/// - Complexity: Placing one item costs O(*c*) for *c* columns in the columnar styles, O(1) in
///   `.grid`; appending *k* items to a ring style costs O(*n* + *k*) for the *n* already there.
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

  let columnWidth: Double
  let columnXs: [Double]
  var state: ColumnState

  /// The per-column state that placing an item reads and changes; small enough to snapshot.
  struct ColumnState: Sendable {
    /// The stored bottom of each column; meaningful only where `isEmpty` is false.
    var bottoms: [Double]
    var isEmpty: [Bool]
    /// Whether the last item placed in each column is enlarged.
    var endsEnlarged: [Bool]
    /// The bottom of the lowest enlarged item covering each column, or −∞.
    var enlargedBottoms: [Double]
    var previousWasEnlarged = false
    var lowestBottom = -Double.infinity
    var generator: SplitMix64
  }

  /// Creates an empty layout.
  ///
  /// - Throws: What ``LayoutConfiguration/validate()`` throws.
  /// - Complexity: O(*c*) for *c* columns.
  public init(_ configuration: LayoutConfiguration) throws(LayoutError) {
    try configuration.validate()
    self.configuration = configuration
    columnWidth = configuration.columnWidth
    columnXs = (0..<configuration.columns).map { configuration.x(ofColumn: $0) }
    state = Self.emptyState(configuration)
  }

  private static func emptyState(_ configuration: LayoutConfiguration) -> ColumnState {
    let columns = configuration.columns
    return ColumnState(
      bottoms: Array(repeating: configuration.insets.top, count: columns),
      isEmpty: Array(repeating: true, count: columns),
      endsEnlarged: Array(repeating: false, count: columns),
      enlargedBottoms: Array(repeating: -.infinity, count: columns),
      generator: SplitMix64(seed: configuration.seed)
    )
  }

  /// Creates a layout of `items`.
  ///
  /// - Throws: What ``init(_:)`` and ``append(_:)`` throw.
  /// - Complexity: O(*n* · *c*) for *n* items and *c* columns.
  public init(_ configuration: LayoutConfiguration, items: some Sequence<LayoutItem>)
    throws(LayoutError)
  {
    try self.init(configuration)
    try append(items)
  }

  /// The height of the content: the lowest column bottom plus the bottom inset, or
  /// `top + bottom` when there are no items.
  ///
  /// A ring style's content is the viewport: `viewportHeight` for `.circle`, and one viewport
  /// per item (at least one) for `.cube` and `.sphere`, which turn as they scroll.
  public var contentHeight: Double {
    let insets = configuration.insets
    switch configuration.style {
    case .circle:
      return configuration.viewportHeight
    case .cube, .sphere:
      return configuration.viewportHeight * Double(max(elements.count, 1))
    case .irregular, .waterfall, .grid:
      return elements.isEmpty ? insets.top + insets.bottom : state.lowestBottom + insets.bottom
    }
  }

  /// The stored bottom of each column, or `nil` for a column without items.
  public var columnBottoms: [Double?] {
    zip(state.bottoms, state.isEmpty).map { $1 ? nil : $0 }
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
    state = Self.emptyState(configuration)
  }

  /// Places `items` below those already laid out.
  ///
  /// On error nothing is appended and the layout is unchanged.
  /// - Throws: ``LayoutError/invalidItemSize(index:width:height:)`` for an item whose size is
  ///   not finite and positive, ``LayoutError/heightOverflow(index:)`` for one whose height or
  ///   bottom is too large to represent.
  /// - Complexity: O(*k* · *c*) for *k* new items and *c* columns, plus O(*c*) to keep a snapshot
  ///   for the all-or-nothing promise; independent of the items already laid out.
  public mutating func append(_ items: some Sequence<LayoutItem>) throws(LayoutError) {
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
    let snapshot = state
    let startCount = elements.count
    for item in items {
      do {
        try place(item)
      } catch {
        state = snapshot
        elements.removeSubrange(startCount...)
        throw error
      }
    }
  }

  private mutating func place(_ item: LayoutItem) throws(LayoutError) {
    let index = elements.count
    guard item.hasValidSize else {
      throw .invalidItemSize(index: index, width: item.width, height: item.height)
    }
    if configuration.style == .grid {
      try placeTile(index: index)
      return
    }
    let height = columnWidth * item.height / item.width
    guard height.isFinite, height > 0 else { throw .heightOverflow(index: index) }

    let column = shortestColumn()
    let top =
      state.isEmpty[column]
      ? configuration.insets.top : state.bottoms[column] + configuration.rowSpacing
    let element: LayoutElement
    let bottom: Double
    if configuration.style == .irregular, canEnlarge(column: column, top: top) {
      let frame = Rect(
        x: columnXs[column], y: top,
        width: 2 * columnWidth + configuration.columnSpacing,
        height: 2 * height + configuration.rowSpacing)
      bottom = frame.maxY
      guard bottom.isFinite else { throw .heightOverflow(index: index) }
      element = LayoutElement(
        index: index, column: column, span: 2, frame: frame, isEnlarged: true, isAligned: false)
      for covered in column...column + 1 {
        state.bottoms[covered] = bottom
        state.isEmpty[covered] = false
        state.endsEnlarged[covered] = true
        state.enlargedBottoms[covered] = bottom
      }
      state.previousWasEnlarged = true
    } else {
      var frame = Rect(x: columnXs[column], y: top, width: columnWidth, height: height)
      var isAligned = false
      if configuration.style == .irregular,
        let target = alignmentTarget(column: column, top: top, height: height)
      {
        frame.height = Self.height(from: top, reaching: target)
        isAligned = true
        bottom = target
      } else {
        bottom = frame.maxY
      }
      guard bottom.isFinite else { throw .heightOverflow(index: index) }
      element = LayoutElement(
        index: index, column: column, span: 1, frame: frame, isEnlarged: false,
        isAligned: isAligned)
      state.bottoms[column] = bottom
      state.isEmpty[column] = false
      state.endsEnlarged[column] = false
      state.previousWasEnlarged = false
    }
    state.lowestBottom = max(state.lowestBottom, bottom)
    elements.append(element)
  }

  /// The column with the smallest bottom (empty columns count as the top inset); leftmost wins.
  private func shortestColumn() -> Int {
    var best = 0
    var bestBottom = state.bottoms[0]
    for column in 1..<state.bottoms.count where state.bottoms[column] < bestBottom {
      best = column
      bestBottom = state.bottoms[column]
    }
    return best
  }

  /// Whether an item placed at `top` in `column` may be enlarged; draws from the stream only
  /// when every other condition holds.
  private mutating func canEnlarge(column: Int, top: Double) -> Bool {
    let next = column + 1
    guard next < configuration.columns, !state.previousWasEnlarged else { return false }
    let bothEmpty = state.isEmpty[column] && state.isEmpty[next]
    let sameBottom =
      !state.isEmpty[column] && !state.isEmpty[next]
      && state.bottoms[column] == state.bottoms[next]
    guard bothEmpty || sameBottom else { return false }
    guard !state.endsEnlarged[column], !state.endsEnlarged[next] else { return false }
    // Every item placed earlier starts at or above `top`, so an enlarged neighbour overlaps
    // this item's extent exactly when its bottom is below `top`.
    if column > 0, state.enlargedBottoms[column - 1] > top { return false }
    if next + 1 < configuration.columns, state.enlargedBottoms[next + 1] > top { return false }
    return state.generator.draw(configuration.enlargeChance)
  }

  /// The neighbour bottom a one-column item aligns to, right neighbour first, if any is due.
  private func alignmentTarget(column: Int, top: Double, height: Double) -> Double? {
    let naturalBottom = top + height
    let reach = configuration.alignTolerance * height
    for neighbour in [column + 1, column - 1]
    where state.bottoms.indices.contains(neighbour) && !state.isEmpty[neighbour] {
      let bottom = state.bottoms[neighbour]
      if abs(naturalBottom - bottom) < reach { return bottom }
    }
    return nil
  }

  /// The height `h` nearest to `bottom − top` for which `top + h` is exactly `bottom`.
  ///
  /// `bottom − top` itself is usually such a height; otherwise one a few ulps away is. When a
  /// rounding tie makes every candidate miss, the nearest miss is returned.
  static func height(from top: Double, reaching bottom: Double) -> Double {
    let difference = bottom - top
    var best = difference
    var bestMiss = Double.infinity
    var below = difference
    var above = difference
    for step in 0..<4 {
      for candidate in step == 0 ? [difference] : [above, below] {
        let miss = abs(top + candidate - bottom)
        if miss == 0 { return candidate }
        if miss < bestMiss {
          best = candidate
          bestMiss = miss
        }
      }
      above = above.nextUp
      below = below.nextDown
    }
    return best
  }
}
