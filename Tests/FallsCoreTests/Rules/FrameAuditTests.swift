import FallsCheckers
import Testing

@testable import FallsCore

/// An element of column `column` (of 100 points, spacing 10, insets 10) spanning `span`, from
/// `top`, `height` tall.
private func element(
  _ index: Int, column: Int, span: Int = 1, top: Double, height: Double, enlarged: Bool = false
) -> LayoutElement {
  LayoutElement(
    index: index, column: column, span: span,
    frame: Rect(
      x: 10 + Double(column) * 110, y: top, width: Double(span) * 100 + Double(span - 1) * 10,
      height: height),
    isEnlarged: enlarged, isAligned: false)
}

/// Four columns of 100: W 470.
private let four = LayoutConfiguration(style: .irregular, width: 470, columns: 4)

@Suite struct FrameAuditTests {
  @Test(
    "Real layouts keep every rule: every style, options, seeds, feeds",
    arguments: LayoutStyle.allCases)
  func realLayouts(style: LayoutStyle) throws {
    for seed: UInt64 in 1...6 {
      for (columns, options) in [(2, 0), (3, 1), (4, 2), (7, 3)] {
        var configuration = LayoutConfiguration(style: style, columns: columns, seed: seed)
        if style == .grid { configuration.pattern = .seed }
        guard !(style == .grid && columns != 3) else { continue }
        if style.usesItemSizes || style == .grid {
          switch options {
          case 1: configuration.direction = .rightToLeft
          case 2: configuration.axis = .horizontal
          case 3: configuration.scale = 3
          default: break
          }
        }
        if style == .irregular, seed.isMultiple(of: 2) { configuration.alignment = .spread }
        let items = SyntheticFeed.items(count: 400, seed: seed, columnWidth: 100)
        let layout = try WaterfallLayout(configuration, items: items)
        #expect(
          FrameAudit.problems(of: layout.elements, configuration: configuration).isEmpty,
          "\(style) seed \(seed) columns \(columns) options \(options)")
      }
    }
  }

  @Test("A frame past the width, or before the left edge, is outside")
  func outsideWidth() {
    let elements = [
      element(0, column: 3, top: 10, height: 50),
      LayoutElement(
        index: 1, column: 3, span: 1, frame: Rect(x: 340, y: 70, width: 140, height: 10),
        isEnlarged: false, isAligned: false),
      LayoutElement(
        index: 2, column: 0, span: 1, frame: Rect(x: -1, y: 90, width: 20, height: 10),
        isEnlarged: false, isAligned: false),
    ]
    let problems = FrameAudit.problems(of: elements, configuration: four)
    #expect(problems.map(\.rule) == [.insideWidth, .insideWidth])
    #expect(problems.map(\.indices) == [[1], [2]])
    #expect(problems[0].message == "item 1 reaches outside the content width")
  }

  @Test("On a grid, an edge may round half a step past a width that is not on the grid")
  func gridWidth() throws {
    // The fuzzer's case: rows of a 667-point viewport on a 1.5 grid, where 667 is 1000.5 pixels.
    var configuration = LayoutConfiguration(
      style: .grid, columns: 3, insets: EdgeInsets(top: 10, left: 10, bottom: 1e-9, right: 10),
      direction: .rightToLeft, axis: .horizontal, scale: 1.5)
    configuration.pattern = try QuiltPattern(spans: [(1, 1), (1, 1), (1, 1), (1, 1)], columns: 3)
    let layout = try WaterfallLayout(configuration, items: squares(12))
    #expect(FrameAudit.problems(of: layout.elements, configuration: configuration).isEmpty)
    // A whole step past it is outside.
    var past = layout.elements[0]
    past.frame.y = 667 + 1 / 1.5 - past.frame.height
    let problems = FrameAudit.problems(of: [past], configuration: configuration)
    #expect(problems.map(\.rule) == [.insideWidth])
  }

  @Test("Frames that share interior points overlap; frames that touch do not")
  func overlap() {
    let touching = [
      element(0, column: 0, top: 10, height: 50), element(1, column: 0, top: 60, height: 50),
      element(2, column: 1, top: 10, height: 100),
    ]
    #expect(FrameAudit.problems(of: touching, configuration: four).isEmpty)
    let overlapping = touching + [element(3, column: 0, top: 100, height: 20)]
    let problems = FrameAudit.problems(of: overlapping, configuration: four)
    #expect(problems.map(\.rule) == [.noOverlap])
    #expect(problems.first?.indices == [1, 3])
    #expect(problems.first?.message == "items 1 and 3 overlap")
  }

  @Test("Two enlarged side by side, their extents overlapping, break the rule; apart they do not")
  func sideBySide() {
    let pair = [
      element(0, column: 0, span: 2, top: 10, height: 210, enlarged: true),
      element(1, column: 2, span: 2, top: 100, height: 210, enlarged: true),
    ]
    let problems = FrameAudit.problems(of: pair, configuration: four)
    #expect(problems.map(\.rule) == [.noEnlargedSideBySide])
    #expect(problems.first?.indices == [0, 1])
    // Below it instead: not side by side.
    let apart = [pair[0], element(1, column: 2, span: 2, top: 230, height: 210, enlarged: true)]
    #expect(FrameAudit.problems(of: apart, configuration: four).isEmpty)
    // In the waterfall style, which does not enlarge, the rule does not apply.
    var waterfall = four
    waterfall.style = .waterfall
    #expect(FrameAudit.problems(of: pair, configuration: waterfall).isEmpty)
  }

  @Test("On a grid coarser than a column, columns are the layout's own; its rules still hold")
  func coarseGrid() throws {
    // Twelve columns of 1/12 point on a grid of 1/3 (scale 3): frames cannot tell them apart.
    for direction in [LayoutDirection.leftToRight, .rightToLeft] {
      let configuration = LayoutConfiguration(
        style: .irregular, width: 1, columns: 12, columnSpacing: 0, insets: EdgeInsets(all: 0),
        seed: 7, enlargeChance: 0.7, direction: direction, scale: 3)
      let layout = try WaterfallLayout(
        configuration, items: SyntheticFeed.items(count: 300, seed: 7, columnWidth: 1.0 / 12))
      #expect(layout.elements.contains { $0.isEnlarged })
      #expect(FrameAudit.problems(of: layout.elements, configuration: configuration).isEmpty)
      // Two enlarged items said to be in columns 0-1 and 2-3, at once: side by side, whatever
      // their snapped frames show.
      let frame = Rect(x: 0, y: 0, width: 1.0 / 3, height: 10)
      let pair = [
        LayoutElement(
          index: 0, column: 0, span: 2, frame: frame, isEnlarged: true, isAligned: false),
        LayoutElement(
          index: 1, column: 2, span: 2, frame: Rect(x: 1.0 / 3, y: 4, width: 1.0 / 3, height: 10),
          isEnlarged: true,
          isAligned: false),
      ]
      let rules = FrameAudit.problems(of: pair, configuration: configuration).map(\.rule)
      #expect(rules == [.noEnlargedSideBySide], "\(direction)")
    }
  }

  @Test("An enlarged item right on another in its columns is stacked; with an item between, not")
  func stacked() {
    let stack = [
      element(0, column: 1, span: 2, top: 10, height: 210, enlarged: true),
      element(1, column: 1, span: 2, top: 230, height: 210, enlarged: true),
    ]
    let problems = FrameAudit.problems(of: stack, configuration: four)
    #expect(problems.map(\.rule) == [.noEnlargedStacked])
    #expect(problems.first?.message == "enlarged items 0 and 1 are stacked")
    let between = [
      stack[0], element(2, column: 1, top: 230, height: 50),
      element(3, column: 2, top: 230, height: 50),
      element(1, column: 1, span: 2, top: 290, height: 210, enlarged: true),
    ]
    #expect(FrameAudit.problems(of: between, configuration: four).isEmpty)
  }

  @Test("The rules of each style")
  func rules() {
    #expect(
      FrameAudit.Problem.Rule.rules(of: .irregular) == [
        .insideWidth, .noOverlap, .noEnlargedSideBySide, .noEnlargedStacked,
      ])
    #expect(FrameAudit.Problem.Rule.rules(of: .waterfall) == [.insideWidth, .noOverlap])
    #expect(FrameAudit.Problem.Rule.rules(of: .sphere).isEmpty)
  }
  @Test("No elements, one, two apart: no problem; problems come sorted by rule, then indices")
  func ladder() {
    #expect(FrameAudit.problems(of: [], configuration: four).isEmpty)
    let one = [element(0, column: 0, top: 10, height: 50, enlarged: true)]
    #expect(FrameAudit.problems(of: one, configuration: four).isEmpty)
    let two = one + [element(1, column: 2, span: 2, top: 10, height: 50)]
    #expect(FrameAudit.problems(of: two, configuration: four).isEmpty)
    // Given late to early: 9, 8 and 7 share column 0 at 100...150 (three overlaps); 5 and 6,
    // enlarged in columns 2-3, are stacked; 4, enlarged in columns 0-1 at 200...400, is side by
    // side with 6 at 190...300; 3 reaches past 470.
    let elements = [
      element(9, column: 0, top: 100, height: 50), element(8, column: 0, top: 100, height: 50),
      element(7, column: 0, top: 100, height: 50),
      element(6, column: 2, span: 2, top: 190, height: 110, enlarged: true),
      element(5, column: 2, span: 2, top: 70, height: 110, enlarged: true),
      element(4, column: 0, span: 2, top: 200, height: 200, enlarged: true),
      LayoutElement(
        index: 3, column: 3, span: 1, frame: Rect(x: 340, y: 500, width: 200, height: 10),
        isEnlarged: false, isAligned: false),
    ]
    let problems = FrameAudit.problems(of: elements, configuration: four)
    #expect(
      problems == [
        FrameAudit.Problem(rule: .insideWidth, indices: [3]),
        FrameAudit.Problem(rule: .noOverlap, indices: [7, 8]),
        FrameAudit.Problem(rule: .noOverlap, indices: [7, 9]),
        FrameAudit.Problem(rule: .noOverlap, indices: [8, 9]),
        FrameAudit.Problem(rule: .noEnlargedSideBySide, indices: [4, 6]),
        FrameAudit.Problem(rule: .noEnlargedStacked, indices: [5, 6]),
      ])
    #expect(problems == problems.sorted())
  }

  @Test("Overlaps count beyond a billionth of the sizes; a frame that ends within it is closed")
  func overlapTolerance() {
    // Frames about 1000 points down: the tolerance is about a millionth of a point (1.2e-6 for
    // the second pair, whose far edge is at 1200).
    func pair(_ secondTop: Double) -> [LayoutElement] {
      [
        element(0, column: 0, top: 1000, height: 100),
        element(1, column: 0, top: secondTop, height: 100),
      ]
    }
    #expect(FrameAudit.problems(of: pair(1100 - 0.5e-6), configuration: four).isEmpty)
    #expect(
      FrameAudit.problems(of: pair(1100 - 2e-6), configuration: four).map(\.rule) == [.noOverlap])
    #expect(FrameAudit.problems(of: pair(1100 + 1e-6), configuration: four).isEmpty)
    // Across: a frame moved onto column 0's right edge, by less and more than 1.1e-6.
    func across(_ shift: Double) -> [LayoutElement] {
      var moved = element(1, column: 1, top: 1000, height: 100)
      moved.frame.x = 110 - shift
      return [
        LayoutElement(
          index: 0, column: 0, span: 1, frame: Rect(x: 10, y: 1000, width: 100, height: 100),
          isEnlarged: false, isAligned: false), moved,
      ]
    }
    #expect(FrameAudit.problems(of: across(0.5e-6), configuration: four).isEmpty)
    #expect(FrameAudit.problems(of: across(2e-6), configuration: four).map(\.rule) == [.noOverlap])
  }

  @Test("An enlarged item right below another is stacked on it when it covers its first column")
  func stackedFirstColumn() {
    let upper = element(0, column: 1, span: 2, top: 10, height: 100, enlarged: true)
    // Below, in columns 0-1: column 1 is the upper one's first.
    let left = [upper, element(1, column: 0, span: 2, top: 120, height: 100, enlarged: true)]
    #expect(FrameAudit.problems(of: left, configuration: four).map(\.rule) == [.noEnlargedStacked])
    // In columns 2-3: they share column 2, which is not the upper one's first.
    let right = [upper, element(1, column: 2, span: 2, top: 120, height: 100, enlarged: true)]
    #expect(FrameAudit.problems(of: right, configuration: four).isEmpty)
    // An item across all four columns between them hides the upper one from every column.
    let wide = [
      upper, element(2, column: 0, span: 4, top: 115, height: 2),
      element(1, column: 0, span: 2, top: 120, height: 100, enlarged: true),
    ]
    #expect(FrameAudit.problems(of: wide, configuration: four).isEmpty)
  }

  @Test("A frame that is not finite takes part in no rule between two frames, and traps nothing")
  func notFinite() {
    let good = [
      element(0, column: 0, span: 2, top: 10, height: 100, enlarged: true),
      element(1, column: 2, span: 2, top: 10, height: 100, enlarged: true),
    ]
    let strange = [Double.nan, .infinity, -.infinity].enumerated().map { offset, value in
      LayoutElement(
        index: 2 + offset, column: 0, span: 2,
        frame: Rect(x: value, y: 10, width: 210, height: 100),
        isEnlarged: true, isAligned: false)
    }
    let problems = FrameAudit.problems(of: good + strange, configuration: four)
    #expect(
      problems.filter { $0.rule != .insideWidth }
        == FrameAudit.problems(of: good, configuration: four))
    // Far outside the width, its column lines past any Int: outside, and nothing else.
    var far = good[1]
    far.frame.x = 1e300
    #expect(
      FrameAudit.problems(of: [good[0], far], configuration: four)
        == [FrameAudit.Problem(rule: .insideWidth, indices: [1])])
  }

  @Test(
    "Layouts at the edges of the ranges keep their rules and convert no number that traps",
    arguments: [
      // A billion points wide; pitches a ten-thousandth of the width; rows of a billion points.
      (1e9, 3, 10.0, LayoutAxis.vertical, 1e9), (10, 10_000, 0, .vertical, 1e3),
      (375, 4, 10, .horizontal, 1e9), (1e9, 1, 0, .vertical, 1e9),
    ])
  func extremes(width: Double, columns: Int, spacing: Double, axis: LayoutAxis, size: Double)
    throws
  {
    var configuration = LayoutConfiguration(
      style: .irregular, width: width, columns: columns, columnSpacing: spacing,
      insets: EdgeInsets(all: spacing), enlargeChance: 1, axis: axis)
    if axis == .horizontal { configuration.viewportHeight = width }
    // Items up to `size` tall and a point wide: their far edges go far past a billion along
    // the axis.
    let items = (0..<600).map {
      LayoutItem(width: 1 + Double($0 % 7), height: size / Double(1 + $0 % 5))
    }
    let layout = try WaterfallLayout(configuration, items: items)
    #expect(layout.elements.contains(where: \.isEnlarged) == (columns > 1))
    #expect(FrameAudit.problems(of: layout.elements, configuration: configuration).isEmpty)
  }

  @Test(
    "Every problem the pairwise reading finds, no other: generated layouts, whole and broken",
    arguments: 0..<8)
  func sameAsBruteForce(batch: UInt64) throws {
    for seed in batch * 100..<batch * 100 + 100 {
      let (configuration, elements) = try generatedCase(seed: seed)
      let problems = FrameAudit.problems(of: elements, configuration: configuration)
      let expected = BruteForceAudit.problems(of: elements, configuration: configuration).sorted()
      let isSame = problems == expected
      let extra = problems.filter { !expected.contains($0) }.prefix(4).map(\.message)
      let missing = expected.filter { !problems.contains($0) }.prefix(4).map(\.message)
      #expect(isSame, "seed \(seed): \(extra) not expected, \(missing) missing")
    }
  }

  @Test("The generated cases break every rule, and keep them too")
  func generatedCasesCover() throws {
    var broken: Set<FrameAudit.Problem.Rule> = []
    var whole = 0
    for seed: UInt64 in 0..<200 {
      let (configuration, elements) = try generatedCase(seed: seed)
      let problems = BruteForceAudit.problems(of: elements, configuration: configuration)
      broken.formUnion(problems.map(\.rule))
      if problems.isEmpty, !elements.isEmpty { whole += 1 }
    }
    #expect(broken == Set(FrameAudit.Problem.Rule.allCases))
    #expect(whole >= 20)
  }

  @Test("200,000 items of an irregular layout, many enlarged: audited, no problem found")
  func long() throws {
    let configuration = LayoutConfiguration(style: .irregular, columns: 6, enlargeChance: 1)
    let items = SyntheticFeed.items(
      count: 200_000, seed: 3, columnWidth: configuration.working.columnWidth)
    let layout = try WaterfallLayout(configuration, items: items)
    #expect(layout.elements.count { $0.isEnlarged } > 20_000)
    #expect(FrameAudit.problems(of: layout.elements, configuration: configuration).isEmpty)
  }
}

/// A layout to audit, drawn from `seed`: a configuration (either style that keeps the rules, 1
/// to 40 columns, either direction and axis, no pixel grid, a fine one or one coarser than a
/// column, items that span columns) and either the engine's layout of it, whole or broken on
/// purpose (frames moved onto others, enlarged items forced beside or onto others, nudged by
/// about the tolerance, copied, moved out, stated columns redrawn), or frames drawn on the
/// columns' lattice, where ties, touching edges and overlaps abound; at times moved along the
/// axis (to negative or far positions), at times shuffled.
private func generatedCase(seed: UInt64) throws -> (LayoutConfiguration, [LayoutElement]) {
  var random = SplitMix64(seed: seed)
  func draw(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
  func pick<T>(_ values: [T]) -> T { values[draw(values.count)] }
  func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }
  // About the tolerance of a position near `near`: a little under or over it.
  func noise(_ near: Double) -> Double {
    pick([-3, -1.1, -0.9, -0.3, 0.3, 0.9, 1.1, 3]) * 1e-9 * max(1, abs(near))
  }

  let columns = pick([1, 2, 3, 3, 4, 5, 7, 12, 40])
  let isCoarse = chance(0.15)
  let columnWidth = isCoarse ? 0.1 : pick([100, 33.25, 61.7])
  let spacing = isCoarse ? 0 : pick([10, 0, 2.5])
  let inset = isCoarse ? 0 : pick([10, 0, 3.25])
  let across = 2 * inset + Double(columns) * columnWidth + Double(columns - 1) * spacing
  let axis: LayoutAxis = chance(0.3) ? .horizontal : .vertical
  var configuration = LayoutConfiguration(
    style: chance(0.8) ? .irregular : .waterfall, width: axis == .vertical ? across : 375,
    columns: columns, columnSpacing: spacing, rowSpacing: pick([10, 0, 4]),
    insets: EdgeInsets(all: inset), seed: seed, enlargeChance: pick([0.3, 0.67, 1]),
    direction: chance(0.4) ? .rightToLeft : .leftToRight, axis: axis)
  if axis == .horizontal { configuration.viewportHeight = across }
  configuration.scale = isCoarse ? 2 : chance(0.3) ? pick([1, 2, 3, 1.5]) : nil
  let working = configuration.working
  let pitch = working.columnWidth + working.columnSpacing
  let isVertical = axis == .vertical
  func frame(low: Double, width: Double, start: Double, length: Double) -> Rect {
    isVertical
      ? Rect(x: low, y: start, width: width, height: length)
      : Rect(x: start, y: low, width: length, height: width)
  }
  func edges(_ frame: Rect) -> (low: Double, width: Double, start: Double, length: Double) {
    isVertical
      ? (frame.x, frame.width, frame.y, frame.height)
      : (frame.y, frame.height, frame.x, frame.width)
  }

  // Along the axis, the frames may lie elsewhere: partly or wholly negative, or far.
  let shift = chance(0.8) ? 0 : pick([-1e4, -350, 1e7])
  var elements: [LayoutElement]
  if chance(0.25) {
    elements = (0..<1 + draw(150)).map { index in
      let first = draw(columns)
      let span = 1 + draw(min(3, columns - first) + (chance(0.1) ? 1 : 0))
      var low = working.insets.left + Double(first) * pitch
      if chance(0.05) { low += noise(low) }
      var start = shift + 10 * Double(draw(40))
      if chance(0.15) { start += noise(start) }
      var length = 10 * Double(1 + draw(8))
      if chance(0.15) { length += noise(start + length) }
      return LayoutElement(
        index: index,
        column: configuration.direction == .rightToLeft ? columns - first - span : first,
        span: span,
        frame: frame(
          low: low, width: Double(span) * pitch - working.columnSpacing, start: start,
          length: length),
        isEnlarged: chance(0.4), isAligned: false)
    }
  } else {
    let items = (0..<draw(260)).map { _ in
      LayoutItem(
        width: Double(100 + draw(1901)), height: Double(100 + draw(2901)),
        span: chance(0.1) ? 1 + draw(min(3, columns)) : 1)
    }
    elements = try WaterfallLayout(configuration, items: items).elements.map { element in
      var moved = element
      let (low, width, start, length) = edges(element.frame)
      moved.frame = frame(low: low, width: width, start: start + shift, length: length)
      return moved
    }
    for _ in 0..<(chance(0.3) ? 0 : 1 + draw(6)) where !elements.isEmpty {
      let position = draw(elements.count)
      var element = elements[position]
      var (low, width, start, length) = edges(element.frame)
      switch draw(10) {
      case 0:
        // Onto another frame, or beside it, by a share of its size.
        let other = edges(elements[draw(elements.count)].frame)
        low = other.low + pick([0, 0.3, 1, -1, 1 + 2e-9, 1 - 2e-9]) * other.width
        start = other.start + pick([0, 0.5, 1, -1, 1 + 2e-9, 1 - 2e-9]) * other.length
      case 1:
        element.isEnlarged = true
      case 2:
        element.isEnlarged = true
        width = 2 * working.columnWidth + working.columnSpacing
      case 3:
        // A new enlarged item in the columns after it, overlapping it along by a share.
        element.isEnlarged = chance(0.7)
        elements.append(
          LayoutElement(
            index: elements.count, column: element.column + element.span, span: element.span,
            frame: frame(
              low: low + width + working.columnSpacing, width: width,
              start: start + pick([-0.9, -0.5, 0, 0.5, 0.99, 1]) * length, length: length),
            isEnlarged: true, isAligned: false))
      case 4:
        // A new enlarged item right below it, in its columns or one off.
        element.isEnlarged = true
        elements.append(
          LayoutElement(
            index: elements.count, column: element.column, span: element.span,
            frame: frame(
              low: low + pick([0, pitch, -pitch]), width: width,
              start: start + length + pick([0, working.rowSpacing]), length: length),
            isEnlarged: true, isAligned: false))
      case 5:
        low += pick([pitch, -pitch, 2 * pitch, -0.5 * pitch, -50, 1000])
      case 6:
        start += noise(start)
        if chance(0.5) { length += noise(start + length) }
      case 7:
        var copy = element
        copy.index = pick([elements.count, element.index])
        elements.append(copy)
      case 8:
        element.column = draw(columns)
        element.span = 1 + draw(3)
      default:
        length = 0
      }
      element.frame = frame(low: low, width: width, start: start, length: length)
      elements[position] = element
    }
  }
  if chance(0.3) { elements.shuffle(using: &random) }
  return (configuration, elements)
}

/// The audit as it was before its sweep (eaeb0b8), every pair compared: the oracle that the
/// sweep must agree with, problem for problem. Only the reading of an element's columns is the
/// audit's own (``FrameAudit/ColumnReading``, unchanged but for numbers past an `Int`), the
/// one statement of that rule; how pairs are found is the old code's.
private enum BruteForceAudit {
  typealias Problem = FrameAudit.Problem

  static func problems(of elements: [LayoutElement], configuration: LayoutConfiguration)
    -> [Problem]
  {
    let isVertical = configuration.axis == .vertical
    // Across the scroll axis, and along it.
    func across(_ frame: Rect) -> (Double, Double) {
      isVertical ? (frame.x, frame.maxX) : (frame.y, frame.maxY)
    }
    func along(_ frame: Rect) -> (Double, Double) {
      isVertical ? (frame.y, frame.maxY) : (frame.x, frame.maxX)
    }
    func slack(_ values: Double...) -> Double { 1e-9 * max(1, values.map(abs).max() ?? 1) }
    var problems: [Problem] = []
    let room = isVertical ? configuration.width : configuration.viewportHeight
    // On a pixel grid an edge is the exact edge rounded to the grid: one that falls between
    // grid lines, as a width not on the grid does, may round half a step past it.
    let grid = configuration.scale.map { 0.5 / $0 } ?? 0
    if !configuration.style.hasTransforms {
      for element in elements {
        let (low, high) = across(element.frame)
        if low < -grid - slack(low, room) || high > room + grid + slack(high, room) {
          problems.append(Problem(rule: .insideWidth, indices: [element.index]))
        }
      }
    }
    guard !configuration.style.hasTransforms else {
      // A ring's items may also lie past the viewport's edges, turned.
      return []
    }
    // Overlaps: a sweep along the scroll axis, each frame against those still open.
    let order = elements.indices.sorted {
      along(elements[$0].frame).0 < along(elements[$1].frame).0
    }
    var open: [Int] = []
    for position in order {
      let frame = elements[position].frame
      let (start, end) = along(frame)
      open.removeAll { along(elements[$0].frame).1 <= start + slack(start) }
      let (left, right) = across(frame)
      for other in open {
        let (otherLeft, otherRight) = across(elements[other].frame)
        let (otherStart, otherEnd) = along(elements[other].frame)
        let tolerance = slack(start, end, otherStart, otherEnd, left, right)
        if left < otherRight - tolerance, otherLeft < right - tolerance,
          start < otherEnd - tolerance, otherStart < end - tolerance
        {
          problems.append(
            Problem(
              rule: .noOverlap,
              indices: [elements[other].index, elements[position].index].sorted()))
        }
      }
      open.append(position)
    }
    guard configuration.style.drawsAtRandom else { return problems }
    problems += enlargedProblems(
      elements, configuration: configuration, along: along)
    return problems
  }

  /// The irregular style's rules of enlarged items, its columns told from the frames.
  private static func enlargedProblems(
    _ elements: [LayoutElement], configuration: LayoutConfiguration,
    along: (Rect) -> (Double, Double)
  ) -> [Problem] {
    // The columns an element covers: the audit's one statement of them.
    let reading = FrameAudit.ColumnReading(configuration)
    let columns = reading.columns
    let place = reading.place
    var problems: [Problem] = []
    // Per column, its elements down the column.
    var byColumn = Array(repeating: [Int](), count: columns)
    let places = elements.map(place)
    for position in elements.indices {
      let (first, count) = places[position]
      for column in first..<min(first + count, columns) { byColumn[column].append(position) }
    }
    for column in byColumn.indices {
      let down = byColumn[column].sorted {
        along(elements[$0].frame).0 < along(elements[$1].frame).0
      }
      for (upper, lower) in zip(down, down.dropFirst())
      where elements[upper].isEnlarged && elements[lower].isEnlarged && upper != lower
        && places[upper].first == column
      {
        problems.append(
          Problem(
            rule: .noEnlargedStacked,
            indices: [elements[upper].index, elements[lower].index].sorted()))
      }
    }
    // Side by side: enlarged items whose column pairs touch, their extents overlapping.
    let enlarged = elements.indices.filter { elements[$0].isEnlarged }
    for (position, one) in enlarged.enumerated() {
      for other in enlarged[(position + 1)...] {
        let (a, b) = (places[one], places[other])
        guard a.first + a.count == b.first || b.first + b.count == a.first else { continue }
        let (start, end) = along(elements[one].frame)
        let (otherStart, otherEnd) = along(elements[other].frame)
        let tolerance = 1e-9 * max(1, abs(start), abs(end), abs(otherStart), abs(otherEnd))
        if start < otherEnd - tolerance, otherStart < end - tolerance {
          problems.append(
            Problem(
              rule: .noEnlargedSideBySide,
              indices: [elements[one].index, elements[other].index].sorted()))
        }
      }
    }
    return problems
  }
}
