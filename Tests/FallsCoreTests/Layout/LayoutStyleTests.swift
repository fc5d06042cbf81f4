import FallsCore
import Testing

@Suite struct LayoutStyleTests {
  @Test("Each statement about the styles agrees with the options each style takes")
  func statements() {
    #expect(LayoutStyle.allCases.filter(\.usesItemSizes) == [.irregular, .waterfall])
    #expect(LayoutStyle.allCases.filter(\.drawsAtRandom) == [.irregular])
    #expect(LayoutStyle.allCases.filter(\.turnsWithOffset) == [.cube, .sphere])
    #expect(LayoutStyle.allCases.filter(\.hasTransforms) == [.circle, .cube, .sphere])
    #expect(LayoutStyle.taking(.offsetX) == [.sphere])
    #expect(LayoutStyle.taking(.pattern) == [.grid])
    #expect(LayoutStyle.taking(.itemSize) == [.circle, .cube, .sphere])
    for option in LayoutOption.allCases {
      #expect(
        LayoutStyle.taking(option) == LayoutStyle.allCases.filter { $0.options.contains(option) })
    }
  }

  @Test("A ring style has a default item size, and no other style has one")
  func defaultItemSizes() {
    for style in LayoutStyle.allCases {
      #expect((style.defaultItemSize != nil) == (style.family == .ring), "\(style)")
    }
  }
}
