import FallsCore

/// An independent check of the `planned` alignment's contract, written from docs/layout-rules.md
/// rather than from the engine, for vertical, left-to-right layouts without a grid, placed
/// shortest column first.
///
/// The planned alignment moves items after they are placed, but never so that an earlier choice
/// changes: the final frames themselves obey the column rules. So the check replays the final
/// frames in order, each column's bottom the bottom of the last frame in it, and asks of each:
/// - its column is the shortest (ties leftmost, as docs/layout-rules.md's tie rule compares), and
///   it sits exactly one row spacing below the frames it stands on (an ulp or two: a levelled
///   line is where no height lands exactly, at a rounding tie);
/// - an enlarged item stands on two level columns (both empty, or ending on one line), neither
///   ending with an enlarged item, not right after one, with no enlarged item beside it in the
///   column before or after (never side by side or stacked);
/// - no height is further than `bound` from its natural height (enlarged: `2h + rowSpacing`),
///   to the rounding of its frame's positions, and every item keeps its width and its column's
///   x;
/// - an item whose height moved is one of the last `tailLength` items of its column below a
///   line the column then shares with a neighbour, or an enlarged item that heads them; after a
///   flat end (`flatEnd`), whose runs end where the bound lets them, that is not asked.
public struct PlannedChecker {
  public let configuration: LayoutConfiguration
  public let items: [LayoutItem]
  /// The most an item's height may differ from its natural height, as a share of it.
  public let bound: Double
  /// Whether the layout's end was flattened (``WaterfallLayout/flattenEnd()``).
  public let flatEnd: Bool

  public init(
    configuration: LayoutConfiguration, items: [LayoutItem], bound: Double = 0.03,
    flatEnd: Bool = false
  ) {
    self.configuration = configuration
    self.items = items
    self.bound = bound
    self.flatEnd = flatEnd
  }

  public func violations(of elements: [LayoutElement]) -> [String] {
    var problems: [String] = []
    func fail(_ index: Int, _ text: String) { problems.append("element \(index): \(text)") }
    let c = configuration.columns
    let insets = configuration.insets
    let rs = configuration.rowSpacing
    let cs = configuration.columnSpacing
    let w = (configuration.width - insets.left - insets.right - Double(c - 1) * cs) / Double(c)
    guard elements.count == items.count else {
      return ["\(elements.count) elements for \(items.count) items"]
    }
    var bottoms: [Double?] = Array(repeating: nil, count: c)
    var last: [LayoutElement?] = Array(repeating: nil, count: c)
    var previous: LayoutElement?
    // Per column, the indices of its elements, for the moved items' rule.
    var stacks: [[Int]] = Array(repeating: [], count: c)
    for (position, element) in elements.enumerated() {
      let frame = element.frame
      guard element.index == position,
        [frame.x, frame.y, frame.width, frame.height].allSatisfy(\.isFinite),
        frame.height > 0
      else {
        fail(position, "index \(element.index) or frame \(frame) is wrong")
        continue
      }
      let item = items[position]
      let span = min(item.span, c)
      let heights = (0..<c).map { bottoms[$0] ?? insets.top }
      let starts = 0...(c - span)
      let tops = starts.map { heights[$0..<$0 + span].max() ?? insets.top }
      let lowestKey = tops.map(LayoutChecker.tieKey).min() ?? 0
      let demanded = tops.firstIndex { LayoutChecker.tieKey($0) == lowestKey } ?? 0
      let column = element.column
      if column != demanded {
        fail(position, "in column \(column), the shortest is \(demanded) (\(heights))")
      }
      let covered = element.isEnlarged ? 2 : span
      guard column >= 0, column + covered <= c, element.span == covered else {
        fail(position, "column \(column) span \(element.span) outside \(c) columns")
        continue
      }
      let expectedY =
        (column..<column + covered).map { bottoms[$0].map { $0 + rs } ?? insets.top }.max()
        ?? insets.top
      if !Self.near(frame.y, expectedY) { fail(position, "y \(frame.y), expected \(expectedY)") }
      let x = insets.left + Double(column) * (w + cs)
      let width = Double(covered) * w + Double(covered - 1) * cs
      if abs(frame.x - x) > 1e-9 * max(1, abs(x)) || abs(frame.width - width) > 1e-9 * width {
        fail(position, "x \(frame.x) width \(frame.width), expected \(x) and \(width)")
      }
      let oneColumn = Double(span) * w + Double(span - 1) * cs
      let h = oneColumn * item.height / item.width
      let natural = element.isEnlarged ? 2 * h + rs : h
      let distortion = abs(frame.height - natural) / natural
      // A height is exact to a billionth, or to the ulps of the positions it is worked from
      // where items lie far down (a row spacing of 10^9 points): its top and the line it ends
      // on, its run's tops summed (as ``SpreadChecker`` allows).
      if distortion > bound * (1 + 1e-6) + 1e-9 + 64 * frame.maxY.ulp / natural {
        fail(position, "height \(frame.height) is \(distortion) from its natural \(natural)")
      }
      if element.isEnlarged {
        if previous?.isEnlarged == true { fail(position, "enlarged right after an enlarged item") }
        let pair = (bottoms[column], bottoms[column + 1])
        let level: Bool =
          switch pair {
          case (nil, nil): true
          case (let left?, let right?): Self.near(left, right)
          default: false
          }
        if !level { fail(position, "enlarged on columns that are not level: \(pair)") }
        if last[column]?.isEnlarged == true || last[column + 1]?.isEnlarged == true {
          fail(position, "enlarged on an enlarged item")
        }
        for side in [column - 1, column + 2] where side >= 0 && side < c {
          for index in stacks[side] where elements[index].isEnlarged {
            let other = elements[index].frame
            if other.y < frame.maxY && other.maxY > frame.y {
              fail(position, "enlarged beside the enlarged element \(index)")
            }
          }
        }
      }
      for covering in column..<column + covered {
        bottoms[covering] = frame.maxY
        last[covering] = element
        stacks[covering].append(position)
      }
      previous = element
    }
    // A moved one-column item is among the last items of its column below a line it shares.
    for (position, element) in elements.enumerated()
    where !flatEnd && !element.isEnlarged && element.span == 1 {
      let item = items[position]
      let natural = w * item.height / item.width
      guard abs(element.frame.height - natural) > 1e-9 * natural else { continue }
      let stack = stacks[element.column]
      guard let at = stack.firstIndex(of: position) else { continue }
      let below = stack[at...].prefix(PlannedAlignment.tailLength + 1)
      let lines = below.map { elements[$0].frame.maxY }
      let shared = lines.contains { line in
        [element.column - 1, element.column + 1].contains { side in
          side >= 0 && side < c
            && stacks[side].contains { Self.near(elements[$0].frame.maxY, line) }
        }
      }
      if !shared { fail(position, "height moved, but no line below it meets a neighbour's") }
    }
    return problems
  }

  /// Equal, or an ulp or two apart.
  static func near(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= 4 * max(abs(a), abs(b)).ulp
  }
}
