import FallsCore
import FallsTestSupport
import Testing

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
}
