/// The planned alignment's look-ahead (``PlannedAlignment``): the next items of the batch placed
/// on copies of the columns at their natural heights, by the same chooser and enlargement rule
/// as the layout's, every levelling assumed to be followed by its enlargement.
extension Planner {
  /// Which of `levellings` (each one replayed and found valid) the best plan makes before the
  /// item at batch offset `next`, or `nil` when it waits; and when it waits, the offset before
  /// which it levels first, if it does within the look-ahead.
  mutating func plan<Chooser: ColumnChooser>(
    _ levellings: [Levelling], before next: Int, view: ColumnView, chooser: Chooser,
    enlargement: Enlargement, previousEnlarged: UInt8
  ) -> (choice: Int?, levelledBefore: Int?) {
    let half = Beam.slotsPerHalf
    let beam = Beam(columns: columns, floor: floor)
    // The root: the columns as they stand, and each levelling made at once; the parents in list
    // 0, their children in list 1, and the other way round at the next step.
    beam.load(
      0, from: view, planner: self, before: next, previousEnlarged: previousEnlarged,
      waiting: state.waiting, cursor: chooser.cursor)
    beam[list: 0, 0] = 0
    var parents = 1
    for (index, levelling) in levellings.enumerated() {
      let slot = parents
      beam.copy(0, to: slot)
      beam.level(
        slot, left: levelling.left, line: levelling.line, distortion: levelling.distortion,
        before: next)
      beam[info: slot].first = index
      beam[list: 0, parents] = slot
      parents += 1
    }
    var (base, parentList) = (half, 0)
    for position in next..<min(seen, next + PlannedAlignment.horizon) {
      let natural = aheadNatural[position % PlannedAlignment.horizon]
      guard isPositive(natural, atMost: LayoutConfiguration.maximumExtent) else { break }
      let span = aheadSpan[position % PlannedAlignment.horizon]
      let childList = 1 - parentList
      var children = 0
      var free = base
      func add(_ slot: Int) {
        beam[list: childList, children] = slot
        children += 1
      }
      for index in 0..<parents {
        let child = free
        free += 1
        beam.copy(beam[list: parentList, index], to: child)
        beam.place(
          child, natural: natural, span: span, at: position, root: next, chooser: chooser,
          enlargement: enlargement, rowSpacing: view.rowSpacing, insetTop: view.insetTop)
        add(child)
        guard beam[info: child].waiting < 0 else { continue }
        for found in 0..<beam.levellings(child, before: position + 1, bound: bound) {
          let levelling = beam[cheapest: found]
          let slot = free
          free += 1
          beam.copy(child, to: slot)
          beam.level(
            slot, left: levelling.left, line: levelling.line, distortion: levelling.distortion,
            before: position + 1)
          if beam[info: slot].levelledBefore < 0 { beam[info: slot].levelledBefore = position + 1 }
          add(slot)
        }
      }
      parents = beam.rank(list: childList, count: children, keep: PlannedAlignment.beamWidth)
      (base, parentList) = (half - base, childList)
    }
    _ = beam.rank(list: parentList, count: parents, keep: parents)
    var best = beam[info: beam[list: parentList, 0]]
    // Among the plans as good but for the margin, whose first steps differ, the seed chooses.
    var firsts: [Int] = []
    for index in 0..<parents where beam[info: beam[list: parentList, index]].isAlmost(as: best) {
      let first = beam[info: beam[list: parentList, index]].first
      if !firsts.contains(first) { firsts.append(first) }
    }
    if firsts.count > 1 {
      let chosen = firsts[Int(state.choices.next() % UInt64(firsts.count))]
      let slot =
        (0..<parents).lazy.map { beam[list: parentList, $0] }
        .first { beam[info: $0].first == chosen } ?? beam[list: parentList, 0]
      best = beam[info: slot]
    }
    return (
      best.first >= 0 ? best.first : nil, best.levelledBefore >= 0 ? best.levelledBefore : nil
    )
  }
}
