/// The planned alignment's look-ahead (``PlannedAlignment``): the next items of the batch placed
/// on copies of the columns at their natural heights, by the same chooser and enlargement rule
/// as the layout's, every levelling assumed to be followed by its enlargement.
extension Planner {
  /// Which of `levellings` (each one replayed and found valid) the best plan makes before the
  /// item at batch offset `next`, or `nil` when it waits; and the first and second levellings
  /// it makes within the look-ahead, each by the offset before which it is made and the left
  /// column of its pair (the first is the choice when the plan levels now).
  mutating func plan<Chooser: ColumnChooser>(
    _ levellings: [Levelling], before next: Int, view: ColumnView, chooser: Chooser,
    enlargement: Enlargement, previousEnlarged: UInt8
  ) -> (choice: Int?, first: (before: Int, left: Int)?, then: (before: Int, left: Int)?) {
    var beam = Beam(columns: columns, floor: floor)
    // The root: the columns as they stand, and each levelling made at once.
    let root = beam.take()
    beam.load(
      root, from: view, planner: self, before: next, previousEnlarged: previousEnlarged,
      waiting: state.waiting, cursor: chooser.cursor)
    beam.keep(root)
    for (index, levelling) in levellings.enumerated() {
      let slot = beam.take()
      beam.copy(root, to: slot)
      beam.level(slot, left: levelling.left, line: levelling.line, before: next)
      var info = beam[info: root].levelled(
        (levelling.left, levelling.line, levelling.distortion), before: next)
      info.first = index
      beam[info: slot] = info
      beam.keep(slot)
    }
    let horizon = PlannedAlignment.horizon
    let imagined = next + horizon > seen ? imaginedNatural() : .nan
    for position in next..<next + horizon {
      let (natural, span) =
        position < seen
        ? (aheadNatural[position % horizon], aheadSpan[position % horizon]) : (imagined, 1)
      guard isPositive(natural, atMost: LayoutConfiguration.maximumExtent) else { break }
      beam.step(
        natural: natural, span: span, at: position, root: next, chooser: chooser,
        enlargement: enlargement, rowSpacing: view.rowSpacing, insetTop: view.insetTop,
        bound: bound)
    }
    beam.rankParents()
    var best = beam[info: beam[parent: 0]]
    // Among the plans as good but for the margin, whose first steps differ, the seed chooses.
    var firsts: [Int] = []
    for index in 0..<beam.parentCount {
      let info = beam[info: beam[parent: index]]
      if info.isAlmost(as: best), !firsts.contains(info.first) { firsts.append(info.first) }
    }
    if firsts.count > 1 {
      let chosen = firsts[Int(state.choices.next() % UInt64(firsts.count))]
      for index in 0..<beam.parentCount where beam[info: beam[parent: index]].first == chosen {
        best = beam[info: beam[parent: index]]
        break
      }
    }
    return (
      best.first >= 0 ? best.first : nil,
      best.levelledBefore >= 0 ? (best.levelledBefore, best.levelledLeft) : nil,
      best.thenBefore >= 0 ? (best.thenBefore, best.thenLeft) : nil
    )
  }

  /// The natural extent the look-ahead gives each item not yet received: the mean of the
  /// one-column items among the last ``PlannedAlignment/horizon`` seen, or NaN when there are
  /// none (the look-ahead then stops where the items do). A plan may need more items than a page
  /// holds: with none imagined, every plan made near a page's end is cut short (mj-shop-1 in
  /// pages of 20 lost 3 of its 8 enlargements). Items of the mean extent favour no pair.
  func imaginedNatural() -> Double {
    var (sum, count) = (0.0, 0)
    for position in max(0, seen - PlannedAlignment.horizon)..<seen {
      let slot = position % PlannedAlignment.horizon
      guard aheadSpan[slot] == 1,
        isPositive(aheadNatural[slot], atMost: LayoutConfiguration.maximumExtent)
      else {
        continue
      }
      sum += aheadNatural[slot]
      count += 1
    }
    return count > 0 ? sum / Double(count) : .nan
  }
}
