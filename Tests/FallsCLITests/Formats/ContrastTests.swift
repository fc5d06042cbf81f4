import Testing

@testable import FallsCLI

@Suite struct ContrastTests {
  // WCAG 2's own figures: black on white 21:1; a colour on itself 1:1; #777777 on white
  // 4.48:1, just short of AA, and #767676 4.54:1, the lightest grey that passes.
  @Test(
    "Contrast ratios as WCAG 2 states them",
    arguments: [
      ("#000000", "#ffffff", 21.0), ("#ffffff", "#000000", 21), ("#a50f15", "#a50f15", 1),
      ("#777777", "#ffffff", 4.48), ("#767676", "#ffffff", 4.54),
    ])
  func ratios(first: String, second: String, expected: Double) {
    #expect(abs(Contrast.ratio(first, second) - expected) < 0.01)
  }

  @Test("Luminance runs from black's 0 to white's 1, green weighing most")
  func luminance() {
    #expect(Contrast.luminance("#000000") == 0)
    #expect(abs(Contrast.luminance("#ffffff") - 1) < 1e-12)
    #expect(Contrast.luminance("#00ff00") > Contrast.luminance("#ff0000"))
    #expect(Contrast.luminance("#ff0000") > Contrast.luminance("#0000ff"))
  }

  @Test(
    "The label colour is the one of dark and light that reads better on the fill",
    arguments: ["#000000", "#ffffff", "#a50f15", "#fb6a4a", "#9ecae1", "#808080", "#3182bd"])
  func text(fill: String) {
    let chosen = Contrast.text(on: fill)
    let other = chosen == Contrast.darkText ? Contrast.lightText : Contrast.darkText
    #expect(Contrast.ratio(chosen, fill) >= Contrast.ratio(other, fill))
  }
}
