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
    beam.floor = floor
    // The root: the columns as they stand, and each levelling made at once.
    beam.load(
      0, from: view, planner: self, before: next, previousEnlarged: previousEnlarged,
      waiting: state.waiting, cursor: chooser.cursor)
    var parents = [0]
    for (index, levelling) in levellings.enumerated() {
      let slot = parents.count
      beam.copy(0, to: slot)
      beam.level(
        slot, left: levelling.left, line: levelling.line, distortion: levelling.distortion,
        before: next)
      beam.info[slot].first = index
      parents.append(slot)
    }
    var base = half
    for position in next..<min(seen, next + PlannedAlignment.horizon) {
      let natural = aheadNatural[position % PlannedAlignment.horizon]
      guard isPositive(natural, atMost: LayoutConfiguration.maximumExtent) else { break }
      let span = aheadSpan[position % PlannedAlignment.horizon]
      var children: [Int] = []
      var free = base
      for parent in parents {
        let child = free
        free += 1
        beam.copy(parent, to: child)
        beam.place(
          child, natural: natural, span: span, at: position, root: next, chooser: chooser,
          enlargement: enlargement, rowSpacing: view.rowSpacing, insetTop: view.insetTop)
        children.append(child)
        guard beam.info[child].waiting < 0 else { continue }
        for levelling in beam.levellings(child, before: position + 1, bound: bound) {
          let slot = free
          free += 1
          beam.copy(child, to: slot)
          beam.level(
            slot, left: levelling.left, line: levelling.line, distortion: levelling.distortion,
            before: position + 1)
          if beam.info[slot].levelledBefore < 0 { beam.info[slot].levelledBefore = position + 1 }
          children.append(slot)
        }
      }
      parents = beam.best(children, PlannedAlignment.beamWidth)
      base = half - base
    }
    let ranked = beam.best(parents, parents.count)
    var best = beam.info[ranked[0]]
    // Among the plans as good but for the margin, whose first steps differ, the seed chooses.
    var firsts: [Int] = []
    for slot in ranked where beam.info[slot].isAlmost(as: best) {
      if !firsts.contains(beam.info[slot].first) { firsts.append(beam.info[slot].first) }
    }
    if firsts.count > 1 {
      let chosen = firsts[Int(state.choices.next() % UInt64(firsts.count))]
      best = beam.info[ranked.first { beam.info[$0].first == chosen } ?? ranked[0]]
    }
    return (
      best.first >= 0 ? best.first : nil, best.levelledBefore >= 0 ? best.levelledBefore : nil
    )
  }
}
