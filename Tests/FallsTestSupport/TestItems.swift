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
