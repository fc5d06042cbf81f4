/// How a layout arranges its items.
public enum LayoutStyle: String, CaseIterable, Hashable, Sendable {
  /// The random waterfall: some items are enlarged across two columns whose tops line up, and
  /// one-column items whose bottoms land close to a neighbour column's bottom are stretched or
  /// shrunk to meet it.
  case irregular
  /// The plain waterfall: every item in one column, each in the shortest column.
  case waterfall
  /// A repeating quilt of square tiles (规则瀑布流); see ``QuiltPattern``. Image sizes are not
  /// used.
  case grid
  /// Items of one size on a ring centred in the viewport (环形).
  case circle
  /// The rotary drum (立方): items of one size centred in the viewport at the scroll offset,
  /// each turned about the x axis by its own angle and pushed out along z.
  case cube
  /// The sphere (球形): small items centred at the offset, turned about four axes in turn and
  /// pushed out along z.
  case sphere

  /// Whether the style places items in columns by their image sizes.
  public var isColumnar: Bool { self == .irregular || self == .waterfall }

  /// Whether the style places items by their count around a centre, with 3D transforms; such a
  /// layout moves every item when items are added.
  public var isRing: Bool { self == .circle || self == .cube || self == .sphere }

  /// The item size of a ring style when none is given: 50×50, 260×100 and 30×30, as in the
  /// seed.
  public var defaultItemSize: Size? {
    switch self {
    case .circle: Size(width: 50, height: 50)
    case .cube: Size(width: 260, height: 100)
    case .sphere: Size(width: 30, height: 30)
    case .irregular, .waterfall, .grid: nil
    }
  }
}

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

  /// The largest column count a configuration accepts.
  public static let maximumColumns = 10_000

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
    offset: Point = .zero
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
  }

  /// The item size the ring styles use: ``itemSize`` or the style's default.
  public var resolvedItemSize: Size {
    itemSize ?? style.defaultItemSize ?? Size(width: columnWidth, height: columnWidth)
  }

  /// The width of one column: `(W − left − right − (c − 1) · columnSpacing) / c`.
  public var columnWidth: Double {
    (width - insets.left - insets.right - Double(columns - 1) * columnSpacing) / Double(columns)
  }

  /// The left edge of `column`: `left + column · (columnWidth + columnSpacing)`.
  public func x(ofColumn column: Int) -> Double {
    insets.left + Double(column) * (columnWidth + columnSpacing)
  }

  /// Checks every value and throws the first that is out of range.
  ///
  /// - Throws: ``LayoutError/invalidColumnCount(_:)``, ``LayoutError/invalidValue(_:_:)``,
  ///   ``LayoutError/noRoomForColumns(columnWidth:)`` or
  ///   ``LayoutError/patternWidth(patternColumns:columns:)``.
  /// - Complexity: O(1).
  public func validate() throws(LayoutError) {
    guard (1...Self.maximumColumns).contains(columns) else {
      throw .invalidColumnCount(columns)
    }
    let checks: [(LayoutParameter, Double, Bool)] = [
      (.width, width, width > 0),
      (.columnSpacing, columnSpacing, columnSpacing >= 0),
      (.rowSpacing, rowSpacing, rowSpacing >= 0),
      (.topInset, insets.top, insets.top >= 0),
      (.leftInset, insets.left, insets.left >= 0),
      (.bottomInset, insets.bottom, insets.bottom >= 0),
      (.rightInset, insets.right, insets.right >= 0),
      (.enlargeChance, enlargeChance, (0...1).contains(enlargeChance)),
      (.alignTolerance, alignTolerance, (0..<1).contains(alignTolerance)),
      (.viewportHeight, viewportHeight, viewportHeight > 0),
      (.itemWidth, itemSize?.width ?? 1, (itemSize?.width ?? 1) > 0),
      (.itemHeight, itemSize?.height ?? 1, (itemSize?.height ?? 1) > 0),
      (.offsetX, offset.x, true),
      (.offsetY, offset.y, true),
    ]
    for (parameter, value, isInRange) in checks where !(value.isFinite && isInRange) {
      throw .invalidValue(parameter, value)
    }
    let columnWidth = columnWidth
    guard columnWidth > 0, columnWidth.isFinite else {
      throw .noRoomForColumns(columnWidth: columnWidth)
    }
    if style == .grid, pattern.columns != columns {
      throw .patternWidth(patternColumns: pattern.columns, columns: columns)
    }
  }
}
