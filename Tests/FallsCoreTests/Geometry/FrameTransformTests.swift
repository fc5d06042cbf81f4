import Testing

@testable import FallsCore

@Suite struct FrameTransformTests {
  /// Three columns of 100 at 10, 120 and 230: width 340, spacing and insets 10.
  let configuration = LayoutConfiguration(width: 340, columns: 3)
  let columnXs = [10.0, 120, 230]

  @Test("Upright: the placement as it is")
  func upright() {
    columnXs.withUnsafeBufferPointer { xs in
      let transform = Upright(columnXs: xs, configuration: configuration)
      #expect(transform.axis == .vertical)
      #expect(transform.extents(of: LayoutItem(width: 3, height: 4)) == (3, 4))
      #expect(
        transform.frame(column: 1, span: 2, top: 50, extent: 70, width: 210)
          == Rect(x: 120, y: 50, width: 210, height: 70))
    }
  }

  @Test("Mapped: right to left, on a pixel grid, and transposed, each by hand")
  func mapped() {
    columnXs.withUnsafeBufferPointer { xs in
      var rtl = configuration
      rtl.direction = .rightToLeft
      // Column 0 of one is the rightmost; a span of two from column 0 covers the right two.
      #expect(
        Mapped(columnXs: xs, configuration: rtl)
          .frame(column: 0, span: 1, top: 5, extent: 6, width: 100)
          == Rect(x: 230, y: 5, width: 100, height: 6))
      #expect(
        Mapped(columnXs: xs, configuration: rtl)
          .frame(column: 0, span: 2, top: 5, extent: 6, width: 210).x == 120)
      var grid = configuration
      grid.scale = 2
      // y 10.3 → 10.5, bottom 10.3 + 20.1 = 30.4 → 30.5; the right edge of column 0 is column
      // 1's left edge, 120, less the spacing: 110.
      #expect(
        Mapped(columnXs: xs, configuration: grid)
          .frame(column: 0, span: 1, top: 10.3, extent: 20.1, width: 100)
          == Rect(x: 10, y: 10.5, width: 100, height: 20))
      // With column 1 at 120.6 (on the grid 120.5), column 0's right edge is 120.5 − 10 =
      // 110.5, not its own x + width, 110, snapped: neighbours share a grid line. The last
      // column has no neighbour: 230 + 100.3 = 330.3 → 330.5.
      [10.0, 120.6, 230].withUnsafeBufferPointer { shifted in
        let transform = Mapped(columnXs: shifted, configuration: grid)
        #expect(
          transform.frame(column: 0, span: 1, top: 0, extent: 1, width: 100)
            == Rect(x: 10, y: 0, width: 100.5, height: 1))
        #expect(
          transform.frame(column: 2, span: 1, top: 0, extent: 1, width: 100.3)
            == Rect(x: 230, y: 0, width: 100.5, height: 1))
      }
      var horizontal = configuration
      horizontal.axis = .horizontal
      let transposed = Mapped(columnXs: xs, configuration: horizontal)
      #expect(transposed.axis == .horizontal)
      #expect(transposed.extents(of: LayoutItem(width: 3, height: 4)) == (4, 3))
      #expect(
        transposed.frame(column: 2, span: 1, top: 40, extent: 30, width: 100)
          == Rect(x: 40, y: 230, width: 30, height: 100))
    }
  }
}
