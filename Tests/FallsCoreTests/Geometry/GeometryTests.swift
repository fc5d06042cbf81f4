import FallsCore
import Testing

@Suite struct GeometryTests {
  @Test("maxX and maxY are the far edges")
  func farEdges() {
    let rect = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(rect.maxX == 40)
    #expect(rect.maxY == 60)
  }

  @Test(
    "Rectangles intersect only when they share interior points",
    arguments: [
      (Rect(x: 0, y: 0, width: 10, height: 10), true),  // the same square
      (Rect(x: 5, y: 5, width: 10, height: 10), true),  // overlapping corner
      (Rect(x: 10, y: 0, width: 10, height: 10), false),  // touching on the right edge
      (Rect(x: 0, y: 10, width: 10, height: 10), false),  // touching on the bottom edge
      (Rect(x: 20, y: 20, width: 1, height: 1), false),  // apart
      (Rect(x: 2, y: 2, width: 1, height: 1), true),  // inside
      (Rect(x: 0, y: 5, width: 10, height: 0), false),  // a line across it: no interior
      (Rect(x: 5, y: -5, width: 0, height: 20), false),  // a line down through it
      (Rect(x: 5, y: 5, width: 0, height: 0), false),  // a point inside
    ])
  func intersection(other: Rect, expected: Bool) {
    let square = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(square.intersects(other) == expected)
    #expect(other.intersects(square) == expected)
  }

  @Test("Insets of one value repeat it on every edge")
  func uniformInsets() {
    #expect(EdgeInsets(all: 7) == EdgeInsets(top: 7, left: 7, bottom: 7, right: 7))
    #expect(EdgeInsets.zero == EdgeInsets(top: 0, left: 0, bottom: 0, right: 0))
  }
}
