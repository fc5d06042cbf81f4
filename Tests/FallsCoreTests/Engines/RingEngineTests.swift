import FallsCheckers
import Testing

@testable import FallsCore

@Suite struct RingEngineTests {
  // MARK: circle

  /// A 400 × 600 viewport: centre (200, 300), radius 200 − 25 = 175 for 50-point items.
  let circle = LayoutConfiguration(style: .circle, width: 400, viewportHeight: 600)

  @Test("The ring's points for four items, worked out by hand")
  func circleByHand() throws {
    let layout = try WaterfallLayout(circle, items: squares(4))
    let expected = [(375.0, 300.0), (200, 475), (25, 300), (200, 125)]
    for (element, (x, y)) in zip(layout.elements, expected) {
      #expect(
        isClose(layout.centers[element.index].x, x) && isClose(layout.centers[element.index].y, y))
      #expect(isClose(element.frame.x, x - 25) && isClose(element.frame.y, y - 25))
      #expect(element.frame.width == 50 && element.frame.height == 50)
      #expect(layout.transforms[element.index] == .identity)
    }
    #expect(layout.contentHeight == 600)
  }

  @Test("Circle: 0, 1 and 2 items")
  func circleCounts() throws {
    #expect(try WaterfallLayout(circle, items: []).elements.isEmpty)
    let one = try WaterfallLayout(circle, items: squares(1))
    #expect(one.centers == [Point(x: 375, y: 300)])
    let two = try WaterfallLayout(circle, items: squares(2))
    #expect(isClose(two.centers[1].x, 25) && isClose(two.centers[1].y, 300))
  }

  @Test("A given item size changes the radius: min(W, H)/2 − size/2")
  func circleSize() throws {
    var configuration = circle
    configuration.itemSize = Size(width: 100, height: 100)
    let layout = try WaterfallLayout(configuration, items: squares(1))
    #expect(layout.centers == [Point(x: 350, y: 300)])
  }

  // MARK: cube

  @Test("The drum's transforms for four items, worked out by hand")
  func cubeByHand() throws {
    let configuration = LayoutConfiguration(style: .cube, width: 375, viewportHeight: 667)
    let layout = try WaterfallLayout(configuration, items: squares(4))
    // Angles (i − 1)/4 · 2π: −π/2, 0, π/2, π; push 50/tan(π/4) = 50; m34 = −1/2000.
    let expected: [[Double]] = [
      [1, 0, 0, 0, 0, 0, -1, 0.0005, 0, 1, 0, 0, 0, 50, 0, 1],
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.0005, 0, 0, 50, 0.975],
      [1, 0, 0, 0, 0, 0, 1, -0.0005, 0, -1, 0, 0, 0, -50, 0, 1],
      [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0.0005, 0, 0, -50, 1.025],
    ]
    for (transform, matrix) in zip(layout.transforms, expected) {
      #expect(isClose(transform, matrix), "\(transform.entries) != \(matrix)")
    }
    for element in layout.elements {
      #expect(element.frame == Rect(x: 57.5, y: 283.5, width: 260, height: 100))
    }
    #expect(layout.centers.allSatisfy { $0 == Point(x: 187.5, y: 333.5) })
  }

  @Test("Scrolling one viewport turns the drum by one item")
  func cubeOffset() throws {
    let base = LayoutConfiguration(style: .cube, width: 375, viewportHeight: 667)
    var scrolled = base
    scrolled.offset = Point(x: 0, y: 667)
    let still = try WaterfallLayout(base, items: squares(5))
    let moved = try WaterfallLayout(scrolled, items: squares(5))
    for index in 0..<4 {
      #expect(isClose(moved.transforms[index], still.transforms[index + 1].entries))
    }
    #expect(moved.centers[0] == Point(x: 187.5, y: 333.5 + 667))
  }

  @Test("Cube: one or two items are not pushed out (the seed divides by zero there)")
  func cubeCounts() throws {
    let configuration = LayoutConfiguration(style: .cube)
    #expect(try WaterfallLayout(configuration, items: []).transforms.isEmpty)
    let one = try WaterfallLayout(configuration, items: squares(1))
    // A full turn (−2π) and no push: the perspective alone.
    #expect(isClose(one.transforms[0], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.0005, 0, 0, 0, 1]))
    let two = try WaterfallLayout(configuration, items: squares(2))
    #expect(two.transforms.allSatisfy { $0.entries.allSatisfy { $0.isFinite } && $0[4, 3] == 0 })
    #expect(RingEngine.push(50, count: 1) == 0 && RingEngine.push(50, count: 2) == 0)
    #expect(isClose(RingEngine.push(50, count: 6), 50 * 3.0.squareRoot()))
  }

  // MARK: sphere

  @Test("The sphere's transforms for four items, worked out by hand")
  func sphereByHand() throws {
    let configuration = LayoutConfiguration(style: .sphere, width: 375, viewportHeight: 667)
    let layout = try WaterfallLayout(configuration, items: squares(4))
    let d = -1.0 / 900
    let r = 1 / 2.0.squareRoot()
    // i = 0: about (0.5, −0.5, 0) by −π/2; 1: about x by 0; 2: about y by π/2;
    // 3: about (0.5, 0.5, 0) by π. Push 15/tan(π/4) = 15.
    let expected: [[Double]] = [
      [0.5, -0.5, -r, -r * d, -0.5, 0.5, -r, -r * d, r, r, 0, 0, 15 * r, 15 * r, 0, 1],
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, d, 0, 0, 15, 1 + 15 * d],
      [0, 0, -1, -d, 0, 1, 0, 0, 1, 0, 0, 0, 15, 0, 0, 1],
      [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, -d, 0, 0, -15, 1 - 15 * d],
    ]
    for (transform, matrix) in zip(layout.transforms, expected) {
      #expect(isClose(transform, matrix), "\(transform.entries) != \(matrix)")
    }
    #expect(
      layout.elements.allSatisfy { $0.frame == Rect(x: 172.5, y: 318.5, width: 30, height: 30) })
  }

  @Test("Sphere: 0, 1 and 2 items, worked out by hand")
  func sphereCounts() throws {
    let configuration = LayoutConfiguration(style: .sphere)
    let d = -1.0 / 900
    #expect(try WaterfallLayout(configuration, items: []).transforms.isEmpty)
    // One item: a full turn (−2π) about (0.5, −0.5, 0) and no push: the perspective alone.
    let one = try WaterfallLayout(configuration, items: squares(1))
    #expect(isClose(one.transforms[0], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, d, 0, 0, 0, 1]))
    // Two items: item 0 turns by −π about (0.5, −0.5, 0) (x and y exchanged and negated, z
    // flipped), item 1 by 0 about x; no push.
    let two = try WaterfallLayout(configuration, items: squares(2))
    #expect(isClose(two.transforms[0], [0, -1, 0, 0, -1, 0, 0, 0, 0, 0, -1, -d, 0, 0, 0, 1]))
    #expect(isClose(two.transforms[1], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, d, 0, 0, 0, 1]))
  }

  @Test("The sphere centres on the offset in both directions")
  func sphereOffset() throws {
    let configuration = LayoutConfiguration(
      style: .sphere, width: 375, viewportHeight: 667, offset: Point(x: 375, y: 0))
    let layout = try WaterfallLayout(configuration, items: squares(8))
    #expect(layout.centers[0] == Point(x: 562.5, y: 333.5))
    // Item 2 turns about y by (2 + 1 − 1)/8 · 2π = π/2 with the horizontal offset.
    let turned = Transform3D.rotation(angle: Double.pi / 2, x: 0, y: 1, z: 0)
    #expect(
      isClose(layout.transforms[2][1, 1], turned[1, 1]) && isClose(layout.transforms[2][3, 1], 1))
  }

  // MARK: all ring styles

  @Test(
    "Ring styles: appending places everything again, as a fresh layout would",
    arguments: [LayoutStyle.circle, .cube, .sphere])
  func ringAppend(style: LayoutStyle) throws {
    let configuration = LayoutConfiguration(style: style)
    var layout = try WaterfallLayout(configuration, items: squares(3))
    try layout.append(squares(5))
    let fresh = try WaterfallLayout(configuration, items: squares(8))
    #expect(layout.elements == fresh.elements)
    #expect(layout.transforms == fresh.transforms)
    #expect(layout.centers == fresh.centers)
    #expect(layout.elements.map(\.index) == Array(0..<8))
    #expect(layout.transforms.allSatisfy { $0.entries.allSatisfy { $0.isFinite } })
    layout.reset()
    #expect(layout.elements.isEmpty && layout.transforms.isEmpty && layout.centers.isEmpty)
  }

  @Test(
    "Ring styles refuse invalid items and change nothing", arguments: [LayoutStyle.circle, .sphere])
  func ringInvalid(style: LayoutStyle) throws {
    var layout = try WaterfallLayout(LayoutConfiguration(style: style), items: squares(2))
    #expect(throws: LayoutError.invalidItemSize(index: 3, width: 0, height: 1)) {
      try layout.append([LayoutItem(width: 1, height: 1), LayoutItem(width: 0, height: 1)])
    }
    #expect(layout.elements.count == 2)
  }
}
