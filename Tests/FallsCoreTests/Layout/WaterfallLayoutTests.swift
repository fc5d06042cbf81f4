import FallsCheckers
import FallsFixtures
import Testing

@testable import FallsCore

/// Items with the image size `(width, height)`.
private func items(_ sizes: [(Double, Double)]) -> [LayoutItem] {
  sizes.map { LayoutItem(width: $0.0, height: $0.1) }
}

private func frames(_ layout: WaterfallLayout) -> [Rect] {
  layout.elements.map(\.frame)
}

@Suite struct WaterfallLayoutTests {
  /// Two columns of width 100: W 220, insets 10, no column spacing, row spacing 10.
  let twoColumns = LayoutConfiguration(
    style: .waterfall, width: 220, columns: 2, columnSpacing: 0, rowSpacing: 10)
  /// Three columns of width 100 at x 10, 120, 230: W 340, spacing 10, insets 10.
  let threeColumns = LayoutConfiguration(width: 340, columns: 3)

  // MARK: The ladder of counts

  @Test("An empty layout is as tall as its top and bottom insets")
  func empty() throws {
    var configuration = twoColumns
    configuration.insets = EdgeInsets(top: 5, left: 0, bottom: 7, right: 0)
    let layout = try WaterfallLayout(configuration)
    #expect(layout.elements.isEmpty)
    #expect(layout.contentHeight == 12)
    #expect(layout.columnBottoms == [nil, nil])
  }

  @Test(
    "One item sits at the top left with its natural height",
    arguments: [LayoutStyle.irregular, .waterfall])
  func oneItem(style: LayoutStyle) throws {
    var configuration = twoColumns
    configuration.style = style
    configuration.enlargeChance = 0
    let layout = try WaterfallLayout(configuration, items: items([(1200, 2249)]))
    let height: Double = 100.0 * 2249.0 / 1200.0
    #expect(frames(layout) == [Rect(x: 10, y: 10, width: 100, height: height)])
    #expect(layout.contentHeight == (10 + height) + 10)
  }

  @Test(
    "With a scale the content ends where the lowest frame ends, on the grid, plus the inset",
    arguments: [LayoutStyle.irregular, .waterfall, .grid], [1.0, 2, 3, 7])
  func contentOnTheGrid(style: LayoutStyle, scale: Double) throws {
    for seed in UInt64(1)...20 {
      for axis in LayoutAxis.allCases {
        let configuration = LayoutConfiguration(
          style: style, columns: style == .grid ? 3 : Int(seed % 5) + 1, rowSpacing: 7.3,
          insets: EdgeInsets(top: 3.3, left: 1, bottom: 4.7, right: 2), seed: seed, axis: axis,
          scale: scale)
        let layout = try WaterfallLayout(
          configuration, items: GeneratedFeeds.items(count: 40, seed: seed))
        let ends = layout.elements.map { axis == .vertical ? $0.frame.maxY : $0.frame.maxX }
        // The inset after the lowest frame, on the grid: the bottom one, or the right one for
        // rows.
        let inset = ((axis == .vertical ? 4.7 : 2) * scale).rounded() / scale
        // Equal but for the rounding of y + height, a frame's edges being on the grid.
        let expected = (ends.max() ?? 0) + inset
        #expect(abs(layout.contentExtent - expected) <= expected.ulp * 4, "\(configuration)")
      }
    }
  }

  @Test("Two items fill the two columns from the left")
  func twoItems() throws {
    let layout = try WaterfallLayout(twoColumns, items: items([(100, 150), (100, 100)]))
    #expect(
      frames(layout) == [
        Rect(x: 10, y: 10, width: 100, height: 150), Rect(x: 110, y: 10, width: 100, height: 100),
      ])
  }

  @Test("Each item goes to the shortest column and sits row spacing below the one above")
  func shortestColumn() throws {
    // Worked by hand: bottoms go [160, –], [160, 110], [160, 320], [220, 320], [280, 320].
    let layout = try WaterfallLayout(
      twoColumns, items: items([(100, 150), (100, 100), (50, 100), (100, 50), (200, 100)]))
    #expect(
      frames(layout) == [
        Rect(x: 10, y: 10, width: 100, height: 150),
        Rect(x: 110, y: 10, width: 100, height: 100),
        Rect(x: 110, y: 120, width: 100, height: 200),
        Rect(x: 10, y: 170, width: 100, height: 50),
        Rect(x: 10, y: 230, width: 100, height: 50),
      ])
    #expect(layout.elements.map(\.column) == [0, 1, 1, 0, 0])
    #expect(layout.contentHeight == 330)
    #expect(layout.columnBottoms == [280, 320])
  }

  @Test("Ties go to the leftmost column")
  func tiesGoLeft() throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    let layout = try WaterfallLayout(
      configuration, items: items(Array(repeating: (1, 1), count: 7)))
    #expect(layout.elements.map(\.column) == [0, 1, 2, 0, 1, 2, 0])
    #expect(layout.elements.map(\.frame.y) == [10, 10, 10, 120, 120, 120, 230])
  }

  // MARK: Enlargement

  @Test("With chance 1 every eligible item is enlarged, and only those")
  func enlargementByHand() throws {
    var configuration = threeColumns
    configuration.enlargeChance = 1
    configuration.alignTolerance = 0
    let layout = try WaterfallLayout(
      configuration, items: items(Array(repeating: (1, 1), count: 8)))
    // Worked by hand with w = 100, h = 100 (see the rules in WaterfallLayout).
    #expect(
      frames(layout) == [
        Rect(x: 10, y: 10, width: 210, height: 210),  // both columns empty: enlarged
        Rect(x: 230, y: 10, width: 100, height: 100),  // last column
        Rect(x: 230, y: 120, width: 100, height: 100),
        Rect(x: 10, y: 230, width: 100, height: 100),  // would stack on item 0
        Rect(x: 120, y: 230, width: 100, height: 100),  // would stack on item 0
        Rect(x: 230, y: 230, width: 100, height: 100),
        Rect(x: 10, y: 340, width: 210, height: 210),  // eligible again
        Rect(x: 230, y: 340, width: 100, height: 100),
      ])
    #expect(
      layout.elements.map(\.isEnlarged) == [true, false, false, false, false, false, true, false])
    #expect(layout.elements.map(\.span) == [2, 1, 1, 1, 1, 1, 2, 1])
    #expect(layout.contentHeight == 560)
  }

  @Test("No two enlarged items side by side, nor one right after another")
  func sideBySideByHand() throws {
    // Four columns of 100 at x 10, 120, 230, 340.
    let configuration = LayoutConfiguration(
      width: 450, columns: 4, enlargeChance: 1, alignTolerance: 0)
    let layout = try WaterfallLayout(
      configuration, items: items(Array(repeating: (1, 1), count: 8)))
    let enlarged = layout.elements.filter(\.isEnlarged).map(\.index)
    // Item 1 follows an enlarged item; item 3 (columns 2–3 at y 120) would sit beside item 0
    // (columns 0–1, y 10...220); item 7 (columns 2–3 at y 230) starts below item 0's bottom.
    #expect(enlarged == [0, 7])
    #expect(layout.elements[3].frame == Rect(x: 230, y: 120, width: 100, height: 100))
    #expect(layout.elements[7].frame == Rect(x: 230, y: 230, width: 210, height: 210))
  }

  @Test("With chance 0 the irregular style places items as the waterfall does, but aligned")
  func chanceZero() throws {
    var irregular = threeColumns
    irregular.enlargeChance = 0
    irregular.alignTolerance = 0
    var waterfall = irregular
    waterfall.style = .waterfall
    let sizes = GeneratedFeeds.items(count: 200, seed: 3)
    let a = try WaterfallLayout(irregular, items: sizes)
    let b = try WaterfallLayout(waterfall, items: sizes)
    #expect(a.elements == b.elements)
  }

  @Test("The waterfall style never enlarges nor aligns")
  func waterfallIsPlain() throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    configuration.enlargeChance = 1
    let layout = try WaterfallLayout(
      configuration, items: GeneratedFeeds.items(count: 300, seed: 9))
    #expect(layout.elements.allSatisfy { !$0.isEnlarged && !$0.isAligned && $0.span == 1 })
  }

  // MARK: Alignment

  @Test("A bottom within tolerance of the other column meets it exactly")
  func alignmentByHand() throws {
    var configuration = twoColumns
    configuration.style = .irregular
    configuration.enlargeChance = 0
    let layout = try WaterfallLayout(
      configuration, items: items([(100, 100), (100, 95), (100, 100), (100, 150), (100, 40)]))
    // Item 1: natural bottom 105 is 5 from 110 (< 0.2 · 95): stretched to 100.
    // Item 2: 220 vs 110: no. Item 3: 270 vs 220, 50 ≥ 30: no. Item 4: 270 vs 270: aligned.
    #expect(layout.elements.map(\.isAligned) == [false, true, false, false, true])
    #expect(layout.elements[1].frame == Rect(x: 110, y: 10, width: 100, height: 100))
    #expect(layout.elements[3].frame.height == 150)
    #expect(layout.elements[4].frame == Rect(x: 10, y: 230, width: 100, height: 40))
  }

  @Test(
    "The right neighbour is checked first, the left one otherwise",
    arguments: [
      // height of item 2, then: its aligned height and bottom
      (250.0, 140.0, 260.0),  // right column ends at 260, 5 away: right wins over left (5 away)
      (350, 130, 250),  // right column ends at 360, too far: the left one (250) is used
    ])
  func rightFirst(thirdHeight: Double, alignedHeight: Double, bottom: Double) throws {
    var configuration = threeColumns
    configuration.enlargeChance = 0
    // Bottoms after three items: 250, 110, 10 + third; item 3 (h 135) goes to column 1 at 120.
    let layout = try WaterfallLayout(
      configuration, items: items([(100, 240), (100, 100), (100, thirdHeight), (100, 135)]))
    let element = layout.elements[3]
    #expect(element.column == 1)
    #expect(element.isAligned)
    #expect(element.frame == Rect(x: 120, y: 120, width: 100, height: alignedHeight))
    #expect(element.frame.maxY == bottom)
  }

  @Test(
    "Tolerance is strict: a difference of exactly tolerance · h is not aligned",
    arguments: [(125.0, false), (124, true), (83, false), (84, true)])
  func toleranceEdge(height: Double, aligned: Bool) throws {
    var configuration = twoColumns
    configuration.style = .irregular
    configuration.enlargeChance = 0
    // Column 0 ends at 110; item 1 (h = height) at y 10 ends at 10 + height.
    // 125: |135 − 110| = 25 = 0.2 · 125. 124: 24 < 24.8. 83: 27 ≥ 16.6. 84: 16 < 16.8.
    let layout = try WaterfallLayout(configuration, items: items([(100, 100), (100, height)]))
    #expect(layout.elements[1].isAligned == aligned)
    #expect(layout.elements[1].frame.maxY == (aligned ? 110 : 10 + height))
  }

  @Test("Tolerance 0 turns alignment off")
  func toleranceZero() throws {
    var configuration = threeColumns
    configuration.alignTolerance = 0
    let layout = try WaterfallLayout(
      configuration, items: GeneratedFeeds.items(count: 300, seed: 4))
    #expect(layout.elements.allSatisfy { !$0.isAligned })
  }

  // MARK: Appending and errors

  @Test("Appending in pieces gives exactly the layout of the whole", arguments: 0..<20)
  func appendInPieces(seed: UInt64) throws {
    let sizes = GeneratedFeeds.items(count: 150, seed: seed)
    let configuration = LayoutConfiguration(columns: 2 + Int(seed % 4), seed: seed)
    let whole = try WaterfallLayout(configuration, items: sizes)
    var pieces = try WaterfallLayout(configuration)
    var random = SplitMix64(seed: seed)
    var start = 0
    while start < sizes.count {
      let end = min(sizes.count, start + Int(random.next() % 25))
      try pieces.append(sizes[start..<end])
      start = end
    }
    #expect(pieces.elements == whole.elements)
    #expect(pieces.contentHeight == whole.contentHeight)
    #expect(pieces.columnBottoms == whole.columnBottoms)
  }

  @Test("Reset starts over: the same pages give the same layout as a fresh one", arguments: 0..<5)
  func reset(seed: UInt64) throws {
    let configuration = LayoutConfiguration(columns: 4, seed: seed)
    let first = GeneratedFeeds.items(count: 60, seed: seed)
    let second = GeneratedFeeds.items(count: 45, seed: seed + 100)
    var layout = try WaterfallLayout(configuration, items: first)
    layout.reset()
    #expect(layout.elements.isEmpty)
    #expect(layout.contentHeight == 20)
    #expect(layout.columnBottoms == [nil, nil, nil, nil])
    try layout.append(second)
    let fresh = try WaterfallLayout(configuration, items: second)
    #expect(layout.elements == fresh.elements)
    #expect(layout.contentHeight == fresh.contentHeight)
  }

  @Test("Appending never moves an element already placed")
  func appendKeepsPlaced() throws {
    var layout = try WaterfallLayout(LayoutConfiguration(seed: 11))
    var placed: [LayoutElement] = []
    for page in 0..<10 as Range<UInt64> {
      try layout.append(GeneratedFeeds.items(count: 20, seed: page))
      #expect(Array(layout.elements.prefix(placed.count)) == placed)
      placed = layout.elements
    }
    #expect(placed.count == 200)
  }

  @Test(
    "An invalid item appends nothing and names its position",
    arguments: [(0.0, 1.0), (1, 0), (-1, 1), (.nan, 1), (1, .infinity)])
  func invalidItem(width: Double, height: Double) throws {
    var layout = try WaterfallLayout(threeColumns, items: items([(1, 1), (2, 3)]))
    let before = layout
    // Items 0 and 1 are laid out already; the bad one is the third of the new ones.
    #expect {
      try layout.append(items([(1, 1), (1, 2), (width, height), (1, 1)]))
    } throws: { error in
      guard case .invalidItemSize(let index, let badWidth, let badHeight) = error as? LayoutError
      else { return false }
      return index == 4 && badWidth.isNaN == width.isNaN && badHeight == height
    }
    #expect(layout.elements == before.elements)
    // The state is untouched too: the next append continues as if nothing had happened.
    try layout.append(items([(4, 5)]))
    let fresh = try WaterfallLayout(threeColumns, items: items([(1, 1), (2, 3), (4, 5)]))
    #expect(layout.elements == fresh.elements)
  }

  @Test("A height too large to represent is refused")
  func overflow() throws {
    var layout = try WaterfallLayout(threeColumns)
    #expect(throws: LayoutError.heightOverflow(index: 1)) {
      try layout.append(items([(1, 1), (1e-300, 1e300)]))
    }
    #expect(layout.elements.isEmpty)
    // Each item alone stays within the largest extent (100 · 6e297 = 6e299 ≤ 1e300), but
    // item 3 stacks on item 0.
    var waterfall = try WaterfallLayout(LayoutConfiguration(style: .waterfall, width: 340))
    #expect(throws: LayoutError.heightOverflow(index: 3)) {
      try waterfall.append(items(Array(repeating: (1, 6e297), count: 4)))
    }
    #expect(waterfall.elements.isEmpty)
    try waterfall.append(items(Array(repeating: (1, 6e297), count: 3)))
    #expect(waterfall.contentHeight.isFinite)
  }

  @Test(
    "A height that rounds to 0 is refused as too small",
    arguments: [LayoutStyle.irregular, .waterfall])
  func underflow(style: LayoutStyle) throws {
    var layout = try WaterfallLayout(LayoutConfiguration(style: style))
    #expect(throws: LayoutError.heightUnderflow(index: 1)) {
      try layout.append(items([(1, 1), (1e308, .leastNonzeroMagnitude)]))
    }
    #expect(layout.elements.isEmpty)
  }

  @Test(
    "A height lost in rounding against its top is refused as too small, in every loop",
    arguments: [LayoutStyle.irregular, .waterfall], [PlacementOrder.shortest, .rightToLeft])
  func lostAgainstTop(style: LayoutStyle, order: PlacementOrder) throws {
    // 83 million points wide, 1e-300 as tall as wide: 8e-293 points, positive, but 10 + it
    // is 10. (Found by the layout fuzzer: such an item was placed with a bottom at its top, and
    // the next one aligned to it with a height of 0.)
    let configuration = LayoutConfiguration(
      style: style, width: 1e9, columns: 12, order: order)
    var layout = try WaterfallLayout(configuration)
    #expect(throws: LayoutError.heightUnderflow(index: 0)) {
      try layout.append([LayoutItem(width: 339, height: 1e-300)])
    }
    #expect(layout.elements.isEmpty)
  }

  @Test("On a pixel grid, columns without spacing share their edges: no overlap of a pixel")
  func sharedGridEdges() throws {
    // 1024 − 20 − 10 over 12 columns is 82.8333… points: edges fall on the half-way points of a
    // 1/3 grid, where the sum x + width and the next column's x could round apart. (Found by the
    // layout fuzzer.)
    let configuration = LayoutConfiguration(
      style: .waterfall, width: 1024, columns: 12, columnSpacing: 0, rowSpacing: 0,
      insets: EdgeInsets(top: 10, left: 20, bottom: 1, right: 10), scale: 3)
    let layout = try WaterfallLayout(
      configuration, items: squares(24))
    let rows = Dictionary(grouping: layout.elements) { $0.frame.y }
    for row in rows.values {
      let frames = row.map(\.frame).sorted { $0.x < $1.x }
      for (left, right) in zip(frames, frames.dropFirst()) {
        #expect(left.maxX == right.x, "\(left) and \(right)")
      }
    }
  }

  @Test("A bad configuration is refused when the layout is made")
  func badConfiguration() {
    #expect(throws: LayoutError.invalidColumnCount(0)) {
      try WaterfallLayout(LayoutConfiguration(columns: 0))
    }
  }

  // MARK: Determinism

  @Test("The same seed gives the same layout; other seeds give other layouts")
  func determinism() throws {
    let sizes = try Fixtures.layoutItems("xr-waterfall.json")
    let first = try WaterfallLayout(LayoutConfiguration(seed: 5), items: sizes)
    let again = try WaterfallLayout(LayoutConfiguration(seed: 5), items: sizes)
    #expect(first.elements == again.elements)
    let distinct = Set(
      try (0..<20 as Range<UInt64>).map {
        try WaterfallLayout(LayoutConfiguration(seed: $0), items: sizes).elements.map(\.frame)
      })
    #expect(distinct.count > 10)
  }

  // MARK: Every rule as an invariant

  @Test("Every rule holds on the real feeds", arguments: Fixtures.feedNames)
  func realFeeds(name: String) throws {
    let sizes = try Fixtures.layoutItems(name)
    var checked = 0
    for seed in 0..<12 as Range<UInt64> {
      for columns in 1...6 {
        for (spacing, inset) in [(0.0, 0.0), (10, 10), (4, 25)] {
          for style in [LayoutStyle.irregular, .waterfall] {
            let configuration = LayoutConfiguration(
              style: style, width: [320, 375, 414, 1024][Int(seed % 4)], columns: columns,
              columnSpacing: spacing, rowSpacing: spacing + 1, insets: EdgeInsets(all: inset),
              seed: seed, enlargeChance: [0.67, 1, 0.3][Int(seed % 3)],
              alignTolerance: [0.2, 0.5, 0][Int(seed % 3)])
            let layout = try WaterfallLayout(configuration, items: sizes)
            let problems = LayoutChecker(configuration: configuration, items: sizes)
              .violations(of: layout.elements, contentHeight: layout.contentHeight)
            #expect(problems.isEmpty, "\(name) \(configuration): \(problems.prefix(3))")
            checked += 1
          }
        }
      }
    }
    #expect(checked == 12 * 6 * 3 * 2)
  }

  @Test("Every rule holds on generated feeds and configurations", arguments: 0..<40)
  func generatedFeeds(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &* 31 &+ 1)
    let sizes = GeneratedFeeds.items(count: 120, seed: seed)
    let columns = 1 + Int(random.next() % 8)
    let configuration = LayoutConfiguration(
      style: random.next() % 4 == 0 ? .waterfall : .irregular,
      width: 200 + random.nextUnit() * 1200, columns: columns,
      columnSpacing: Double(random.next() % 3) * 7.5, rowSpacing: Double(random.next() % 3) * 5,
      insets: EdgeInsets(
        top: random.nextUnit() * 20, left: random.nextUnit() * 20,
        bottom: random.nextUnit() * 20, right: random.nextUnit() * 20),
      seed: random.next(), enlargeChance: random.nextUnit(),
      alignTolerance: random.nextUnit() * 0.9)
    let layout = try WaterfallLayout(configuration, items: sizes)
    let problems = LayoutChecker(configuration: configuration, items: sizes)
      .violations(of: layout.elements, contentHeight: layout.contentHeight)
    #expect(problems.isEmpty, "\(configuration): \(problems.prefix(3))")
  }

  @Test(
    "Every rule holds with spans, every order, tolerance and right-to-left columns",
    arguments: 0..<60)
  func masonryInvariants(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &* 104_729 &+ 17)
    let columns = 1 + Int(random.next() % 6)
    let order = PlacementOrder.allCases[Int(random.next() % 3)]
    let sizes = GeneratedFeeds.items(count: 150, seed: seed).map { item in
      let span = random.next() % 6 == 0 ? 1 + Int(random.next() % 4) : 1
      return LayoutItem(width: item.width, height: item.height, span: span)
    }
    let configuration = LayoutConfiguration(
      style: random.next() % 2 == 0 ? .waterfall : .irregular,
      width: 300 + random.nextUnit() * 900, columns: columns,
      columnSpacing: Double(random.next() % 3) * 6, rowSpacing: Double(random.next() % 3) * 5,
      insets: EdgeInsets(all: random.nextUnit() * 15), seed: random.next(),
      enlargeChance: random.nextUnit(), alignTolerance: random.nextUnit() * 0.5, order: order,
      tolerance: order == .shortest && random.next() % 2 == 0 ? random.nextUnit() * 40 : 0,
      direction: random.next() % 2 == 0 ? .leftToRight : .rightToLeft)
    let layout = try WaterfallLayout(configuration, items: sizes)
    let problems = LayoutChecker(configuration: configuration, items: sizes)
      .violations(of: layout.elements, contentHeight: layout.contentHeight)
    #expect(problems.isEmpty, "\(configuration): \(problems.prefix(3))")
  }

  @Test("Irregular layouts do enlarge and align on real feeds")
  func featuresAppear() throws {
    let sizes = try Fixtures.layoutItems("jkr-gz-1plist-urldims.json")
    let layout = try WaterfallLayout(LayoutConfiguration(), items: sizes)
    #expect(layout.elements.filter(\.isEnlarged).count > 0)
    #expect(layout.elements.filter(\.isAligned).count > 0)
  }

  // MARK: Spans, order, tolerance, direction, scale, axis

  @Test("A spanning item goes where the highest bottom it would cover is lowest")
  func spanByHand() throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    let layout = try WaterfallLayout(
      configuration,
      items: [
        LayoutItem(width: 100, height: 100), LayoutItem(width: 100, height: 200),
        LayoutItem(width: 2, height: 1, span: 2), LayoutItem(width: 100, height: 100),
      ])
    // Starts 0 and 1 both top out at 210 (columns 0–1 and 1–2): the leftmost wins, below 210.
    #expect(
      layout.elements.map(\.frame) == [
        Rect(x: 10, y: 10, width: 100, height: 100),
        Rect(x: 120, y: 10, width: 100, height: 200),
        Rect(x: 10, y: 220, width: 210, height: 105),
        Rect(x: 230, y: 10, width: 100, height: 100),
      ])
    #expect(layout.elements.map(\.span) == [1, 1, 2, 1])
    #expect(layout.columnBottoms == [325, 325, 110])
  }

  @Test("A full span covers every column; a span wider than the layout is clamped")
  func fullSpan() throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    let layout = try WaterfallLayout(
      configuration,
      items: [
        LayoutItem(width: 1, height: 1), LayoutItem(width: 32, height: 10, span: .max),
        LayoutItem(width: 32, height: 10, span: 9),
      ])
    #expect(layout.elements[1].frame == Rect(x: 10, y: 120, width: 320, height: 100))
    #expect(layout.elements[2].frame == Rect(x: 10, y: 230, width: 320, height: 100))
    #expect(layout.elements.map(\.span) == [1, 3, 3])
  }

  @Test("In the irregular style a feed span is kept and never enlarged further")
  func irregularSpan() throws {
    var configuration = threeColumns
    configuration.enlargeChance = 1
    let items = (0..<40).map { LayoutItem(width: 1, height: 1, span: $0 % 5 == 0 ? 2 : 1) }
    let layout = try WaterfallLayout(configuration, items: items)
    for (element, item) in zip(layout.elements, items) where item.span == 2 {
      #expect(element.span == 2 && !element.isEnlarged && !element.isAligned)
    }
    #expect(layout.elements.contains { $0.isEnlarged })
  }

  @Test("A span of 0 is refused")
  func zeroSpan() throws {
    var layout = try WaterfallLayout(threeColumns)
    #expect(throws: LayoutError.invalidItemSize(index: 0, width: 1, height: 1)) {
      try layout.append([LayoutItem(width: 1, height: 1, span: 0)])
    }
  }

  @Test(
    "Left-to-right and right-to-left orders take columns in turn, whatever their heights",
    arguments: [(PlacementOrder.leftToRight, [0, 1, 2, 0, 1]), (.rightToLeft, [2, 1, 0, 2, 1])])
  func turnOrders(order: PlacementOrder, columns: [Int]) throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    configuration.order = order
    let heights: [Double] = [300, 10, 10, 10, 10]
    let layout = try WaterfallLayout(
      configuration, items: heights.map { LayoutItem(width: 100, height: $0) })
    #expect(layout.elements.map(\.column) == columns)
    // The fourth item stacks in its column, under the first item there.
    let first = layout.elements[0].column == columns[3] ? layout.elements[0] : layout.elements[2]
    #expect(layout.elements[3].frame.y == first.frame.maxY + 10)
  }

  @Test(
    "Tolerance: near-ties go to the first tied column after the previous item",
    arguments: [(0.0, 0, 132.0), (5, 2, 135)])
  func toleranceByHand(tolerance: Double, column: Int, y: Double) throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    configuration.tolerance = tolerance
    // Bottoms before item 4: 122, 310, 125; item 3 went to column 0, so the search starts at 1:
    // with a tolerance of 5, column 2 (3 points lower) is tied and comes first.
    let heights: [Double] = [100, 300, 115, 2, 50]
    let layout = try WaterfallLayout(
      configuration, items: heights.map { LayoutItem(width: 100, height: $0) })
    #expect(layout.elements.map(\.column).prefix(4) == [0, 1, 2, 0])
    #expect(layout.elements[4].column == column)
    #expect(layout.elements[4].frame.y == y)
  }

  @Test("Right-to-left counts columns from the right and keeps the insets on their edges")
  func rightToLeft() throws {
    var configuration = threeColumns
    configuration.style = .waterfall
    configuration.direction = .rightToLeft
    configuration.insets = EdgeInsets(top: 10, left: 5, bottom: 10, right: 15)
    let layout = try WaterfallLayout(
      configuration,
      items: [
        LayoutItem(width: 1, height: 1), LayoutItem(width: 1, height: 1),
        LayoutItem(width: 2, height: 1, span: 2),
      ])
    // w = (340 − 20 − 20)/3 = 100; physical columns at 5, 115, 225.
    #expect(layout.elements.map(\.column) == [0, 1, 0])
    #expect(layout.elements[0].frame.x == 225)
    #expect(layout.elements[1].frame.x == 115)
    // The span covers logical columns 0–1: physically the two on the right.
    #expect(layout.elements[2].frame.x == 115 && layout.elements[2].frame.width == 210)
    let ltr = try WaterfallLayout(
      LayoutConfiguration(
        style: .waterfall, width: 340, insets: configuration.insets),
      items: [LayoutItem(width: 1, height: 1)])
    #expect(ltr.elements[0].frame.x == 5)
  }

  @Test(
    "Pixel alignment puts every edge on the grid, keeps gaps, and never drifts",
    arguments: [2.0, 3])
  func pixelAlignment(scale: Double) throws {
    let sizes = GeneratedFeeds.items(count: 1_000, seed: 12)
    let base = LayoutConfiguration(
      style: .waterfall, width: 375, columns: 3, columnSpacing: 7.3, rowSpacing: 4.7,
      insets: EdgeInsets(all: 8.2))
    var snapped = base
    snapped.scale = scale
    let layout = try WaterfallLayout(snapped, items: sizes)
    // The unsnapped layout with the spacing and insets already on the grid.
    let exact = try WaterfallLayout(base.with(gridOf: scale), items: sizes)
    func onGrid(_ value: Double) -> Bool { abs(value * scale - (value * scale).rounded()) < 1e-6 }
    for (element, ideal) in zip(layout.elements, exact.elements) {
      let frame = element.frame
      #expect([frame.x, frame.y, frame.maxX, frame.maxY].allSatisfy(onGrid), "\(frame)")
      // Each edge is the exact edge rounded: never more than half a pixel off, however far down.
      #expect(abs(frame.y - ideal.frame.y) <= 0.5 / scale + 1e-9)
      #expect(abs(frame.maxY - ideal.frame.maxY) <= 0.5 / scale + 1e-9)
    }
    let rowGap = (4.7 * scale).rounded() / scale
    for column in 0..<3 {
      let stack = layout.elements.filter { $0.column == column }
      for (upper, lower) in zip(stack, stack.dropFirst()) {
        #expect(abs(lower.frame.y - upper.frame.maxY - rowGap) < 1e-6)
      }
    }
  }

  @Test("Pixel alignment by hand: thirds of 100 points at scale 2")
  func pixelAlignmentByHand() throws {
    let configuration = LayoutConfiguration(
      style: .waterfall, width: 100, columns: 3, columnSpacing: 0, rowSpacing: 0.3,
      insets: .zero, scale: 2)
    let layout = try WaterfallLayout(
      configuration, items: Array(repeating: LayoutItem(width: 3, height: 1), count: 6))
    // Columns of 33.33: edges 0, 33.33, 66.67, 100 round to 0, 33.5, 66.5, 100; heights 11.11
    // round to 11; the row spacing 0.3 rounds to 0.5, so the second row starts at 11.5.
    #expect(
      layout.elements.prefix(4).map(\.frame) == [
        Rect(x: 0, y: 0, width: 33.5, height: 11), Rect(x: 33.5, y: 0, width: 33, height: 11),
        Rect(x: 66.5, y: 0, width: 33.5, height: 11), Rect(x: 0, y: 11.5, width: 33.5, height: 11),
      ])
  }

  @Test("A horizontal layout by hand: rows share the height, items keep their aspect ratio")
  func horizontalByHand() throws {
    let configuration = LayoutConfiguration(
      style: .waterfall, columns: 2, columnSpacing: 0, rowSpacing: 10,
      viewportHeight: 220, axis: .horizontal)
    let layout = try WaterfallLayout(
      configuration,
      items: [LayoutItem(width: 200, height: 100), LayoutItem(width: 100, height: 100)])
    // Rows of (220 − 20)/2 = 100: the 2:1 item is 200 wide in row 0, the square 100 in row 1.
    #expect(
      layout.elements.map(\.frame) == [
        Rect(x: 10, y: 10, width: 200, height: 100), Rect(x: 10, y: 110, width: 100, height: 100),
      ])
    #expect(layout.contentSize == Size(width: 220, height: 220))
  }

  @Test("A horizontal layout is the vertical one with x and y exchanged", arguments: 0..<6)
  func horizontal(seed: UInt64) throws {
    let sizes = GeneratedFeeds.items(count: 80, seed: seed)
    let horizontal = LayoutConfiguration(
      style: seed % 2 == 0 ? .irregular : .waterfall, width: 1000, columns: 3,
      columnSpacing: 6, rowSpacing: 9, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
      seed: seed, viewportHeight: 500, axis: .horizontal)
    var vertical = horizontal
    vertical.axis = .vertical
    vertical.width = 500
    vertical.insets = EdgeInsets(top: 2, left: 1, bottom: 4, right: 3)
    let rows = try WaterfallLayout(horizontal, items: sizes)
    let columns = try WaterfallLayout(
      vertical, items: sizes.map { LayoutItem(width: $0.height, height: $0.width) })
    #expect(rows.elements.count == columns.elements.count)
    for (row, column) in zip(rows.elements, columns.elements) {
      let f = column.frame
      #expect(row.frame == Rect(x: f.y, y: f.x, width: f.height, height: f.width))
      #expect(row.isEnlarged == column.isEnlarged && row.isAligned == column.isAligned)
    }
    #expect(rows.contentSize == Size(width: columns.contentHeight, height: 500))
  }

  @Test("Options a style does not use are refused")
  func notApplicable() {
    #expect(throws: LayoutError.notApplicable(option: .order, style: .grid)) {
      try WaterfallLayout(LayoutConfiguration(style: .grid, order: .leftToRight))
    }
    #expect(throws: LayoutError.notApplicable(option: .axis, style: .circle)) {
      try WaterfallLayout(LayoutConfiguration(style: .circle, axis: .horizontal))
    }
    #expect(throws: LayoutError.notApplicable(option: .scale, style: .cube)) {
      try WaterfallLayout(LayoutConfiguration(style: .cube, scale: 2))
    }
  }

  @Test("Every element is found by index in one step")
  func elementAt() throws {
    let layout = try WaterfallLayout(
      LayoutConfiguration(), items: GeneratedFeeds.items(count: 30, seed: 1))
    #expect(layout.element(at: 7) == layout.elements[7])
    #expect(layout.element(at: 30) == nil && layout.element(at: -1) == nil)
  }
}

extension LayoutConfiguration {
  /// This configuration with spacing and insets rounded to the `1/scale` grid, no scale set.
  fileprivate func with(gridOf scale: Double) -> LayoutConfiguration {
    func snap(_ value: Double) -> Double { (value * scale).rounded() / scale }
    var copy = self
    copy.columnSpacing = snap(columnSpacing)
    copy.rowSpacing = snap(rowSpacing)
    copy.insets = EdgeInsets(
      top: snap(insets.top), left: snap(insets.left), bottom: snap(insets.bottom),
      right: snap(insets.right))
    return copy
  }

  @Test("Every style is deterministic and finite on real feeds", arguments: LayoutStyle.allCases)
  func allStyles(style: LayoutStyle) throws {
    let items = try Fixtures.layoutItems("xr-waterfall.json")
    let configuration = LayoutConfiguration(style: style, seed: 9)
    let a = try WaterfallLayout(configuration, items: items)
    let b = try WaterfallLayout(configuration, items: items)
    #expect(a.elements == b.elements && a.transforms == b.transforms)
    #expect(
      a.elements.allSatisfy {
        [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height].allSatisfy { $0.isFinite }
      })
    #expect(a.contentHeight.isFinite)
    #expect(a.transforms.count == (style.family == .ring ? items.count : 0))
  }
}
