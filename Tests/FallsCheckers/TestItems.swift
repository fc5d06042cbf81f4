import FallsCore

/// `count` square items, for the styles that do not read an item's size (grid, the ring
/// styles) and for sections whose frames a test works out by hand.
public func squares(_ count: Int) -> [LayoutItem] {
  Array(repeating: LayoutItem(width: 1, height: 1), count: count)
}

/// Whether `a` and `b` differ by at most `tolerance`.
public func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}

/// Whether every entry of `transform` is within `tolerance` of the matrix `entries`, row by
/// row, as Core Animation stores them.
public func isClose(_ transform: Transform3D, _ entries: [Double], tolerance: Double = 1e-9)
  -> Bool
{
  transform.entries.count == entries.count
    && zip(transform.entries, entries).allSatisfy { isClose($0, $1, tolerance: tolerance) }
}

extension LayoutConfiguration {
  /// Sets the value that `parameter` names (an item size's other side 1, an offset's other
  /// coordinate 0).
  public mutating func set(_ parameter: LayoutParameter, to value: Double) {
    switch parameter {
    case .width: width = value
    case .columnSpacing: columnSpacing = value
    case .rowSpacing: rowSpacing = value
    case .topInset: insets.top = value
    case .leftInset: insets.left = value
    case .bottomInset: insets.bottom = value
    case .rightInset: insets.right = value
    case .enlargeChance: enlargeChance = value
    case .alignTolerance: alignTolerance = value
    case .maxDistortion: maxDistortion = value
    case .viewportHeight: viewportHeight = value
    case .itemWidth: itemSize = Size(width: value, height: 1)
    case .itemHeight: itemSize = Size(width: 1, height: value)
    case .offsetX: offset = Point(x: value, y: 0)
    case .offsetY: offset = Point(x: 0, y: value)
    case .tolerance: tolerance = value
    case .scale: scale = value
    }
  }
}
