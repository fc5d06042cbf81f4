/// What placing an item reads and changes of a columnar layout, kept from one batch to the next.
///
/// Each per-column array also holds a column before the first and one after the last (column
/// *k* is at index *k* + 1), whose bottom is NaN and whose flags are clear: it equals no bottom
/// and is near none, so that a rule compares a column with its neighbours without first asking
/// whether they exist.
struct ColumnState: Hashable, Sendable {
  /// The flag of a column that holds no item yet.
  static let empty: UInt8 = 1
  /// The flag of a column whose last item is enlarged.
  static let endsEnlarged: UInt8 = 2

  /// Each column's stored bottom: never recomputed, so that a column aligned to another holds
  /// the very same value. An empty column's is the top inset.
  var bottoms: [Double]
  /// Each column's bottom as a neighbour may align to it: its bottom, or NaN while it is empty,
  /// which is near nothing.
  var reachable: [Double]
  /// Each column's ``empty`` and ``endsEnlarged`` flags, as bits of one byte, so that a rule
  /// tests two columns' flags at once.
  var flags: [UInt8]
  /// ``endsEnlarged`` when the last item placed was enlarged, else 0.
  var previousEnlarged: UInt8 = 0
  var lowest = -Double.infinity
  /// The random stream of the enlargement draws.
  var generator: SplitMix64
  /// Where the next item's search starts, for the orders that take turns or break ties in
  /// reading order.
  var cursor = 0
  /// What the planned alignment carries from one batch to the next.
  var plan: PlanState

  init(_ working: LayoutConfiguration) {
    let count = working.columns
    // + 0 makes a top inset of −0 the +0 that ``tieKey(_:)`` orders below every bottom.
    bottoms = [.nan] + Array(repeating: working.insets.top + 0, count: count) + [.nan]
    reachable = Array(repeating: .nan, count: count + 2)
    flags = [0] + Array(repeating: Self.empty, count: count) + [0]
    generator = SplitMix64(seed: working.seed)
    plan = PlanState(seed: working.seed)
  }

  /// Calls `body` with the columns as a view that writes the state in place, each column at its
  /// own index (the sentinels at −1 and the count), with the lengths that say where an item
  /// starts.
  ///
  /// The arrays are moved out for the call and back after it, so that the view's writes are
  /// the state's and `body` may read other values while it runs.
  mutating func withView<Result>(
    insetTop: Double, rowSpacing: Double, _ body: (ColumnView) -> Result
  ) -> Result {
    var (bottoms, reachable, flags) = ([Double](), [Double](), [UInt8]())
    swap(&bottoms, &self.bottoms)
    swap(&reachable, &self.reachable)
    swap(&flags, &self.flags)
    defer {
      swap(&bottoms, &self.bottoms)
      swap(&reachable, &self.reachable)
      swap(&flags, &self.flags)
    }
    let count = bottoms.count - 2
    return bottoms.withUnsafeMutableBufferPointer { bottoms in
      reachable.withUnsafeMutableBufferPointer { reachable in
        flags.withUnsafeMutableBufferPointer { flags in
          body(
            ColumnView(
              bottoms: ColumnValues(bottoms), reachable: ColumnValues(reachable),
              flags: ColumnValues(flags), count: count, insetTop: insetTop,
              rowSpacing: rowSpacing))
        }
      }
    }
  }

  /// The stored bottom of each column, or `nil` for an empty one.
  var columnBottoms: [Double?] {
    (1..<bottoms.count - 1).map { flags[$0] & Self.empty != 0 ? nil : bottoms[$0] }
  }
}

/// The columns during one batch: the state's arrays as memory the placement loop writes in
/// place, and the two lengths that say where an item starts.
struct ColumnView {
  let bottoms: ColumnValues<Double>
  let reachable: ColumnValues<Double>
  let flags: ColumnValues<UInt8>
  let count: Int
  /// Where a column's first item starts.
  let insetTop: Double
  /// The gap between an item and the one above it in its column.
  let rowSpacing: Double

  /// Where an item starts in `column`, whose stored bottom is `bottom`: the top inset in an
  /// empty column, else `rowSpacing` below its bottom.
  @inline(__always)
  func top(of column: Int, bottom: Double) -> Double {
    flags[column] & ColumnState.empty != 0 ? insetTop : bottom + rowSpacing
  }

  /// Where an item covering `span` columns from `start` starts: below the lowest of their
  /// tops.
  func top(of start: Int, span: Int) -> Double {
    var top = -Double.infinity
    for column in start..<start + span {
      top = max(top, self.top(of: column, bottom: bottoms[column]))
    }
    return top
  }

  /// The largest stored bottom (the lowest on screen) among the `span` columns from `start`.
  func maxBottom(from start: Int, span: Int) -> Double {
    var bottom = -Double.infinity
    for column in start..<start + span { bottom = max(bottom, bottoms[column]) }
    return bottom
  }
}

/// One value per column in memory the placement loop borrows for a batch, with the sentinels
/// at −1 and `count`; every access is checked against them in debug builds.
struct ColumnValues<Value> {
  /// Column 0's value; the sentinels are just before it and just after the last.
  private let base: UnsafeMutablePointer<Value>
  private let count: Int

  /// The values of `buffer`, which holds the sentinels at its two ends.
  init(_ buffer: UnsafeMutableBufferPointer<Value>) {
    guard let first = buffer.baseAddress, buffer.count >= 2 else {
      preconditionFailure("a column state holds two sentinels")
    }
    base = first + 1
    count = buffer.count - 2
  }

  @inline(__always)
  subscript(column: Int) -> Value {
    get {
      assert(column >= -1 && column <= count, "column \(column) outside the state")
      return base[column]
    }
    nonmutating set {
      assert(column >= -1 && column <= count, "column \(column) outside the state")
      base[column] = newValue
    }
  }
}
