/// Checks a layout's rules from its frames alone, as a reader of the output sees them: every
/// frame inside the content's width (its height, with rows), no two overlapping, and in the
/// irregular style no two enlarged items side by side or one on another in their columns.
///
/// It reads nothing of the engine's state: columns are told from the frames' positions and the
/// configuration's geometry (on a pixel grid coarser than a column, from the elements' stated
/// columns, as frames there cannot tell them apart). Positions compare to a billionth of their
/// size, so that rounding in the last bits is no overlap, and on a pixel grid a frame may reach
/// half a grid step past a width that is not on the grid.
///
/// The rules between two frames are checked in one sweep along the scroll axis, the frames taken
/// by their start along it (ties in their order in the elements). A frame meets only those
/// still open: for overlaps, the open frames whose extent across the axis meets its own, found in
/// a `MaximumTree` of their far edges by the rank of their near edge; for stacked items, the
/// element last seen down each of its columns (`BottomElements`); for enlarged items side by
/// side, the open enlarged items that end at the column line it starts at or start at the one
/// it ends at. A frame that is not finite (never one of a layout) takes part in none of them.
///
/// - Complexity: O(*c* + (*n* + *k*) log(*n* + *c*)) for *n* elements in *c* columns, *k* the
///   pairs reported and those that escape a rule only by the tolerance.
public enum FrameAudit {
  /// A rule the frames break, and the elements that break it.
  ///
  /// Problems order by rule (in the order of `Rule.allCases`), then by their indices.
  public struct Problem: Hashable, Sendable, Comparable {
    public enum Rule: String, CaseIterable, Hashable, Sendable {
      /// Every frame inside the content's width: a frame that reaches outside breaks it.
      case insideWidth
      /// No two frames share interior points.
      case noOverlap
      /// No two enlarged items side by side in neighbouring columns, their extents overlapping.
      case noEnlargedSideBySide
      /// No enlarged item right on another in the same columns.
      case noEnlargedStacked

      /// The rules that hold in layouts of `style`: the ring styles' items overlap by design,
      /// and only the irregular style enlarges.
      public static func rules(of style: LayoutStyle) -> [Rule] {
        (style.hasTransforms ? [] : [.insideWidth, .noOverlap])
          + (style.drawsAtRandom ? [.noEnlargedSideBySide, .noEnlargedStacked] : [])
      }
    }

    public var rule: Rule
    /// The element indices concerned, in order.
    public var indices: [Int]

    /// The problem of the elements with `indices` (in order) under `rule`.
    public init(rule: Rule, indices: [Int]) {
      self.rule = rule
      self.indices = indices
    }

    /// The problem for a person: "items 3 and 7 overlap".
    public var message: String {
      let items = indices.map(String.init).joined(separator: " and ")
      return switch rule {
      case .insideWidth: "item \(items) reaches outside the content width"
      case .noOverlap: "items \(items) overlap"
      case .noEnlargedSideBySide: "enlarged items \(items) are side by side"
      case .noEnlargedStacked: "enlarged items \(items) are stacked"
      }
    }

    /// Whether `a` comes before `b`: by rule, then by indices.
    public static func < (a: Problem, b: Problem) -> Bool {
      guard a.rule == b.rule else {
        return (Rule.allCases.firstIndex(of: a.rule) ?? 0)
          < (Rule.allCases.firstIndex(of: b.rule) ?? 0)
      }
      return a.indices.lexicographicallyPrecedes(b.indices)
    }

    /// The problem of the elements with indices `one` and `other`.
    static func pair(_ rule: Rule, _ one: Int, _ other: Int) -> Problem {
      Problem(rule: rule, indices: [min(one, other), max(one, other)])
    }
  }

  /// The problems of `elements`, laid out by `configuration`, in order (``Problem``'s): none for
  /// a layout that keeps its rules. The ring styles' items overlap by design and are not
  /// checked.
  ///
  /// - Precondition: in a style that enlarges, `configuration` has from 1 to
  ///   ``LayoutConfiguration/maximumColumns`` columns, as every valid one has.
  public static func problems(of elements: [LayoutElement], configuration: LayoutConfiguration)
    -> [Problem]
  {
    // A ring's items may also lie past the viewport's edges, turned.
    guard !configuration.style.hasTransforms else { return [] }
    let isVertical = configuration.axis == .vertical
    var problems: [Problem] = []
    let room = isVertical ? configuration.width : configuration.viewportHeight
    // On a pixel grid an edge is the exact edge rounded to the grid: one that falls between
    // grid lines, as a width not on the grid does, may round half a step past it.
    let grid = configuration.scale.map { 0.5 / $0 } ?? 0
    for element in elements {
      let edges = Edges(element.frame, isVertical: isVertical)
      if edges.low < -grid - slack(edges.low, room)
        || edges.high > room + grid + slack(edges.high, room)
      {
        problems.append(Problem(rule: .insideWidth, indices: [element.index]))
      }
    }
    let order = sorted(
      elements.indices.filter { Edges(elements[$0].frame, isVertical: isVertical).isFinite }
    ) { Edges(elements[$0].frame, isVertical: isVertical).start }
    problems += overlaps(of: elements, in: order, isVertical: isVertical)
    if configuration.style.drawsAtRandom {
      problems += enlargedProblems(of: elements, in: order, configuration: configuration)
    }
    problems.sort()
    return problems
  }

  /// A frame's edges across the scroll axis (`low`, `high`) and along it (`start`, `end`).
  private struct Edges {
    var low: Double
    var high: Double
    var start: Double
    var end: Double

    init(_ frame: Rect, isVertical: Bool) {
      (low, high, start, end) =
        isVertical
        ? (frame.x, frame.maxX, frame.y, frame.maxY) : (frame.y, frame.maxY, frame.x, frame.maxX)
    }

    var isFinite: Bool { low.isFinite && high.isFinite && start.isFinite && end.isFinite }
  }

  /// How far apart two positions near `one` and `other` may be and still be one: a billionth
  /// of the larger, a billionth of a point below 1.
  private static func slack(_ one: Double, _ other: Double) -> Double {
    1e-9 * max(1, max(abs(one), abs(other)))
  }

  /// `positions` in increasing order of `key`, ties in increasing order.
  private static func sorted(_ positions: [Int], by key: (Int) -> Double) -> [Int] {
    var keyed = positions.map { (key: key($0), position: $0) }
    keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.position < $1.position) }
    return keyed.map(\.position)
  }

  /// The overlapping pairs among the frames of `elements` at `order`, their sweep order.
  ///
  /// A frame is open from its start until a later frame starts at or past its end (within the
  /// later start's slack); the pair of a new frame and an open one is checked with a tolerance
  /// of a billionth of the largest of their edges along the axis and the new one's across it.
  private static func overlaps(
    of elements: [LayoutElement], in order: [Int], isVertical: Bool
  ) -> [Problem] {
    func edges(_ position: Int) -> Edges { Edges(elements[position].frame, isVertical: isVertical) }
    // Each frame's slot in the tree of open frames: the rank of its near edge across the axis.
    let byLow = sorted(order) { edges($0).low }
    let lows = byLow.map { edges($0).low }
    var slots = Array(repeating: 0, count: elements.count)
    for (slot, position) in byLow.enumerated() { slots[position] = slot }
    var open = MaximumTree(count: byLow.count)
    var found: [Int] = []
    var problems: [Problem] = []
    lows.withUnsafeBufferPointer { lows in
      for position in order {
        let new = edges(position)
        // Starts only grow along the sweep: a frame that ends before this one starts (within
        // its slack) is closed for good.
        let closing = new.start + slack(new.start, 0)
        let size = max(max(abs(new.start), abs(new.end)), max(abs(new.low), abs(new.high)))
        // The least tolerance of a pair with this frame: the open frames it can overlap start
        // before its far edge less that, and end past its near edge and that.
        let least = 1e-9 * max(1, size)
        let bound = BlockIndex.partitionPoint(of: lows, from: 0) { $0 < new.high - least }
        found.removeAll(keepingCapacity: true)
        open.slots(below: bound, where: { $0 - least > new.low }, into: &found)
        for slot in found {
          let other = edges(byLow[slot])
          guard other.end > closing else {
            open[slot] = nil
            continue
          }
          let tolerance = 1e-9 * max(1, max(size, max(abs(other.start), abs(other.end))))
          if new.low < other.high - tolerance, other.low < new.high - tolerance,
            new.start < other.end - tolerance, other.start < new.end - tolerance
          {
            problems.append(
              .pair(.noOverlap, elements[byLow[slot]].index, elements[position].index))
          }
        }
        open[slots[position]] = new.high
      }
    }
    return problems
  }

  /// The columns an element covers, as the audit tells them: the first physical column and how
  /// many, the count reaching past the last column where the frame does.
  ///
  /// Each edge is rounded to the nearest column line, which finds the column wherever the pixel
  /// grid is finer than the columns' pitch (an edge is then less than half a pitch off its
  /// line). On a coarser grid columns share grid lines and no frame can say which it is in: the
  /// layout's own column and span (in its output beside the frame) are read instead.
  struct ColumnReading {
    let columns: Int
    private let working: LayoutConfiguration
    private let pitch: Double
    private let isGridCoarse: Bool
    private let isFromRight: Bool
    private let isVertical: Bool

    /// The reading of the columns of `configuration`.
    ///
    /// - Precondition: `configuration` has from 1 to ``LayoutConfiguration/maximumColumns``
    ///   columns.
    init(_ configuration: LayoutConfiguration) {
      working = configuration.working
      columns = working.columns
      precondition(
        (1...LayoutConfiguration.maximumColumns).contains(columns),
        "a configuration with \(columns) columns")
      let pitch = working.columnWidth + working.columnSpacing
      self.pitch = pitch
      isGridCoarse = configuration.scale.map { 1 / $0 >= pitch } ?? false
      isFromRight = configuration.direction == .rightToLeft
      isVertical = configuration.axis == .vertical
    }

    /// The first column `element` covers, from 0 to `columns - 1`, and how many, at least 1.
    func place(_ element: LayoutElement) -> (first: Int, count: Int) {
      let first: Int
      let count: Int
      if isGridCoarse {
        first = isFromRight ? columns - element.column - element.span : element.column
        count = element.span
      } else {
        let edges = Edges(element.frame, isVertical: isVertical)
        first = Self.line((edges.low - working.insets.left) / pitch)
        count =
          Self.line((edges.high - working.insets.left + working.columnSpacing) / pitch) - first
      }
      return (min(max(first, 0), columns - 1), max(1, count))
    }

    /// The nearest whole number to `value`, a column line, within ±2^61: no line of a frame in
    /// a layout comes near that, and a difference of two lines stays an `Int`.
    private static func line(_ value: Double) -> Int {
      let bound = 0x1p61
      let rounded = value.rounded()
      guard !rounded.isNaN else { return 0 }
      return Int(min(max(rounded, -bound), bound))
    }
  }

  /// The irregular style's rules of enlarged items, its columns told from the frames, for the
  /// elements at `order`, their sweep order.
  private static func enlargedProblems(
    of elements: [LayoutElement], in order: [Int], configuration: LayoutConfiguration
  ) -> [Problem] {
    let isVertical = configuration.axis == .vertical
    let reading = ColumnReading(configuration)
    let columns = reading.columns
    var problems: [Problem] = []
    // Down each column, the element seen last: an enlarged item right below an enlarged one
    // that starts in that column is stacked on it.
    var bottoms = BottomElements(columns: columns)
    // The open enlarged items by the column line they end at, and by the one they start at.
    // An item leaves its lists when a later one that looks there starts at or past its end.
    var endingAt = Array(repeating: [Int](), count: columns)
    var startingAt = Array(repeating: [Int](), count: columns)
    var found: [Int] = []
    for position in order {
      let element = elements[position]
      let (first, count) = reading.place(element)
      let end = first + count
      let covered = first..<min(end, columns)
      if element.isEnlarged {
        found.removeAll(keepingCapacity: true)
        bottoms.markedBottoms(in: covered, into: &found)
        for upper in found {
          problems.append(.pair(.noEnlargedStacked, elements[upper].index, element.index))
        }
        let new = Edges(element.frame, isVertical: isVertical)
        func sideBySide(_ open: inout [Int]) {
          var index = 0
          while index < open.count {
            let other = Edges(elements[open[index]].frame, isVertical: isVertical)
            guard other.end > new.start else {
              open.swapAt(index, open.count - 1)
              open.removeLast()
              continue
            }
            let tolerance =
              1e-9
              * max(
                1, max(max(abs(new.start), abs(new.end)), max(abs(other.start), abs(other.end))))
            if new.start < other.end - tolerance, other.start < new.end - tolerance {
              problems.append(
                .pair(.noEnlargedSideBySide, elements[open[index]].index, element.index))
            }
            index += 1
          }
        }
        sideBySide(&endingAt[first])
        if end < columns {
          sideBySide(&startingAt[end])
          endingAt[end].append(position)
        }
        // A line an item ends at is past its first column: none ends at line 0.
        if first > 0 { startingAt[first].append(position) }
      }
      bottoms.lay(position, over: covered, markedAt: element.isEnlarged ? first : nil)
    }
    return problems
  }
}
