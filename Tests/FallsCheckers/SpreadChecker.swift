import FallsCore

/// An independent check of the `spread` alignment's contract, written from docs/layout-rules.md's rules
/// rather than from the engine, for vertical, left-to-right layouts without a grid, placed
/// shortest column first.
///
/// Items move after they are placed, so the check works out the history as it replays the items
/// in order: each column's free run is its items since the last fixed edge it has found (the
/// column's start, a page's start, an enlarged or spanning item, a correction of the column or
/// of a neighbour that met it). A correction happens when a run's items share one factor other
/// than 1 and its last item, just placed, ends on a neighbour's bottom (met) or on the same line
/// as a neighbour's free run scaled the other way by the same share (halfway); until then a free
/// run stands at its natural heights. Frames of identical items can read more than one way (a
/// run scaled later can end on a neighbour's line by coincidence): the replay follows each
/// reading to the end, and the layout passes when one history breaks no rule. With those
/// bottoms it checks:
/// - the column of every item (shortest, ties leftmost, as docs/layout-rules.md's tie rule compares);
/// - the enlargement rule and the seeded draws, with the bottoms as they were;
/// - every run stacked exactly (`y` = the bottom above + row spacing); no item off its natural
///   height unless a correction scaled its run, as one, onto a line a neighbour shares;
/// - no height more than the bound from its natural height (enlarged: `2h + rowSpacing`);
/// - a one-item run that the seed's rule aligns within the bound takes the seed's correction;
/// - at the end, a run scaled without a correction only where a flat end was made (the last
///   run of each column, as one, within the bound). A flat end made after pages whose runs it
///   ends on the same line can read as halfway meetings: check the layout before
///   ``WaterfallLayout/flattenEnd()``, and the flat end by its bound and the page it moves.
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

  public func violations(of elements: [LayoutElement]) -> [String] {
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
    func factor(_ position: Int) -> Double { elements[position].frame.height / natural(position) }
    /// How far the factor of the item at `position` may be off by rounding: a billionth, or the
    /// ulps of the positions it is worked from (a run's factor from the line `reach` it ends on,
    /// its tops summed down the run) where items lie far down, as with a row spacing of 10^9
    /// points.
    func slack(_ position: Int, reach: Double? = nil) -> Double {
      1e-9 + 64 * (reach ?? elements[position].frame.maxY).ulp / natural(position)
    }
    /// Equal, or an ulp or two apart: a run stacked again ends on its line exactly unless no
    /// Double height lands there (a rounding tie), when its frame is an ulp off the bottom the
    /// layout stores (docs/layout-rules.md).
    func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 2 * max(a.ulp, b.ulp) }
    /// Whether `frame` ends on `line` as an item made to meet it does: exactly, or an ulp off
    /// where no height from its top lands on the line. (Closer than `same`: a run scaled later,
    /// as a halfway meeting scales it, can end within two ulps of a line by coincidence.)
    func meets(_ frame: Rect, _ line: Double) -> Bool {
      frame.maxY == line
        || (abs(frame.maxY - line) <= line.ulp
          && !LayoutChecker.someHeight(from: frame.y, reaches: line))
    }
    /// The factor of a non-empty `run` as its frames' positions give it: its extent, less the
    /// row spacing between its items, over the sum of their natural heights.
    func runFactor(_ run: [Int]) -> Double {
      let (first, last) = (elements[run[0]].frame, elements[run[run.count - 1]].frame)
      return (last.maxY - first.y - Double(run.count - 1) * rs)
        / run.reduce(0) { $0 + natural($1) }
    }
    /// How far ``runFactor(_:)`` of `run` may be off by the rounding of positions: the ulps of
    /// the line it ends on over the run's natural height.
    func runNoise(_ run: [Int]) -> Double {
      64 * elements[run[run.count - 1]].frame.maxY.ulp / run.reduce(0) { $0 + natural($1) }
    }
    /// Whether the items of `run` share one factor other than 1: a run one correction scaled.
    func isScaled(_ run: [Int]) -> Bool {
      guard let last = run.last else { return false }
      let (scale, reach) = (runFactor(run), elements[last].frame.maxY)
      return abs(scale - 1) > 1e-12 + runNoise(run)
        && run.allSatisfy {
          abs(factor($0) - scale) <= (slack($0, reach: reach) + runNoise(run)) * scale
        }
    }

    // The replay. Per column: the items of its free run (since its last fixed edge, as the
    // replay finds the edges), the line of that edge, and the last element placed in it.
    var state = Replay(
      random: SplitMix64(seed: configuration.seed), runs: Array(repeating: [], count: c),
      lastInColumn: Array(repeating: nil, count: c), edges: Array(repeating: nil, count: c))
    func fail(_ index: Int, _ text: String) { state.problems.append("element \(index): \(text)") }
    /// Column `column`'s bottom at this point of the replay, or nil while it is empty: exact, as
    /// the engine's is (the enlargement rule compares bottoms exactly).
    func bottom(_ column: Int) -> Double? {
      guard let last = state.lastInColumn[column] else { return nil }
      let run = state.runs[column]
      guard !run.isEmpty else { return state.edges[column] ?? elements[last].frame.maxY }
      // A free run stands at its natural heights, stacked from its first item's top.
      var top = elements[run[0]].frame.y
      for member in run.dropLast() { top = top + natural(member) + rs }
      return top + natural(last)
    }
    /// Ends `column`'s run at a fixed edge; a run scaled without a correction (`corrected`) is
    /// an error (but at a flat end, where the caller says so).
    func fix(_ column: Int, corrected: Bool = false, flattening: Bool = false) {
      let run = state.runs[column]
      if !corrected, let moved = run.first(where: { abs(factor($0) - 1) > 1e-12 }) {
        if !flattening || !isScaled(run) {
          fail(moved, "off its natural height, but its run met nothing")
        } else if abs(factor(moved) - 1) > bound + slack(moved) {
          fail(moved, "the flat end moved it by \(abs(factor(moved) - 1)), past \(bound)")
        }
      }
      state.runs[column] = []
    }
    /// Ends `column`'s run, just scaled, at `position`'s bottom as `reading` says.
    func correct(_ column: Int, at position: Int, as reading: Reading) {
      let line = elements[position].frame.maxY
      switch reading {
      case .halfway(let partner):
        // The line is where the placed item's frame ends (docs/layout-rules.md); the partner's frame may end
        // an ulp off it, in a rounding tie.
        fix(partner, corrected: true)
        fix(column, corrected: true)
        (state.edges[partner], state.edges[column]) = (line, line)
      case .met(let neighbour):
        let edge = bottom(neighbour)
        fix(neighbour)
        fix(column, corrected: true)
        state.edges[column] = edge
      case .free:
        break
      }
    }
    /// Alternative readings the replay may follow where the frames read more than one way, in
    /// all.
    var alternatives = 256
    /// While a reading is followed, the problems found before the first reading still followed:
    /// one more, and that reading fails (and is given up at once).
    var readingBase: Int?
    func replay(from start: Int) {
      for position in start..<elements.count {
        if let readingBase, state.problems.count > readingBase { return }
        let element = elements[position]
        if pageStarts.contains(position) {
          for column in 0..<c { fix(column) }
        }
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
        if itemSpan == 1, column + 1 < c, !state.previousEnlarged {
          let (here, right) = (bottom(column), bottom(column + 1))
          let level = (here == nil && right == nil) || (here != nil && here == right)
          let stacked = [column, column + 1].contains {
            state.lastInColumn[$0].map { elements[$0].isEnlarged } ?? false
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
        let drawn = eligible && state.random.nextUnit() < configuration.enlargeChance
        if element.isEnlarged != drawn {
          fail(position, "enlarged \(element.isEnlarged), the rules demand \(drawn)")
        }
        state.previousEnlarged = element.isEnlarged
        if element.isEnlarged || span > 1 {
          let expected = element.isEnlarged ? 2 * natural(position) + rs : element.frame.height
          if !same(element.frame.y, placedTop) {
            fail(position, "y \(element.frame.y) != \(placedTop)")
          }
          if abs(element.frame.height - expected) > 1e-9 * expected {
            fail(position, "enlarged height \(element.frame.height), expected \(expected)")
          }
          for covered in column..<column + span {
            fix(covered)
            state.lastInColumn[covered] = position
            state.edges[covered] = nil
          }
          continue
        }
        // Stacked exactly, from the edge above or the item above.
        let isFirst = state.runs[column].isEmpty
        if let above = state.runs[column].last {
          if !same(element.frame.y, elements[above].frame.maxY + rs) {
            fail(position, "y \(element.frame.y) is not \(rs) below the item above")
          }
        } else if !same(element.frame.y, placedTop) {
          fail(position, "first of its run at y \(element.frame.y), the edge gives \(placedTop)")
        }
        state.runs[column].append(position)
        state.lastInColumn[column] = position
        state.edges[column] = nil
        let distortion = abs(factor(position) - 1)
        // Noise of a billionth is no distortion (as LayoutQuality counts it).
        if distortion > bound + slack(position) {
          fail(position, "distortion \(distortion) above \(bound)")
        }
        // A one-item run that the seed's rule aligns within the bound takes the seed's
        // correction.
        let seedDue =
          isFirst
          ? seedTarget(
            height: natural(position), top: placedTop, column: column, bottom: bottom
          ).flatMap { due in
            abs(due.target - (placedTop + natural(position)))
              <= bound * (1 - 1e-6) * natural(position) ? due : nil
          } : nil
        let line = element.frame.maxY
        let neighbours = [column + 1, column - 1].filter { (0..<c).contains($0) }
        if let seedDue {
          // Made, changing the height or not: the run ends on the neighbour's bottom, which is
          // fixed (only that neighbour's, though the other may end on the same line).
          guard meets(element.frame, seedDue.target) else {
            fail(position, "ends at \(line), but the seed's correction to \(seedDue) is due")
            continue
          }
          correct(column, at: position, as: .met(seedDue.neighbour))
          continue
        }
        // A correction now: the run scaled as one, with a neighbour's scaled free run on the
        // same line (halfway) or ending on a neighbour's bottom (met); or none yet, the run
        // scaled by a correction a later item of it makes.
        let run = state.runs[column]
        guard isScaled(run) else { continue }
        let halfway = neighbours.filter { neighbour in
          // Halfway, the two runs move by the same share in opposite directions (factors 1 + d
          // and 1 − d): this tells a meeting from two runs that end on one line by coincidence.
          let theirs = state.runs[neighbour]
          return isScaled(theirs)
            && theirs.last.map { same(elements[$0].frame.maxY, line) } == true
            && abs(runFactor(run) + runFactor(theirs) - 2)
              <= 1e-9 + runNoise(run) + runNoise(theirs)
        }
        let met = neighbours.filter { bottom($0).map { meets(element.frame, $0) } ?? false }
        let readings = halfway.map(Reading.halfway) + met.map(Reading.met) + [.free]
        guard readings.count > 1 else { continue }
        // Frames of identical items can read as more than one history: a run that ends on a
        // neighbour's line by coincidence and is scaled later, or two meetings that distort
        // alike. Each reading is followed, in this order, until one breaks no rule to the end;
        // a reading is given up at its first problem. Where none holds, the replay goes on with
        // the first, to report all it finds.
        let before = state
        let outermost = readingBase == nil
        if outermost { readingBase = before.problems.count }
        for (index, reading) in readings.enumerated() {
          if index > 0 {
            guard alternatives > 0 else { break }
            alternatives -= 1
            state = before
          }
          correct(column, at: position, as: reading)
          replay(from: position + 1)
          if state.problems.count == before.problems.count {
            if outermost { readingBase = nil }
            return
          }
        }
        guard outermost else { return }
        readingBase = nil
        state = before
        correct(column, at: position, as: readings[0])
      }
      for column in 0..<c { fix(column, flattening: configuration.flatEnd) }
    }
    replay(from: 0)
    return state.problems
  }

  /// How the replay reads a run's correction from its frames.
  private enum Reading {
    /// Met halfway by the neighbour's free run.
    case halfway(Int)
    /// Met the neighbour's bottom.
    case met(Int)
    /// Not corrected yet: the run stays free.
    case free
  }

  /// The state of the replay, copied where it follows more than one reading.
  private struct Replay {
    var random: SplitMix64
    var runs: [[Int]]
    var lastInColumn: [Int?]
    /// Per column, the line its last fixed edge is on, where the rules give it exactly (a
    /// neighbour's bottom met, the placed item's end at a halfway meeting); otherwise the last
    /// frame's bottom is the edge.
    var edges: [Double?]
    var previousEnlarged = false
    var problems: [String] = []
  }

  /// The seed's alignment target of an item of natural height `height` placed at `top` in
  /// `column`, and the neighbour it meets (the right one first, as the seed looks).
  private func seedTarget(
    height: Double, top: Double, column: Int, bottom: (Int) -> Double?
  ) -> (target: Double, neighbour: Int)? {
    let reach = configuration.alignTolerance * height
    for neighbour in [column + 1, column - 1] where (0..<configuration.columns).contains(neighbour)
    {
      if let other = bottom(neighbour), abs(top + height - other) < reach {
        return (other, neighbour)
      }
    }
    return nil
  }
}

extension LayoutChecker {
  /// ``tieKey(_:)`` for other checkers.
  static func tieKeyValue(_ bottom: Double) -> UInt64 { tieKey(bottom) }
}
