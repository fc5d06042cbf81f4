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
/// - Complexity: O(*n* log *n* + *n* · *c*) for *n* elements and *c* columns.
public enum FrameAudit {
  /// A rule the frames break, and the elements that break it.
  public struct Problem: Hashable, Sendable {
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
  }

  /// The problems of `elements`, laid out by `configuration`: none for a layout that keeps its
  /// rules. The ring styles' items overlap by design and are checked for the width only.
  public static func problems(of elements: [LayoutElement], configuration: LayoutConfiguration)
    -> [Problem]
  {
    let isVertical = configuration.axis == .vertical
    // Across the scroll axis, and along it.
    func across(_ frame: Rect) -> (Double, Double) {
      isVertical ? (frame.x, frame.maxX) : (frame.y, frame.maxY)
    }
    func along(_ frame: Rect) -> (Double, Double) {
      isVertical ? (frame.y, frame.maxY) : (frame.x, frame.maxX)
    }
    func slack(_ values: Double...) -> Double { 1e-9 * max(1, values.map(abs).max() ?? 1) }
    var problems: [Problem] = []
    let room = isVertical ? configuration.width : configuration.viewportHeight
    // On a pixel grid an edge is the exact edge rounded to the grid: one that falls between
    // grid lines, as a width not on the grid does, may round half a step past it.
    let grid = configuration.scale.map { 0.5 / $0 } ?? 0
    if !configuration.style.hasTransforms {
      for element in elements {
        let (low, high) = across(element.frame)
        if low < -grid - slack(low, room) || high > room + grid + slack(high, room) {
          problems.append(Problem(rule: .insideWidth, indices: [element.index]))
        }
      }
    }
    guard !configuration.style.hasTransforms else {
      // A ring's items may also lie past the viewport's edges, turned.
      return []
    }
    // Overlaps: a sweep along the scroll axis, each frame against those still open.
    let order = elements.indices.sorted {
      along(elements[$0].frame).0 < along(elements[$1].frame).0
    }
    var open: [Int] = []
    for position in order {
      let frame = elements[position].frame
      let (start, end) = along(frame)
      open.removeAll { along(elements[$0].frame).1 <= start + slack(start) }
      let (left, right) = across(frame)
      for other in open {
        let (otherLeft, otherRight) = across(elements[other].frame)
        let (otherStart, otherEnd) = along(elements[other].frame)
        let tolerance = slack(start, end, otherStart, otherEnd, left, right)
        if left < otherRight - tolerance, otherLeft < right - tolerance,
          start < otherEnd - tolerance, otherStart < end - tolerance
        {
          problems.append(
            Problem(
              rule: .noOverlap,
              indices: [elements[other].index, elements[position].index].sorted()))
        }
      }
      open.append(position)
    }
    guard configuration.style.drawsAtRandom else { return problems }
    problems += enlargedProblems(
      elements, configuration: configuration, across: across, along: along)
    return problems
  }

  /// The irregular style's rules of enlarged items, its columns told from the frames.
  private static func enlargedProblems(
    _ elements: [LayoutElement], configuration: LayoutConfiguration,
    across: (Rect) -> (Double, Double), along: (Rect) -> (Double, Double)
  ) -> [Problem] {
    let working = configuration.working
    let pitch = working.columnWidth + working.columnSpacing
    let columns = working.columns
    // The first physical column an element covers, and how many: each edge rounded to the
    // nearest column line, which finds the column wherever the pixel grid is finer than the
    // columns' pitch (an edge is then less than half a pitch off its line). On a coarser grid
    // columns share grid lines and no frame can say which it is in: the layout's own column
    // and span (in its output beside the frame) are read instead.
    let isGridCoarse = configuration.scale.map { 1 / $0 >= pitch } ?? false
    let isFromRight = configuration.direction == .rightToLeft
    func place(_ element: LayoutElement) -> (first: Int, count: Int) {
      let first: Int
      let count: Int
      if isGridCoarse {
        first = isFromRight ? columns - element.column - element.span : element.column
        count = element.span
      } else {
        let (low, high) = across(element.frame)
        first = Int(((low - working.insets.left) / pitch).rounded())
        let end = Int(((high - working.insets.left + working.columnSpacing) / pitch).rounded())
        count = end - first
      }
      return (min(max(first, 0), columns - 1), max(1, count))
    }
    var problems: [Problem] = []
    // Per column, its elements down the column.
    var byColumn = Array(repeating: [Int](), count: columns)
    let places = elements.map(place)
    for position in elements.indices {
      let (first, count) = places[position]
      for column in first..<min(first + count, columns) { byColumn[column].append(position) }
    }
    for column in byColumn.indices {
      let down = byColumn[column].sorted {
        along(elements[$0].frame).0 < along(elements[$1].frame).0
      }
      for (upper, lower) in zip(down, down.dropFirst())
      where elements[upper].isEnlarged && elements[lower].isEnlarged && upper != lower
        && places[upper].first == column
      {
        problems.append(
          Problem(
            rule: .noEnlargedStacked,
            indices: [elements[upper].index, elements[lower].index].sorted()))
      }
    }
    // Side by side: enlarged items whose column pairs touch, their extents overlapping.
    let enlarged = elements.indices.filter { elements[$0].isEnlarged }
    for (position, one) in enlarged.enumerated() {
      for other in enlarged[(position + 1)...] {
        let (a, b) = (places[one], places[other])
        guard a.first + a.count == b.first || b.first + b.count == a.first else { continue }
        let (start, end) = along(elements[one].frame)
        let (otherStart, otherEnd) = along(elements[other].frame)
        let tolerance = 1e-9 * max(1, abs(start), abs(end), abs(otherStart), abs(otherEnd))
        if start < otherEnd - tolerance, otherStart < end - tolerance {
          problems.append(
            Problem(
              rule: .noEnlargedSideBySide,
              indices: [elements[one].index, elements[other].index].sorted()))
        }
      }
    }
    return problems
  }
}
