/// Everything a layout needs besides its items; the defaults follow the seed documents.
///
/// All lengths are in points. The coordinate system has its origin at the top left of the
/// content; y grows downward.
public struct LayoutConfiguration: Hashable, Sendable {
  /// The arrangement; `.irregular` by default.
  public var style: LayoutStyle
  /// The container width W; 375 by default.
  public var width: Double
  /// The number of columns c; 3 by default.
  public var columns: Int
  /// The horizontal gap between neighbouring columns; 10 by default.
  public var columnSpacing: Double
  /// The vertical gap between an item and the next one in its column; 10 by default.
  public var rowSpacing: Double
  /// The space around the columns; 10 on every edge by default.
  public var insets: EdgeInsets
  /// The seed of the random stream (``SplitMix64``); 1 by default.
  public var seed: UInt64
  /// The chance that an item eligible for enlargement is enlarged, in `0...1`; 0.67 by default.
  public var enlargeChance: Double
  /// How close, as a fraction of an item's natural height, its bottom must land to a
  /// neighbour column's bottom to be aligned with it, in `0..<1`; 0.2 by default.
  public var alignTolerance: Double
  /// The `grid` style's repeating block; the seed's 3-column block by default.
  public var pattern: QuiltPattern
  /// The viewport height of the ring styles; 667 by default (the viewport width is `width`).
  public var viewportHeight: Double
  /// The item size of the ring styles, or `nil` for the style's default.
  public var itemSize: Size?
  /// The scroll offset of the `cube` (y) and `sphere` (x and y) styles; zero by default.
  public var offset: Point
  /// Which column an item goes to; `.shortest` by default.
  public var order: PlacementOrder
  /// With `.shortest`: columns whose bottom is within this many points of the shortest count as
  /// tied, and the first tied one at or after the column following the previous item wins (CSS
  /// grid-lanes' flow tolerance). 0 (the default) is plain shortest-first, leftmost on ties.
  public var tolerance: Double
  /// Which way columns are counted; `.leftToRight` by default.
  public var direction: LayoutDirection
  /// The scroll axis; `.vertical` by default.
  public var axis: LayoutAxis
  /// The display scale for pixel alignment (2 or 3 on phones), or `nil` for none. With a scale,
  /// spacing and insets are rounded to the `1/scale` grid and every frame edge is the exact
  /// edge rounded to the grid, so gaps keep the rounded spacing and no error accumulates.
  public var scale: Double?
  /// How the irregular style aligns columns; `.seed` by default.
  public var alignment: AlignmentStrategy
  /// The most an item's height may differ from its natural height, as a fraction of it, under
  /// ``AlignmentStrategy/spread`` and at a flat end, in `0..<1`; 0.1 by default.
  public var maxDistortion: Double
  /// Whether ``WaterfallLayout/flattenEnd()`` may be called: the layout keeps, for its last
  /// batch, which items each column's end may move (irregular only); false by default.
  public var flatEnd: Bool

  /// Whether ``maxDistortion`` bounds anything: under an alignment other than the seed's (the
  /// planned one's bound is the lesser of it and ``PlannedAlignment/bound``), or at a flat end.
  public var boundsDistortion: Bool { alignment != .seed || flatEnd }

  /// Whether an append may move items it placed earlier (``AlignmentStrategy/spread`` and the
  /// flat end of the irregular style): each append is then a page whose start is a fixed edge,
  /// so that appending items in one call or in several gives different layouts.
  public var appendsArePages: Bool {
    uses(.alignment) && (alignment != .seed || flatEnd)
  }

  /// The largest column count a configuration accepts.
  public static let maximumColumns = 10_000

  /// The column counts a configuration accepts, 1 to ``maximumColumns``: also the spans an
  /// item may have, and (less one, from 0) the columns it may start in.
  public static let columnCounts = 1...maximumColumns

  /// The largest length a configuration accepts, in points, and the largest scroll offset: a
  /// billion points, far beyond any screen, so that sums of lengths never overflow.
  public static let maximumLength = 1e9

  /// The farthest an item's bottom may reach, in points: far beyond any real content, and far
  /// enough below the largest Double that insets, headers and footers (each at most
  /// ``maximumLength``) add to it without overflowing. An item that would reach farther is
  /// refused with ``LayoutError/heightOverflow(index:)``.
  public static let maximumExtent = 1e300

  /// The narrowest column a configuration accepts, in points: a thousandth of a point, a pixel
  /// at the largest scale. Narrower, tiles and items would be lost in rounding against their
  /// tops.
  public static let minimumColumnWidth = 1e-3

  /// The lengths a configuration takes where zero is one: spacing, insets, the flow tolerance,
  /// headers, footers and the least content height.
  public static let lengths = ValueRange(from: 0, to: maximumLength)

  /// The lengths that must be above zero: the width, the viewport height, an item's size.
  public static let positiveLengths = ValueRange(above: 0, atMost: maximumLength)

  /// The coordinates a configuration takes: the scroll offset (within ``maximumTurns``
  /// viewports too), a rectangle's origin.
  public static let coordinates = ValueRange(from: -maximumLength, to: maximumLength)

  /// How many viewports the ring styles' offset may turn them by: a million, within which the
  /// angles keep their precision.
  public static let maximumTurns = 1e6

  /// Creates a configuration; every argument has the seeds' default.
  public init(
    style: LayoutStyle = .irregular,
    width: Double = 375,
    columns: Int = 3,
    columnSpacing: Double = 10,
    rowSpacing: Double = 10,
    insets: EdgeInsets = EdgeInsets(all: 10),
    seed: UInt64 = 1,
    enlargeChance: Double = 0.67,
    alignTolerance: Double = 0.2,
    pattern: QuiltPattern = .seed,
    viewportHeight: Double = 667,
    itemSize: Size? = nil,
    offset: Point = .zero,
    order: PlacementOrder = .shortest,
    tolerance: Double = 0,
    direction: LayoutDirection = .leftToRight,
    axis: LayoutAxis = .vertical,
    scale: Double? = nil,
    alignment: AlignmentStrategy = .seed,
    maxDistortion: Double = 0.1,
    flatEnd: Bool = false
  ) {
    self.style = style
    self.width = width
    self.columns = columns
    self.columnSpacing = columnSpacing
    self.rowSpacing = rowSpacing
    self.insets = insets
    self.seed = seed
    self.enlargeChance = enlargeChance
    self.alignTolerance = alignTolerance
    self.pattern = pattern
    self.viewportHeight = viewportHeight
    self.itemSize = itemSize
    self.offset = offset
    self.order = order
    self.tolerance = tolerance
    self.direction = direction
    self.axis = axis
    self.scale = scale
    self.alignment = alignment
    self.maxDistortion = maxDistortion
    self.flatEnd = flatEnd
  }

  /// How many columns of at least `minimumColumnWidth` fit, at least one, as the web engines
  /// count them: `⌊(W − left − right + spacing) / (minimum + spacing)⌋`.
  ///
  /// - Precondition: `minimumColumnWidth > 0`.
  public static func columnCount(
    width: Double, insets: EdgeInsets, columnSpacing: Double, minimumColumnWidth: Double
  ) -> Int {
    precondition(minimumColumnWidth > 0)
    let room = width - insets.left - insets.right + columnSpacing
    let count = (room / (minimumColumnWidth + columnSpacing)).rounded(.down)
    // A count past the largest Double (a tiny minimum) is as many columns as are allowed.
    guard !count.isNaN, count >= 1 else { return 1 }
    return Int(min(count, Double(maximumColumns)))
  }

  /// The item size the ring styles use: ``itemSize`` or the style's default.
  public var resolvedItemSize: Size {
    itemSize ?? style.defaultItemSize ?? Size(width: columnWidth, height: columnWidth)
  }

  /// The configuration the engine computes in: for a vertical axis this one with spacing and
  /// insets rounded to the `1/scale` grid when a scale is set; for a horizontal axis also with
  /// x and y exchanged (the viewport height is the width the rows share, the left inset its
  /// top).
  public var working: LayoutConfiguration {
    var working = self
    if let grid = pixelGrid {
      working.columnSpacing = grid.snap(columnSpacing)
      working.rowSpacing = grid.snap(rowSpacing)
      working.insets = EdgeInsets(
        top: grid.snap(insets.top), left: grid.snap(insets.left),
        bottom: grid.snap(insets.bottom), right: grid.snap(insets.right))
    }
    guard axis == .horizontal else { return working }
    working.axis = .vertical
    working.width = viewportHeight
    working.viewportHeight = width
    let insets = working.insets
    working.insets = EdgeInsets(
      top: insets.left, left: insets.top, bottom: insets.right, right: insets.bottom)
    return working
  }

  /// The width of one column: `(W − left − right − (c − 1) · columnSpacing) / c`.
  public var columnWidth: Double {
    (width - insets.left - insets.right - Double(columns - 1) * columnSpacing) / Double(columns)
  }

  /// The left edge of `column`: `left + column · (columnWidth + columnSpacing)`.
  public func x(ofColumn column: Int) -> Double {
    insets.left + Double(column) * (columnWidth + columnSpacing)
  }

  /// Whether the style uses `option`: the options of the style (``LayoutStyle/options``), and
  /// the viewport height in any style with a horizontal axis, whose rows share it.
  public func uses(_ option: LayoutOption) -> Bool {
    style.options.contains(option) || (option == .viewportHeight && axis == .horizontal)
  }

  /// Checks every value and throws the first that is out of range.
  ///
  /// - Throws: ``LayoutError/invalidColumnCount(_:)``, ``LayoutError/invalidValue(_:_:)``,
  ///   ``LayoutError/noRoomForColumns(columnWidth:)`` or
  ///   ``LayoutError/patternWidth(patternColumns:columns:)``.
  /// - Complexity: O(1).
  public func validate() throws(LayoutError) {
    guard Self.columnCounts.contains(columns) else {
      throw .invalidColumnCount(columns)
    }
    // In the order of the parameters: the first value out of its range is the one named. An
    // offset also stays within a million viewports (``maximumTurns``) of 0.
    let values: [(LayoutParameter, Double, viewport: Double?)] = [
      (.width, width, nil), (.columnSpacing, columnSpacing, nil), (.rowSpacing, rowSpacing, nil),
      (.topInset, insets.top, nil), (.leftInset, insets.left, nil),
      (.bottomInset, insets.bottom, nil), (.rightInset, insets.right, nil),
      (.enlargeChance, enlargeChance, nil), (.alignTolerance, alignTolerance, nil),
      (.maxDistortion, maxDistortion, nil), (.viewportHeight, viewportHeight, nil),
      (.itemWidth, itemSize?.width ?? 1, nil), (.itemHeight, itemSize?.height ?? 1, nil),
      (.offsetX, offset.x, width), (.offsetY, offset.y, viewportHeight),
      (.tolerance, tolerance, nil), (.scale, scale ?? 1, nil),
    ]
    for (parameter, value, viewport) in values
    where !parameter.range.contains(value)
      || viewport.map({ !(abs(value / $0) <= Self.maximumTurns) }) ?? false
    {
      throw .invalidValue(parameter, value)
    }
    let columnWidth = working.columnWidth
    guard columnWidth >= Self.minimumColumnWidth, columnWidth.isFinite else {
      throw .noRoomForColumns(columnWidth: columnWidth)
    }
    if uses(.pattern), pattern.columns != columns {
      throw .patternWidth(patternColumns: pattern.columns, columns: columns)
    }
    let defaults = LayoutConfiguration()
    let changed: [(LayoutOption, Bool)] = [
      (.order, order != defaults.order), (.tolerance, tolerance != defaults.tolerance),
      (.direction, direction != defaults.direction), (.axis, axis != defaults.axis),
      (.scale, scale != defaults.scale),
      (
        .alignment,
        alignment != defaults.alignment || maxDistortion != defaults.maxDistortion || flatEnd
      ),
    ]
    for (option, isChanged) in changed where isChanged && !uses(option) {
      throw .notApplicable(option: option, style: style)
    }
  }
}
