import Testing

@testable import FallsCore

@Suite struct StyleEngineTests {
  @Test("Each style is laid out by the engine of its family", arguments: LayoutStyle.allCases)
  func engines(style: LayoutStyle) {
    let engine = makeEngine(for: LayoutConfiguration(style: style))
    switch style.family {
    case .columns: #expect(engine is ColumnsEngine)
    case .quilt: #expect(engine is QuiltEngine)
    case .ring: #expect(engine is RingEngine)
    }
    #expect(engine.isIndexed == (style.family != .ring))
  }

  @Test("A batch is taken as it is into an empty array, and appended after elements otherwise")
  func batches() {
    func element(_ index: Int) -> LayoutElement {
      LayoutElement(
        index: index, column: 0, span: 1, frame: Rect(x: 0, y: Double(index), width: 1, height: 1),
        isEnlarged: false, isAligned: false)
    }
    let batch = (0..<3).map(element)
    var elements: [LayoutElement] = []
    append(batch, to: &elements)
    #expect(elements == batch)
    #expect(
      elements.withUnsafeBufferPointer { $0.baseAddress }
        == batch.withUnsafeBufferPointer { $0.baseAddress })
    append([element(3)], to: &elements)
    #expect(elements.map(\.index) == [0, 1, 2, 3])
    // Room reserved for more is used rather than replaced.
    var reserved: [LayoutElement] = []
    reserve(&reserved, 10)
    append(batch, to: &reserved)
    #expect(reserved == batch && reserved.capacity >= 10)
    // Room for exactly the batch is not written: the batch's array is taken.
    var exact: [LayoutElement] = []
    reserve(&exact, 3)
    append(batch, to: &exact)
    #expect(
      exact.withUnsafeBufferPointer { $0.baseAddress }
        == batch.withUnsafeBufferPointer { $0.baseAddress })
  }
}
