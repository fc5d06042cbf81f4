// The grid and ring styles of ``WaterfallLayout``: quilts, the ring, the drum and the sphere.

extension WaterfallLayout {
  /// Places item `index` in its tile: block `index / t`, tile `index % t` for *t* tiles.
  mutating func placeTile(index: Int) throws(LayoutError) {
    let pattern = geometry.pattern
    let tile = pattern.tiles[index % pattern.tiles.count]
    let block = index / pattern.tiles.count
    let rowPitch = columnWidth + geometry.rowSpacing
    let blockTop = geometry.insets.top + Double(block * pattern.rows) * rowPitch
    let top = blockTop + Double(tile.row) * rowPitch
    let extent =
      Double(tile.rowSpan) * columnWidth + Double(tile.rowSpan - 1) * geometry.rowSpacing
    guard top + extent <= LayoutConfiguration.maximumExtent else {
      throw .heightOverflow(index: index)
    }
    state.lowestBottom = max(state.lowestBottom, top + extent)
    let frame = finalFrame(
      column: tile.column, span: tile.columnSpan, top: top, extent: extent,
      width: Double(tile.columnSpan) * columnWidth
        + Double(tile.columnSpan - 1) * geometry.columnSpacing)
    record(
      LayoutElement(
        index: index, column: tile.column, span: tile.columnSpan, frame: frame,
        isEnlarged: tile.columnSpan > 1 || tile.rowSpan > 1, isAligned: false))
  }

  /// Places `count` items of a ring style, each by its index and the count.
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
  /// The push is 0 for one or two items, where `tan(π/n)` is 0 or infinite (the seed divides
  /// by zero there).
  mutating func placeRing(count: Int) {
    let width = configuration.width
    let height = configuration.viewportHeight
    let size = configuration.resolvedItemSize
    let offset = configuration.offset
    let n = Double(count)
    let turn = 2 * Double.pi
    elements.removeAll(keepingCapacity: true)
    transforms.removeAll(keepingCapacity: true)
    centers.removeAll(keepingCapacity: true)
    for index in 0..<count {
      let i = Double(index)
      let center: Point
      var transform = Transform3D.identity
      switch configuration.style {
      case .circle:
        let radius = min(width, height) / 2 - size.width / 2
        let angle = turn * i / n
        center = Point(x: width / 2 + cosine(angle) * radius, y: height / 2 + sine(angle) * radius)
      case .cube:
        center = Point(x: width / 2, y: height / 2 + offset.y)
        transform[3, 4] = -1.0 / 2000
        let angle = (i + offset.y / height - 1) / n * turn
        transform = transform.rotated(by: angle, x: 1, y: 0, z: 0)
          .translated(x: 0, y: 0, z: Self.push(size.height / 2, count: count))
      default:
        center = Point(x: width / 2 + offset.x, y: height / 2 + offset.y)
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
      }
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

  /// `half / tan(π/n)`, the distance that spaces *n* faces of width `2·half` around an axis;
  /// 0 for one or two faces.
  static func push(_ half: Double, count: Int) -> Double {
    count <= 2 ? 0 : half / tangent(Double.pi / Double(count))
  }
}
