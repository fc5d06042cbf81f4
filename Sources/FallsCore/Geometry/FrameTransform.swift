/// Turns a placement in the engine's coordinates (columns counted from the left, the content
/// growing down the columns, exact edges) into its frame on screen: the part of the placement
/// that ``LayoutDirection``, ``LayoutConfiguration/scale`` and ``LayoutAxis`` change.
protocol FrameTransform {
  /// The transform of `configuration`'s layout, whose columns start at `columnXs` in the
  /// engine's coordinates (``LayoutConfiguration/working``).
  init(columnXs: UnsafeBufferPointer<Double>, configuration: LayoutConfiguration)

  /// The axis the content grows along on screen.
  var axis: LayoutAxis { get }

  /// An item's image size across the columns and along them.
  func extents(of item: LayoutItem) -> (across: Double, along: Double)

  /// The frame of a placement `width` wide across the `span` columns from `column`, and
  /// `extent` long from `top`.
  func frame(column: Int, span: Int, top: Double, extent: Double, width: Double) -> Rect
}

/// The transform of a layout with the three options at their defaults: left to right,
/// vertical, without a pixel grid. A frame is the placement as it is.
struct Upright: FrameTransform {
  private let columnXs: UnsafeBufferPointer<Double>

  init(columnXs: UnsafeBufferPointer<Double>, configuration: LayoutConfiguration) {
    self.columnXs = columnXs
  }

  var axis: LayoutAxis { .vertical }

  @inline(__always)
  func extents(of item: LayoutItem) -> (across: Double, along: Double) {
    item.extents(along: .vertical)
  }

  @inline(__always)
  func frame(column: Int, span: Int, top: Double, extent: Double, width: Double) -> Rect {
    Rect(x: columnXs[column], y: top, width: width, height: extent)
  }
}

/// The transform of any other layout, as configured: columns counted from the right for
/// ``LayoutDirection/rightToLeft``; every edge the exact edge rounded to the `1/scale` grid; x
/// and y exchanged for a horizontal axis (the engine lays out rows as columns).
struct Mapped: FrameTransform {
  private let columnXs: UnsafeBufferPointer<Double>
  private let isFromRight: Bool
  private let grid: PixelGrid?
  private let columnSpacing: Double
  private let rowSpacing: Double
  let axis: LayoutAxis

  init(columnXs: UnsafeBufferPointer<Double>, configuration: LayoutConfiguration) {
    self.columnXs = columnXs
    isFromRight = configuration.direction == .rightToLeft
    grid = configuration.pixelGrid
    // The spacing as the engine has it: on the grid.
    columnSpacing = configuration.working.columnSpacing
    rowSpacing = configuration.working.rowSpacing
    axis = configuration.axis
  }

  func extents(of item: LayoutItem) -> (across: Double, along: Double) {
    item.extents(along: axis)
  }

  func frame(column: Int, span: Int, top: Double, extent: Double, width: Double) -> Rect {
    frame(column: column, span: span, top: top, extent: extent, width: width, nextTop: nil)
  }

  /// The frame of a placement, as the protocol's, where the next placement in its columns
  /// starts at `nextTop` in the engine's coordinates, when an engine knows it apart from
  /// `top + extent`.
  func frame(
    column: Int, span: Int, top: Double, extent: Double, width: Double, nextTop: Double?
  ) -> Rect {
    let count = columnXs.count
    let physical = isFromRight ? count - column - span : column
    var frame = Rect(x: columnXs[physical], y: top, width: width, height: extent)
    if let grid {
      // An edge followed by another placement is that placement's edge less the (snapped)
      // spacing, so that neighbours snap to the same grid line: from x + width, or from
      // y + height, the two sums can round to either side of a half-way point and overlap by
      // a pixel. Across, the next placement is the next column; along, the next top.
      let next = physical + span
      let maxX = next < count ? grid.snap(columnXs[next]) - columnSpacing : grid.snap(frame.maxX)
      let maxY = nextTop.map { grid.snap($0) - rowSpacing } ?? grid.snap(frame.maxY)
      let (x, y) = (grid.snap(frame.x), grid.snap(frame.y))
      frame = Rect(x: x, y: y, width: maxX - x, height: maxY - y)
    }
    if axis == .horizontal {
      frame = Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
    }
    return frame
  }
}
