// Which elements intersect a rectangle: UICollectionViewLayout's
// layoutAttributesForElements(in:), answered from a per-column index instead of a scan.

extension WaterfallLayout {
  /// The elements whose frames intersect `rect` (share interior points with it), in index
  /// order.
  ///
  /// The columnar and grid styles keep, per column, the elements covering it from top to
  /// bottom; within a column they are stacked, so both their tops and their bottoms grow. The
  /// query binary-searches each column the rectangle crosses for the first element reaching
  /// into it and reads on until the elements start past it. Ring styles, whose items overlap
  /// by design, are scanned.
  ///
  /// - Complexity: O(*c′* · log *n* + *k* log *k*) for *c′* columns crossing the rectangle and
  ///   *k* elements returned; O(*n*) for the ring styles.
  public func elements(in rect: Rect) -> [LayoutElement] {
    guard !configuration.style.isRing else {
      return elements.filter { $0.frame.intersects(rect) }
    }
    let horizontal = configuration.axis == .horizontal
    // The query in the engine's terms: along the scroll axis and across it.
    let (alongLow, alongHigh) = horizontal ? (rect.x, rect.maxX) : (rect.y, rect.maxY)
    let (acrossLow, acrossHigh) = horizontal ? (rect.y, rect.maxY) : (rect.x, rect.maxX)
    guard alongLow < alongHigh, acrossLow < acrossHigh else { return [] }
    let columns = geometry.columns
    // Columns whose lane, widened by the gaps on both sides (a spanning item covers them) and a
    // point for pixel rounding, meets the query.
    let margin = geometry.columnSpacing + 1
    var firstPhysical = columns
    var lastPhysical = -1
    for column in 0..<columns {
      let low = columnXs[column] - margin
      let high = columnXs[column] + columnWidth + margin
      if low < acrossHigh && acrossLow < high {
        firstPhysical = min(firstPhysical, column)
        lastPhysical = column
      }
    }
    guard firstPhysical <= lastPhysical else { return [] }
    let logical =
      geometry.direction == .leftToRight
      ? firstPhysical...lastPhysical
      : (columns - 1 - lastPhysical)...(columns - 1 - firstPhysical)

    func along(_ frame: Rect) -> (Double, Double) {
      horizontal ? (frame.x, frame.maxX) : (frame.y, frame.maxY)
    }
    var found: [LayoutElement] = []
    found.reserveCapacity(64)
    for column in logical {
      let lane = members[column]
      // The first element whose far edge passes the query's near edge, searched in the lane's
      // compact array of far edges rather than in the elements.
      var position = lane.firstEnd(after: alongLow)
      while position < lane.count {
        let element = elements[Int(lane.indices[position])]
        if along(element.frame).0 >= alongHigh { break }
        // Report a spanning element once: from the first queried column it covers.
        if max(element.column, logical.lowerBound) == column, element.frame.intersects(rect) {
          found.append(element)
        }
        position += 1
      }
    }
    // Lanes give their elements mostly in index order; sort only when they are not.
    if zip(found, found.dropFirst()).contains(where: { $0.index > $1.index }) {
      found.sort { $0.index < $1.index }
    }
    return found
  }
}
