import FallsCore

/// An independent check of the `spread` alignment's contract, written from README's rules
/// rather than from the engine, for vertical, left-to-right layouts without a grid, placed
/// shortest column first.
///
/// Items move after they are placed, so the check first works out the history from the final
/// frames: each column's items fall into runs (between fixed edges: the column's start, a page's
/// start, an enlarged or spanning item, a change of scale factor); a run whose factor is not 1
/// was corrected once, when its last item was placed (it met a neighbour's bottom, or met a
/// neighbour's free run halfway) or, as the partner of a halfway meeting, when the neighbour's
/// last item was. Replaying the items in order with the bottoms that history gives, it checks:
/// - the column of every item (shortest, ties leftmost, as README's tie rule compares);
/// - the enlargement rule and the seeded draws, with the bottoms as they were;
/// - every run stacked exactly (`y` = the bottom above + row spacing), every corrected run
///   scaled by one factor, ending exactly on the line it met, with a neighbour there;
/// - no height more than the bound from its natural height (enlarged: `2h + rowSpacing`);
/// - a one-item run that the seed's rule aligns within the bound takes the seed's correction;
/// - with a flat end, only the last runs of the last page end otherwise, within the bound.
public struct SpreadChecker {
  public let configuration: LayoutConfiguration
  public let items: [LayoutItem]
  /// Where each page (append) starts, from 0.
  public let pageStarts: [Int]

  public init(configuration: LayoutConfiguration, items: [LayoutItem], pageStarts: [Int] = [0]) {
    self.configuration = configuration
    self.items = items
    self.pageStarts = pageStarts
  }

  /// One run: a column's consecutive one-column items between fixed edges, with one factor.
  private struct Run {
    var column: Int
    var members: [Int]
    var factor: Double
    var isCorrected: Bool { abs(factor - 1) > 1e-12 }
    var last: Int { members[members.count - 1] }
  }

  public func violations(of elements: [LayoutElement]) -> [String] {
    var problems: [String] = []
    func fail(_ index: Int, _ text: String) { problems.append("element \(index): \(text)") }
    let c = configuration.columns
    let insets = configuration.insets
    let rs = configuration.rowSpacing
    let w =
      (configuration.width - insets.left - insets.right
        - Double(c - 1) * configuration.columnSpacing) / Double(c)
    let bound = configuration.maxDistortion
    guard elements.count == items.count else {
      return ["\(elements.count) elements for \(items.count) items"]
    }
    func natural(_ position: Int) -> Double { w * items[position].height / items[position].width }
    /// Equal, or an ulp or two apart: a run stacked again ends on its line exactly unless no
    /// Double height lands there (a rounding tie), when its frame is an ulp off the bottom the
    /// layout stores (README).
    func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 2 * max(a.ulp, b.ulp) }
    func page(_ position: Int) -> Int { pageStarts.lastIndex { $0 <= position } ?? 0 }

    // The runs, from the final frames.
    var runs: [Run] = []
    var runOf = [Int?](repeating: nil, count: items.count)
    var open = [Int?](repeating: nil, count: c)
    for (position, element) in elements.enumerated() {
      let span = element.isEnlarged ? 2 : min(items[position].span, c)
      if span > 1 || element.isEnlarged {
        for covered in element.column..<min(element.column + span, c) { open[covered] = nil }
        continue
      }
      let column = element.column
      let factor = element.frame.height / natural(position)
      if let current = open[column], page(runs[current].last) == page(position),
        abs(runs[current].factor - factor) <= 1e-9 * factor
      {
        runs[current].members.append(position)
        runOf[position] = current
      } else {
        runs.append(Run(column: column, members: [position], factor: factor))
        open[column] = runs.count - 1
        runOf[position] = runs.count - 1
      }
    }
    // The runs that may end otherwise: the last of each column in the last page, under a flat
    // end.
    let lastPage = pageStarts.count - 1
    let flattened = Set(
      configuration.flatEnd
        ? open.compactMap { $0 }.filter { page(runs[$0].last) == lastPage } : [])

    // The replay.
    var random = SplitMix64(seed: configuration.seed)
    // Per column: the last element placed in it, and whether its next item starts a run.
    var lastInColumn = [Int?](repeating: nil, count: c)
    var startsRun = [Bool](repeating: true, count: c)
    var correctedRuns = Set<Int>()
    var pendingPartners = Set<Int>()
    var previousEnlarged = false
    /// Column `column`'s bottom at this point of the replay, or nil while it is empty.
    func bottom(_ column: Int) -> Double? {
      guard let last = lastInColumn[column] else { return nil }
      guard let run = runOf[last], !correctedRuns.contains(run) else {
        return elements[last].frame.maxY
      }
      // A free run stands at its natural heights, stacked from its first item's top.
      let members = runs[run].members.prefix { $0 <= last }
      var top = elements[members[members.startIndex]].frame.y
      for member in members.dropLast() { top = top + natural(member) + rs }
      return top + natural(last)
    }
    for (position, element) in elements.enumerated() {
      if pageStarts.contains(position) { startsRun = Array(repeating: true, count: c) }
      let itemSpan = min(items[position].span, c)
      let span = element.isEnlarged ? 2 : itemSpan
      let heights = (0..<c).map { bottom($0) ?? insets.top }
      let tops = (0...(c - itemSpan)).map { heights[$0..<$0 + itemSpan].max() ?? insets.top }
      let keys = tops.map(LayoutChecker.tieKeyValue)
      let demanded = keys.firstIndex(of: keys.min() ?? 0) ?? 0
      let column = element.column
      if column != demanded {
        fail(position, "in column \(column), the shortest is \(demanded) (\(heights))")
        continue
      }
      let placedTop =
        (column..<column + itemSpan).map { bottom($0).map { $0 + rs } ?? insets.top }.max()
        ?? insets.top
      // Enlargement, with the bottoms as they were.
      var eligible = false
      if itemSpan == 1, column + 1 < c, !previousEnlarged {
        let (here, right) = (bottom(column), bottom(column + 1))
        let level =
          (here == nil && right == nil)
          || (here.flatMap { a in right.map { same(a, $0) } } ?? false)
        let stacked = [column, column + 1].contains {
          lastInColumn[$0].map { elements[$0].isEnlarged } ?? false
        }
        let reach = placedTop + 2 * natural(position) + rs
        let sideBySide = elements[..<position].contains { other in
          guard other.isEnlarged else { return false }
          let touches =
            (other.column...other.column + 1).contains(column - 1)
            || (other.column...other.column + 1).contains(column + 2)
          return touches && other.frame.y < reach && placedTop < other.frame.maxY
        }
        eligible = level && !stacked && !sideBySide
      }
      let drawn = eligible && random.nextUnit() < configuration.enlargeChance
      if element.isEnlarged != drawn {
        fail(position, "enlarged \(element.isEnlarged), the rules demand \(drawn)")
      }
      previousEnlarged = element.isEnlarged
      if element.isEnlarged || span > 1 {
        let expected = element.isEnlarged ? 2 * natural(position) + rs : element.frame.height
        if !same(element.frame.y, placedTop) {
          fail(position, "y \(element.frame.y) != \(placedTop)")
        }
        if abs(element.frame.height - expected) > 1e-9 * expected {
          fail(position, "enlarged height \(element.frame.height), expected \(expected)")
        }
        for covered in column..<column + span {
          lastInColumn[covered] = position
          startsRun[covered] = true
        }
        continue
      }
      let isFirst = startsRun[column]
      startsRun[column] = false
      lastInColumn[column] = position
      guard let runIndex = runOf[position] else { continue }
      let run = runs[runIndex]
      // Stacked exactly, from the edge above.
      if let above = run.members.last(where: { $0 < position }) {
        if !same(element.frame.y, elements[above].frame.maxY + rs) {
          fail(position, "y \(element.frame.y) is not \(rs) below the item above")
        }
      } else if !same(element.frame.y, placedTop) {
        fail(position, "first of its run at y \(element.frame.y), the edge gives \(placedTop)")
      }
      let distortion = abs(element.frame.height - natural(position)) / natural(position)
      if distortion > bound { fail(position, "distortion \(distortion) above \(bound)") }
      // A one-item run that the seed's rule aligns within the bound takes the seed's correction.
      let seedDue =
        isFirst
        ? seedTarget(position, top: placedTop, column: column, bottom: bottom).flatMap { target in
          abs(target - (placedTop + natural(position)))
            <= bound * (1 - 1e-9) * natural(position) ? target : nil
        } : nil
      // Corrections happen when a run's last item is placed.
      guard position == run.last, run.isCorrected, !flattened.contains(runIndex) else {
        // A correction that changes nothing shows only as the edges it fixes.
        if let seedDue, same(element.frame.maxY, seedDue) {
          startsRun[column] = true
          for neighbour in [column - 1, column + 1] where (0..<c).contains(neighbour) {
            if let other = bottom(neighbour), same(other, seedDue) { startsRun[neighbour] = true }
          }
        } else if let seedDue {
          fail(position, "the seed's correction to \(seedDue) is not made")
        }
        continue
      }
      let line = element.frame.maxY
      if let seedDue, !same(line, seedDue) || run.members.count != 1 {
        fail(position, "corrected to \(line), but the seed's correction to \(seedDue) is due")
      }
      let neighbours = [column + 1, column - 1].filter { (0..<c).contains($0) }
      if let met = neighbours.first(where: { bottom($0).map { same($0, line) } ?? false }) {
        correctedRuns.insert(runIndex)
        startsRun[met] = true
        startsRun[column] = true
      } else if let (partnerColumn, partner) = neighbours.compactMap({
        neighbour -> (Int, Int)? in
        // The neighbour's run as it stands: its last item placed already.
        guard let last = lastInColumn[neighbour], let other = runOf[last],
          runs[other].last == last, !correctedRuns.contains(other), runs[other].isCorrected,
          same(elements[runs[other].last].frame.maxY, line)
        else { return nil }
        return (neighbour, other)
      }).first {
        correctedRuns.formUnion([runIndex, partner])
        pendingPartners.remove(partner)
        startsRun[partnerColumn] = true
        startsRun[column] = true
      } else {
        // The partner of a halfway meeting that a later item starts.
        pendingPartners.insert(runIndex)
      }
    }
    for run in pendingPartners {
      problems.append("run ending at element \(runs[run].last) is scaled but met nothing")
    }
    return problems
  }

  /// The seed's alignment target of the item at `position`, placed at `top` in `column`.
  private func seedTarget(
    _ position: Int, top: Double, column: Int, bottom: (Int) -> Double?
  ) -> Double? {
    let c = configuration.columns
    let w =
      (configuration.width - configuration.insets.left - configuration.insets.right
        - Double(c - 1) * configuration.columnSpacing) / Double(c)
    let height = w * items[position].height / items[position].width
    let reach = configuration.alignTolerance * height
    for neighbour in [column + 1, column - 1] where (0..<c).contains(neighbour) {
      if let other = bottom(neighbour), abs(top + height - other) < reach { return other }
    }
    return nil
  }
}

extension LayoutChecker {
  /// ``tieKey(_:)`` for other checkers.
  static func tieKeyValue(_ bottom: Double) -> UInt64 { tieKey(bottom) }
}
