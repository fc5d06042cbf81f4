import FallsCheckers
import FallsCore
import Testing

@Suite struct DistortionMeasureTests {
  @Test("Natural extents and distortions worked by hand: a column, a span, an enlargement")
  func byHand() throws {
    // W 340, insets 10, spacing 10, 3 columns: w = 100.
    let configuration = LayoutConfiguration(style: .waterfall, width: 340, columns: 3)
    let measure = try #require(DistortionMeasure(configuration))
    let item = LayoutItem(width: 200, height: 300)
    let plain = LayoutElement(
      index: 0, column: 0, span: 1, frame: Rect(x: 10, y: 10, width: 100, height: 150),
      isEnlarged: false, isAligned: false)
    #expect(measure.naturalExtent(of: plain, item: item) == 150)
    #expect(measure.distortion(of: plain, item: item) == 0)
    // Two columns: 210 wide, 315 natural; 252 tall is 20% short.
    let spanning = LayoutElement(
      index: 1, column: 0, span: 2, frame: Rect(x: 10, y: 10, width: 210, height: 252),
      isEnlarged: false, isAligned: true)
    #expect(measure.naturalExtent(of: spanning, item: item) == 315)
    #expect(isClose(measure.distortion(of: spanning, item: item), 0.2, tolerance: 1e-15))
    // Enlarged: two rows' worth of the one-column natural height, 2 · 150 + 10.
    let enlarged = LayoutElement(
      index: 2, column: 0, span: 2, frame: Rect(x: 10, y: 10, width: 210, height: 310),
      isEnlarged: true, isAligned: false)
    #expect(measure.naturalExtent(of: enlarged, item: item) == 310)
    #expect(measure.distortion(of: enlarged, item: item) == 0)
  }

  @Test("Styles that do not use item sizes have no measure", arguments: LayoutStyle.allCases)
  func styles(style: LayoutStyle) {
    #expect((DistortionMeasure(LayoutConfiguration(style: style)) != nil) == style.usesItemSizes)
  }

  @Test("The figures' largest distortion is the largest of the items'", arguments: 1...5)
  func figures(seed: UInt64) throws {
    let items = SyntheticFeed.items(count: 300, seed: seed, columnWidth: 111.66666666666667)
    let layout = try WaterfallLayout(LayoutConfiguration(seed: seed), items: items)
    let measure = try #require(DistortionMeasure(layout.configuration))
    let quality = try #require(LayoutQuality(of: layout, items: items))
    let distortions = zip(layout.elements, items).map { measure.distortion(of: $0, item: $1) }
    #expect(distortions.max() == quality.maxDistortion)
    #expect(distortions == LayoutQuality.distortions(of: layout, items: items))
    #expect(Double(distortions.count { $0 > 0 }) / 300 == quality.correctedShare)
  }
}
