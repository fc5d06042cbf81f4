import FallsCheckers
import FallsCore
import Testing

@Suite struct SectionedLayoutTests {
  /// Section 0: 3 columns of 100 (W 340), header 50, footer 20; section 1: 2 columns of 155
  /// (W 340, spacing 10, insets 10), header 30, no footer.
  func twoSections() throws -> SectionedLayout {
    var layout = try SectionedLayout([
      Section(
        configuration: LayoutConfiguration(style: .waterfall, width: 340, columns: 3),
        headerHeight: 50, footerHeight: 20),
      Section(
        configuration: LayoutConfiguration(style: .waterfall, width: 340, columns: 2),
        headerHeight: 30),
    ])
    try layout.append(squares(4), toSection: 0)
    try layout.append(squares(1), toSection: 1)
    return layout
  }

  @Test("Sections stack: header, items, footer, then the next section, by hand")
  func byHand() throws {
    let layout = try twoSections()
    let elements = layout.elements
    #expect(elements.map(\.kind) == [.header, .item, .item, .item, .item, .footer, .header, .item])
    #expect(elements.map(\.section) == [0, 0, 0, 0, 0, 0, 1, 1])
    // Section 0: header 0...50; items from 50 + 10; the fourth item is below the first.
    #expect(elements[0].frame == Rect(x: 0, y: 0, width: 340, height: 50))
    #expect(elements[1].frame == Rect(x: 10, y: 60, width: 100, height: 100))
    #expect(elements[4].frame == Rect(x: 10, y: 170, width: 100, height: 100))
    // Items end at 270; bottom inset 10; footer 280...300.
    #expect(elements[5].frame == Rect(x: 0, y: 280, width: 340, height: 20))
    // Section 1 starts at 300: header 300...330, its item at 330 + 10, 155 wide.
    #expect(elements[6].frame == Rect(x: 0, y: 300, width: 340, height: 30))
    #expect(elements[7].frame == Rect(x: 10, y: 340, width: 155, height: 155))
    #expect(layout.start(ofSection: 1) == 300)
    #expect(layout.contentExtent == 300 + 30 + 175)
  }

  @Test("Any range of positions visits exactly those elements, in order")
  func ranges() throws {
    let layout = try twoSections()
    // Header, 4 items, footer; header, 1 item (checked by hand above).
    let all = layout.elements
    #expect(all.count == 8 && layout.elementCount == 8)
    for low in 0...10 {
      for high in low...12 {
        var visited: [SectionElement] = []
        layout.forEachElement(in: low..<high) { visited.append($0) }
        #expect(visited == Array(all[min(low, 8)..<min(high, 8)]), "\(low)..<\(high)")
      }
    }
  }

  @Test("Appending to an earlier section moves the later ones down")
  func appendEarlier() throws {
    var layout = try twoSections()
    try layout.append(squares(3), toSection: 0)
    #expect(layout.start(ofSection: 1) == 410)
    #expect(layout.elements.last?.frame.y == 450)
  }

  @Test("The minimum content height holds when the sections are shorter")
  func minimum() throws {
    let layout = try SectionedLayout(
      [Section(configuration: LayoutConfiguration(), headerHeight: 10)], minimumContentHeight: 900)
    #expect(layout.contentExtent == 900)
    #expect(layout.contentSize == Size(width: 375, height: 900))
  }

  @Test("Rect queries over sections equal a brute-force filter", arguments: 0..<10)
  func query(seed: UInt64) throws {
    var layout = try SectionedLayout([
      Section(
        configuration: LayoutConfiguration(columns: 3, seed: seed), headerHeight: 44,
        footerHeight: 30),
      Section(configuration: LayoutConfiguration(columns: 4, seed: seed), headerHeight: 20),
      Section(configuration: LayoutConfiguration(style: .grid, columns: 3), footerHeight: 12),
    ])
    for section in 0..<3 {
      try layout.append(
        GeneratedFeeds.items(count: 60, seed: seed + UInt64(section)), toSection: section)
    }
    var random = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let rect = Rect(
        x: random.nextUnit() * 375, y: random.nextUnit() * layout.contentExtent,
        width: random.nextUnit() * 375, height: random.nextUnit() * 800)
      #expect(layout.elements(in: rect) == layout.elements.filter { $0.frame.intersects(rect) })
    }
  }

  @Test("Bad sections are refused")
  func problems() {
    #expect(throws: SectionedLayout.Problem.noSections) { try SectionedLayout([]) }
    #expect(throws: SectionedLayout.Problem.invalidLength("headerHeight", -1)) {
      try SectionedLayout([Section(configuration: LayoutConfiguration(), headerHeight: -1)])
    }
    #expect(throws: SectionedLayout.Problem.mismatchedSection(section: 1)) {
      try SectionedLayout([
        Section(configuration: LayoutConfiguration(width: 375)),
        Section(configuration: LayoutConfiguration(width: 414)),
      ])
    }
    #expect(throws: SectionedLayout.Problem.invalidSection(section: 0, .invalidColumnCount(0))) {
      try SectionedLayout([Section(configuration: LayoutConfiguration(columns: 0))])
    }
  }

  @Test("A horizontal section's header is a band along x")
  func horizontal() throws {
    var layout = try SectionedLayout([
      Section(
        configuration: LayoutConfiguration(
          style: .waterfall, viewportHeight: 500, axis: .horizontal),
        headerHeight: 40)
    ])
    try layout.append(squares(2), toSection: 0)
    #expect(layout.elements[0].frame == Rect(x: 0, y: 0, width: 40, height: 500))
    #expect(layout.elements[1].frame.x == 50)
  }
}
