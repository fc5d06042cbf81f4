import FallsCore
import Testing

@Suite struct LayoutItemTests {
  @Test(
    "Sizes must be finite and positive",
    arguments: [
      (1.0, 1.0, true), (1200, 2249, true), (0.001, 1e6, true),
      (0, 1, false), (1, 0, false), (-1, 1, false), (1, -5, false),
      (.nan, 1, false), (1, .nan, false), (.infinity, 1, false), (1, .infinity, false),
    ])
  func validity(width: Double, height: Double, valid: Bool) {
    #expect(LayoutItem(width: width, height: height).hasValidSize == valid)
  }

  @Test("An element keeps what it is given")
  func elementFields() {
    let frame = Rect(x: 1, y: 2, width: 3, height: 4)
    let element = LayoutElement(
      index: 5, column: 1, span: 2, frame: frame, isEnlarged: true, isAligned: false)
    #expect(element.index == 5 && element.column == 1 && element.span == 2)
    #expect(element.frame == frame && element.isEnlarged && !element.isAligned)
  }

  @Test("An element takes 48 bytes, and its counts change through their setters")
  func compact() {
    #expect(MemoryLayout<LayoutElement>.stride == 48)
    var element = LayoutElement(
      index: 0, column: 0, span: 1, frame: Rect(x: 0, y: 0, width: 1, height: 1),
      isEnlarged: false, isAligned: false)
    element.index = 2_000_000_000
    element.column = 7
    element.span = 3
    #expect(element.index == 2_000_000_000 && element.column == 7 && element.span == 3)
  }
}
