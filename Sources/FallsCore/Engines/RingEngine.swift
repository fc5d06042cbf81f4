/// The engine of the ring styles, `circle` (环形), `cube` (立方) and `sphere` (球形): items of one
/// size around a centre, each placed by its index and the item count, so that an append places
/// every item again.
///
/// - `circle`: centre `(W/2, H/2) + r·(cos θ, sin θ)` with `θ = 2πi/n` and
///   `r = min(W, H)/2 − size/2`; identity transform.
/// - `cube`: centre `(W/2, H/2 + offset.y)`; transform: perspective `m34 = −1/2000`, then a
///   turn about x by `(i + offset.y/H − 1)/n · 2π`, then a push along z by
///   `(height/2) / tan(π/n)` (50 for the default 100-point height).
/// - `sphere`: centre `(W/2 + offset.x, H/2 + offset.y)`; perspective `m34 = −1/900`, a turn by
///   `a = (i + offset.y/H − 1)/n · 2π` about x (i mod 4 = 1), by
///   `(i + offset.x/W − 1)/n · 2π` about y (i mod 4 = 2), by a about (0.5, 0.5, 0) (3) or
///   (0.5, −0.5, 0) (0), then a push along z by `(width/2) / tan(π/n)` (15 for 30 points).
///
/// The push is 0 for one or two items, where `tan(π/n)` is 0 or infinite (the seed divides by
/// zero there). The content is the viewport for the circle, one viewport per item (at least
/// one) for the cube and the sphere, which turn as they scroll.
struct RingEngine: SequentialEngine {
  /// Which ring.
  enum Shape: Sendable {
    case circle, cube, sphere
  }

  let configuration: LayoutConfiguration
  let shape: Shape
  private(set) var transforms: [Transform3D] = []
  private(set) var centers: [Point] = []

  init(_ configuration: LayoutConfiguration, shape: Shape) {
    self.configuration = configuration
    self.shape = shape
  }

  var columnBottoms: [Double?] { [] }
  var isIndexed: Bool { false }

  func contentExtent(elements: [LayoutElement]) -> Double {
    switch shape {
    case .circle: configuration.viewportHeight
    case .cube, .sphere: configuration.viewportHeight * Double(max(elements.count, 1))
    }
  }

  mutating func append<Items: Sequence<LayoutItem>>(
    items: Items, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    var count = elements.count
    for item in items {
      // Sizes are not used, but must be sizes.
      guard item.hasValidSize else {
        throw .invalidItemSize(index: count, width: item.width, height: item.height)
      }
      count += 1
    }
    elements.removeAll(keepingCapacity: true)
    transforms.removeAll(keepingCapacity: true)
    centers.removeAll(keepingCapacity: true)
    let size = configuration.resolvedItemSize
    for index in 0..<count {
      let (center, transform) = place(index, count: count, size: size)
      let frame = Rect(
        x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width,
        height: size.height)
      elements.append(
        LayoutElement(
          index: index, column: 0, span: 1, frame: frame, isEnlarged: false, isAligned: false))
      transforms.append(transform)
      centers.append(center)
    }
  }

  /// The centre and transform of item `index` of `count`, items being `size`.
  private func place(_ index: Int, count: Int, size: Size) -> (Point, Transform3D) {
    let (width, height) = (configuration.width, configuration.viewportHeight)
    let offset = configuration.offset
    let (i, n) = (Double(index), Double(count))
    let turn = 2 * Double.pi
    var transform = Transform3D.identity
    switch shape {
    case .circle:
      let radius = min(width, height) / 2 - size.width / 2
      let angle = turn * i / n
      let center = Point(
        x: width / 2 + cosine(angle) * radius, y: height / 2 + sine(angle) * radius)
      return (center, transform)
    case .cube:
      transform[3, 4] = -1.0 / 2000
      let angle = (i + offset.y / height - 1) / n * turn
      transform = transform.rotated(by: angle, x: 1, y: 0, z: 0)
        .translated(x: 0, y: 0, z: Self.push(size.height / 2, count: count))
      return (Point(x: width / 2, y: height / 2 + offset.y), transform)
    case .sphere:
      transform[3, 4] = -1.0 / 900
      let vertical = (i + offset.y / height - 1) / n * turn
      let horizontal = (i + offset.x / width - 1) / n * turn
      switch index % 4 {
      case 1: transform = transform.rotated(by: vertical, x: 1, y: 0, z: 0)
      case 2: transform = transform.rotated(by: horizontal, x: 0, y: 1, z: 0)
      case 3: transform = transform.rotated(by: vertical, x: 0.5, y: 0.5, z: 0)
      default: transform = transform.rotated(by: vertical, x: 0.5, y: -0.5, z: 0)
      }
      transform = transform.translated(x: 0, y: 0, z: Self.push(size.width / 2, count: count))
      return (Point(x: width / 2 + offset.x, y: height / 2 + offset.y), transform)
    }
  }

  /// `half / tan(π/n)`, the distance that spaces *n* faces of width `2·half` around an axis;
  /// 0 for one or two faces.
  static func push(_ half: Double, count: Int) -> Double {
    count <= 2 ? 0 : half / tangent(Double.pi / Double(count))
  }
}
