import FallsCore
import Testing

@testable import FallsCLI

@Suite struct ItemStateTests {
  private func element(enlarged: Bool, aligned: Bool) -> LayoutElement {
    LayoutElement(
      index: 0, column: 0, span: enlarged ? 2 : 1, frame: Rect(x: 0, y: 0, width: 10, height: 10),
      isEnlarged: enlarged, isAligned: aligned)
  }

  @Test(
    "One state an item, as the table, the pictures and the viewer read it",
    arguments: [
      (false, false, ItemState.plain, "-", ItemMark.plain),
      (true, false, .enlarged, "enlarged", .enlarged),
      (false, true, .aligned, "aligned", .aligned),
      // Under --align planned an enlarged item heading a levelled tail is aligned too.
      (true, true, .enlargedAligned, "enlarged+aligned", .enlarged),
    ])
  func states(enlarged: Bool, aligned: Bool, state: ItemState, word: String, mark: ItemMark) {
    let item = element(enlarged: enlarged, aligned: aligned)
    #expect(ItemState(item) == state)
    #expect("\(state.word)" == word)
    // Without a distortion, or with none worth a band, the picture marks the state.
    #expect(ItemMark(item, distortion: nil) == mark)
    #expect(ItemMark(item, distortion: 0) == mark)
  }

  @Test("A distortion's band outranks aligned and plain, and joins enlarged")
  func bandsOverStates() {
    let distortion = 0.04
    let band = DistortionBand(distortion)
    #expect(band == .moderate)
    #expect(
      ItemMark(element(enlarged: false, aligned: true), distortion: distortion) == .distorted(band))
    #expect(
      ItemMark(element(enlarged: false, aligned: false), distortion: distortion) == .distorted(band)
    )
    for aligned in [false, true] {
      let mark = ItemMark(element(enlarged: true, aligned: aligned), distortion: distortion)
      #expect(mark == .enlargedDistorted(band))
      #expect(mark.className == " enlarged d2")
      // The legend explains it by both of its marks.
      #expect(mark.legendMarks == [.enlarged, .distorted(band)])
    }
    #expect(
      ItemMark(element(enlarged: true, aligned: true), distortion: 0).legendMarks == [.enlarged])
  }
}
