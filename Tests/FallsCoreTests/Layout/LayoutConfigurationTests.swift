import FallsCheckers
import FallsCore
import Testing

@Suite struct LayoutConfigurationTests {
  @Test("The defaults follow the seeds")
  func defaults() {
    let configuration = LayoutConfiguration()
    #expect(configuration.style == .irregular)
    #expect(configuration.width == 375)
    #expect(configuration.columns == 3)
    #expect(configuration.columnSpacing == 10 && configuration.rowSpacing == 10)
    #expect(configuration.insets == EdgeInsets(all: 10))
    #expect(configuration.seed == 1)
    #expect(configuration.enlargeChance == 0.67)
    #expect(configuration.alignTolerance == 0.2)
  }

  @Test(
    "Column width is (W − left − right − (c − 1)·cs) / c",
    arguments: [
      // W, c, cs, left, right, expected (worked out by hand)
      (375.0, 3, 10.0, 10.0, 10.0, 335.0 / 3),
      (220, 2, 0, 10, 10, 100),
      (400, 4, 20, 0, 0, 85),
      (100, 1, 50, 5, 15, 80),
      (330, 3, 15, 0, 30, 90),
    ])
  func columnWidth(
    width: Double, columns: Int, spacing: Double, left: Double, right: Double, expected: Double
  ) throws {
    let configuration = LayoutConfiguration(
      width: width, columns: columns, columnSpacing: spacing,
      insets: EdgeInsets(top: 0, left: left, bottom: 0, right: right))
    try configuration.validate()
    #expect(configuration.columnWidth == expected)
  }

  @Test("Column x is left + column·(w + cs)")
  func columnX() {
    let configuration = LayoutConfiguration(
      width: 400, columns: 4, columnSpacing: 20,
      insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0))
    // w = 85: columns start at 0, 105, 210, 315.
    #expect((0..<4).map { configuration.x(ofColumn: $0) } == [0, 105, 210, 315])
  }

  @Test("Column counts outside 1...10000 are refused", arguments: [0, -1, 10_001, Int.min])
  func badColumnCounts(columns: Int) {
    let configuration = LayoutConfiguration(width: 1e9, columns: columns, columnSpacing: 0)
    #expect(throws: LayoutError.invalidColumnCount(columns)) { try configuration.validate() }
  }

  @Test(
    "Values out of range name their parameter",
    arguments: [
      (LayoutParameter.width, 0.0), (.width, -1), (.width, .nan), (.width, .infinity),
      (.columnSpacing, -0.5), (.columnSpacing, .nan), (.rowSpacing, -1),
      (.rowSpacing, .infinity), (.topInset, -1), (.leftInset, .nan), (.bottomInset, -3),
      (.rightInset, .infinity), (.enlargeChance, -0.1), (.enlargeChance, 1.01),
      (.enlargeChance, .nan), (.alignTolerance, 1), (.alignTolerance, -0.2),
      (.alignTolerance, .infinity), (.maxDistortion, 1), (.maxDistortion, -0.01),
      (.maxDistortion, .nan), (.viewportHeight, 0), (.viewportHeight, .nan),
      (.itemWidth, -1), (.itemHeight, 0), (.offsetX, .infinity), (.offsetY, .nan),
      (.tolerance, -1), (.tolerance, .nan), (.scale, 0), (.scale, -2), (.scale, .infinity),
      // Beyond the largest length, and a scale below 1.
      (.width, 1e9.nextUp), (.columnSpacing, 1e300), (.rowSpacing, 2e9), (.topInset, 1e10),
      (.leftInset, 1e308), (.bottomInset, 1e200), (.rightInset, 1e9.nextUp),
      (.viewportHeight, 1e308), (.itemWidth, 1e300), (.itemHeight, 1e10), (.offsetX, -1e308),
      (.offsetY, 1e9.nextUp), (.tolerance, 1e300), (.scale, 0.999), (.scale, 0.001),
    ])
  func badValues(parameter: LayoutParameter, value: Double) {
    var configuration = LayoutConfiguration()
    configuration.set(parameter, to: value)
    #expect {
      try configuration.validate()
    } throws: { error in
      guard case .invalidValue(let named, let got) = error as? LayoutError else { return false }
      return named == parameter && (got == value || (got.isNaN && value.isNaN))
    }
  }

  @Test("An offset of more than a million viewports is refused, however small the viewport")
  func offsetTurns() throws {
    var configuration = LayoutConfiguration(style: .cube, viewportHeight: 1e-3)
    configuration.offset = Point(x: 0, y: 1000)
    try configuration.validate()
    configuration.offset.y = 1000.5
    #expect(throws: LayoutError.invalidValue(.offsetY, 1000.5)) { try configuration.validate() }
    configuration = LayoutConfiguration(style: .sphere, width: 1e-3)
    configuration.offset = Point(x: -1001, y: 0)
    #expect(throws: LayoutError.invalidValue(.offsetX, -1001)) { try configuration.validate() }
  }

  @Test("At the largest lengths and offsets every number of a ring layout is finite")
  func largestRing() throws {
    for style in [LayoutStyle.circle, .cube, .sphere] {
      var configuration = LayoutConfiguration(
        style: style, width: 1e9, viewportHeight: 1e9, itemSize: Size(width: 1e9, height: 1e9))
      configuration.offset = Point(x: style == .sphere ? -1e9 : 0, y: 1e9)
      let layout = try WaterfallLayout(
        configuration, items: squares(7))
      let numbers =
        layout.elements.flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
        + layout.transforms.flatMap(\.entries) + layout.centers.flatMap { [$0.x, $0.y] }
        + [layout.contentHeight]
      #expect(numbers.allSatisfy { $0.isFinite }, "\(style)")
    }
  }

  @Test(
    "Insets and spacing that leave no room are refused",
    arguments: [
      (20.0, 3, 10.0, 10.0),  // 20 − 20 − 20 < 0
      (40, 3, 10, 10),  // exactly 0 left for the columns
      (375, 100, 10, 10),  // 99 gaps of 10 exceed the width
    ])
  func noRoom(width: Double, columns: Int, spacing: Double, inset: Double) {
    let configuration = LayoutConfiguration(
      width: width, columns: columns, columnSpacing: spacing, insets: EdgeInsets(all: inset))
    #expect {
      try configuration.validate()
    } throws: { error in
      guard case .noRoomForColumns(let columnWidth) = error as? LayoutError else { return false }
      return columnWidth <= 0
    }
  }

  @Test("The grid's pattern must be as wide as the columns")
  func patternWidth() throws {
    #expect(throws: LayoutError.patternWidth(patternColumns: 3, columns: 4)) {
      try LayoutConfiguration(style: .grid, columns: 4).validate()
    }
    // Other styles ignore the pattern.
    try LayoutConfiguration(style: .waterfall, columns: 4).validate()
    try LayoutConfiguration(
      style: .grid, columns: 4, pattern: QuiltPattern(spans: [(4, 1)], columns: 4)
    )
    .validate()
  }

  @Test(
    "Ring styles have the seed's item sizes unless one is given",
    arguments: [
      (LayoutStyle.circle, Size(width: 50, height: 50)), (.cube, Size(width: 260, height: 100)),
      (.sphere, Size(width: 30, height: 30)),
    ])
  func itemSizes(style: LayoutStyle, size: Size) {
    #expect(LayoutConfiguration(style: style).resolvedItemSize == size)
    let given = Size(width: 7, height: 9)
    #expect(LayoutConfiguration(style: style, itemSize: given).resolvedItemSize == given)
    #expect(style.family == .ring)
  }

  @Test(
    "Each style takes the options of its family, and validate() refuses the others",
    arguments: LayoutStyle.allCases)
  func optionsOfStyles(style: LayoutStyle) {
    let configuration = LayoutConfiguration(style: style)
    let family: Set<LayoutOption> =
      switch style.family {
      case .columns:
        [.columns, .spacing, .insets, .order, .tolerance, .direction, .axis, .scale, .sections]
      case .quilt: [.columns, .spacing, .insets, .direction, .axis, .scale, .sections, .pattern]
      case .ring: [.viewportHeight, .itemSize]
      }
    for option in LayoutOption.allCases {
      let expected =
        family.contains(option)
        || [.enlargeChance, .alignTolerance, .alignment].contains(option) && style == .irregular
        || option == .offsetY && (style == .cube || style == .sphere)
        || option == .offsetX && style == .sphere
      #expect(configuration.uses(option) == expected, "\(style) \(option)")
    }
    // A horizontal axis shares the viewport height among the rows.
    var horizontal = configuration
    horizontal.axis = .horizontal
    #expect(horizontal.uses(.viewportHeight))
    // Of the options validate() refuses when set, each is refused exactly where it is not used.
    let changes: [(LayoutOption, (inout LayoutConfiguration) -> Void)] = [
      (.order, { $0.order = .leftToRight }), (.tolerance, { $0.tolerance = 5 }),
      (.direction, { $0.direction = .rightToLeft }), (.axis, { $0.axis = .horizontal }),
      (.scale, { $0.scale = 2 }), (.alignment, { $0.alignment = .spread }),
      (.alignment, { $0.maxDistortion = 0.05 }), (.alignment, { $0.flatEnd = true }),
    ]
    for (option, change) in changes {
      var changed = configuration
      change(&changed)
      var refusal: LayoutError?
      do { try changed.validate() } catch { refusal = error }
      let expected =
        configuration.uses(option) ? nil : LayoutError.notApplicable(option: option, style: style)
      #expect(refusal == expected, "\(style) \(option)")
    }
  }

  @Test(
    "Columns from a minimum width: as many as fit, at least one",
    arguments: [(100.0, 3), (110, 3), (111.6, 3), (111.7, 2), (200, 1), (1000, 1), (1, 33)])
  func minimumColumnWidth(minimum: Double, columns: Int) {
    // W 375, insets 10, spacing 10: ⌊(375 − 20 + 10) / (minimum + 10)⌋; three columns are
    // 111.67 wide, so a minimum up to 111.67 still fits three.
    #expect(
      LayoutConfiguration.columnCount(
        width: 375, insets: EdgeInsets(all: 10), columnSpacing: 10, minimumColumnWidth: minimum)
        == columns)
  }

  @Test(
    "A minimum width so small that the count passes every Double gives the most columns allowed",
    arguments: [1e-300, 5e-324, 1e-3])
  func tinyMinimumColumnWidth(minimum: Double) {
    // W 10^9, no insets, no spacing: 10^9 / 10^-300 is infinite; 10,000 columns of 10^5 fit.
    #expect(
      LayoutConfiguration.columnCount(
        width: 1e9, insets: .zero, columnSpacing: 0, minimumColumnWidth: minimum)
        == LayoutConfiguration.maximumColumns)
  }

  @Test("The working of a horizontal layout exchanges x and y")
  func horizontalGeometry() {
    let configuration = LayoutConfiguration(
      width: 1000, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), viewportHeight: 500,
      axis: .horizontal)
    let working = configuration.working
    #expect(working.width == 500 && working.axis == .vertical)
    #expect(working.insets == EdgeInsets(top: 2, left: 1, bottom: 4, right: 3))
  }

  @Test("The edges of the ranges are accepted")
  func rangeEdges() throws {
    try LayoutConfiguration(
      columnSpacing: 0, rowSpacing: 0, insets: .zero, enlargeChance: 0, alignTolerance: 0
    ).validate()
    try LayoutConfiguration(enlargeChance: 1, alignTolerance: 0.999).validate()
    try LayoutConfiguration(width: 1e6, columns: LayoutConfiguration.maximumColumns).validate()
  }
}
