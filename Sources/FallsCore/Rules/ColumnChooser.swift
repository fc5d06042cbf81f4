/// Chooses the column of the next item: the part of the placement that ``PlacementOrder`` and
/// ``LayoutConfiguration/tolerance`` change.
///
/// Bottoms are compared by ``tieKey(_:)``: two that differ only by floating-point noise are a
/// tie, which goes to the leftmost column.
protocol ColumnChooser {
  /// Where the next search starts, kept from one batch to the next (and set by the planned
  /// alignment's look-ahead, which places items on copies of the chooser).
  var cursor: Int { get set }

  /// The leftmost column of the next item, which covers `span` columns (at most all), and the
  /// largest stored bottom among the columns it covers.
  mutating func column(span: Int, in columns: ColumnView) -> (column: Int, bottom: Double)

  /// Notes that the item just placed covers `span` columns from `column`, of `count`.
  mutating func placed(column: Int, span: Int, count: Int)
}

/// A bottom as the choice of a column compares it: the bottom with its binary64 encoding rounded
/// to the nearest multiple of 2^16 (a step of 2^16 ulps, about 1.5·10⁻¹¹ of the bottom: 10⁻⁸ pt
/// at 1,000 pt). Two bottoms tie when they round to the same step: far above the noise of adding
/// heights in another order, far below a pixel. Rounding to the nearest step, not down, puts a
/// bottom that is a short binary number (8702.875) in the middle of its step, so that the noise
/// either side of it stays in the step.
///
/// A bottom is never negative (an empty column's is the top inset, stored as +0 when it is −0),
/// and the encodings of non-negative Doubles are ordered as their values, so the rounded bottoms
/// are too.
@inline(__always)
func tieKey(_ bottom: Double) -> Double {
  Double(bitPattern: (bottom.bitPattern &+ 0x8000) & ~0xFFFF)
}

/// The smallest Double whose key is above the key of `bottom` (not negative): the upper edge of
/// its step, half a step above the key.
@inline(__always)
func stepEdge(above bottom: Double) -> Double {
  Double(bitPattern: tieKey(bottom).bitPattern &+ 0x8000)
}

/// The shortest column, leftmost on ties (``PlacementOrder/shortest`` without tolerance): for
/// an item of several columns, the start where the largest bottom among the columns it would
/// cover is smallest, the leftmost on ties, as Masonry.js and CSS grid-lanes place it.
struct Shortest: ColumnChooser {
  /// Unused: the shortest column does not depend on where the previous item went.
  var cursor: Int

  /// The start with the lowest bottom, exactly, then the leftmost start whose bottom rounds to
  /// the same step (``tieKey(_:)``), if another does: a near tie. Whether another does is
  /// counted for every column without a branch, and then tested once: near ties are rare, so
  /// the processor, predicting none, carries on with the exact choice while it counts.
  @inline(__always)
  func column(span: Int, in columns: ColumnView) -> (column: Int, bottom: Double) {
    let lowest: (column: Int, bottom: Double) =
      span == 1 ? Self.lowestColumn(in: columns) : Self.lowestStart(span, in: columns)
    // Every bottom is at least the lowest, so one rounds to its step when it is below the
    // step's upper edge.
    let edge = stepEdge(above: lowest.bottom)
    func bottom(_ start: Int) -> Double {
      span == 1 ? columns.bottoms[start] : columns.maxBottom(from: start, span: span)
    }
    // One column: are other bottoms in the lowest's step? Counted on the encodings, which order
    // the bottoms as their values: the sign of their difference from the edge's, added up
    // without a branch. (Spans, rarer, go straight to the look.)
    @inline(__always) func inStep(_ column: Int) -> UInt64 {
      (columns.bottoms[column].bitPattern &- edge.bitPattern) >> 63
    }
    if span == 1 {
      let count: UInt64
      switch columns.count {
      case 2: count = inStep(0) &+ inStep(1)
      case 3: count = inStep(0) &+ inStep(1) &+ inStep(2)
      case 4: count = (inStep(0) &+ inStep(1)) &+ (inStep(2) &+ inStep(3))
      default: count = (0..<columns.count).reduce(0) { $0 &+ inStep($1) }
      }
      guard count > 1 else { return lowest }
    }
    for start in 0..<lowest.column where bottom(start) < edge { return (start, bottom(start)) }
    return lowest
  }

  /// The start of `span` columns whose largest bottom is smallest, leftmost on exact ties.
  private static func lowestStart(_ span: Int, in columns: ColumnView) -> (Int, Double) {
    var best = (0, columns.maxBottom(from: 0, span: span))
    for start in stride(from: 1, through: columns.count - span, by: 1) {
      let bottom = columns.maxBottom(from: start, span: span)
      if bottom < best.1 { best = (start, bottom) }
    }
    return best
  }

  /// The column whose bottom is smallest, leftmost on exact ties.
  @inline(__always)
  private static func lowestColumn(in columns: ColumnView) -> (Int, Double) {
    let bottoms = columns.bottoms
    // Two, three and four columns (the layouts of phones and most others) as trees of
    // comparisons, which take fewer instructions than the loop and, for four, put two
    // comparisons after one another instead of three; a tie keeps the left one at every step.
    @inline(__always) func lower(_ left: (Int, Double), _ right: (Int, Double)) -> (Int, Double) {
      right.1 < left.1 ? right : left
    }
    switch columns.count {
    case 2: return lower((0, bottoms[0]), (1, bottoms[1]))
    case 3: return lower(lower((0, bottoms[0]), (1, bottoms[1])), (2, bottoms[2]))
    case 4:
      return lower(lower((0, bottoms[0]), (1, bottoms[1])), lower((2, bottoms[2]), (3, bottoms[3])))
    default:
      var best = (0, bottoms[0])
      for column in 1..<columns.count where bottoms[column] < best.1 {
        best = (column, bottoms[column])
      }
      return best
    }
  }

  func placed(column: Int, span: Int, count: Int) {}
}

/// The shortest column with a flow tolerance (CSS grid-lanes): the starts whose largest bottom
/// is within `tolerance` of the smallest count as tied, and the first tied one at or after the
/// column following the previous item wins, else the first tied one.
struct WithinTolerance: ColumnChooser {
  let tolerance: Double
  var cursor: Int

  func column(span: Int, in columns: ColumnView) -> (column: Int, bottom: Double) {
    let starts = 0...columns.count - span
    var lowest = Double.infinity
    for start in starts { lowest = min(lowest, columns.maxBottom(from: start, span: span)) }
    var first: (Int, Double)?
    for start in starts {
      let bottom = columns.maxBottom(from: start, span: span)
      guard tieKey(bottom) <= tieKey(lowest + tolerance) else { continue }
      if start >= cursor { return (start, bottom) }
      if first == nil { first = (start, bottom) }
    }
    return first ?? (0, columns.maxBottom(from: 0, span: span))
  }

  mutating func placed(column: Int, span: Int, count: Int) {
    cursor = (column + span) % count
  }
}

/// Columns in turn, whatever their heights (CHT's item render directions): item after item
/// from the left (``PlacementOrder/leftToRight``) or from the right
/// (``PlacementOrder/rightToLeft``); an item that would not fit before the end starts over.
struct InTurn: ColumnChooser {
  let isFromRight: Bool
  var cursor: Int

  func column(span: Int, in columns: ColumnView) -> (column: Int, bottom: Double) {
    let position = cursor + span <= columns.count ? cursor : 0
    let column = isFromRight ? columns.count - position - span : position
    return (column, columns.maxBottom(from: column, span: span))
  }

  mutating func placed(column: Int, span: Int, count: Int) {
    cursor = isFromRight ? (count - column) % count : (column + span) % count
  }
}
