import FallsCore
import Testing

@Suite struct LayoutErrorTests {
  @Test(
    "Each parameter states the range it accepts",
    arguments: [
      (LayoutParameter.width, "greater than 0"),
      (.columnSpacing, "at least 0"), (.rowSpacing, "at least 0"),
      (.topInset, "at least 0"), (.leftInset, "at least 0"),
      (.bottomInset, "at least 0"), (.rightInset, "at least 0"),
      (.enlargeChance, "from 0 to 1"), (.alignTolerance, "not including) 1"),
      (.maxDistortion, "not including) 1"),
      (.viewportHeight, "greater than 0"), (.itemWidth, "greater than 0"),
      (.itemHeight, "greater than 0"), (.offsetX, "a million viewports"),
      (.offsetY, "a million viewports"),
      (.tolerance, "at least 0"), (.scale, "from 1 to 1000"),
    ])
  func expectations(parameter: LayoutParameter, phrase: String) {
    #expect(parameter.expectation.contains(phrase))
  }

  @Test("Every parameter is covered")
  func allParameters() {
    #expect(LayoutParameter.allCases.count == 17)
  }
}
