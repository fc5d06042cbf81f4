/// A step of the look-ahead (``Beam``): the next item placed in every state kept, and the best
/// of the placed states and their cheapest levellings kept; the levellings of a state, found and
/// made.
extension Beam {
  /// A free slot, taken.
  mutating func take() -> Int {
    precondition(freeCount > 0, "the beam has a slot for every state it keeps")
    freeCount -= 1
    return free[freeCount]
  }

  /// Keeps the state in `slot`, after those kept.
  mutating func keep(_ slot: Int) {
    parents[parentCount] = slot
    parentCount += 1
  }

  /// Places the item at batch offset `position`, of natural extent `natural` across `span`
  /// columns, in every state kept; ranks each placed state and each of its cheapest levellings
  /// before the next item by what they would have made, and keeps the best, at most
  /// ``PlannedAlignment/beamWidth``: among equals, the parent first, its levellings cheapest
  /// first, in the order of the parents.
  mutating func step<Chooser: ColumnChooser>(
    natural: Double, span: Int, at position: Int, root: Int, chooser: Chooser,
    enlargement: Enlargement, rowSpacing: Double, insetTop: Double, bound: Double
  ) {
    var (count, keeping) = (0, 0)
    // Into the ranking, best first, a later candidate after an equal one: the best
    // ``PlannedAlignment/beamWidth`` of a stable sort.
    func rank(_ candidate: Candidate) {
      candidates[count] = candidate
      count += 1
      let width = PlannedAlignment.beamWidth
      var at = keeping
      while at > 0, candidate.rank.isBetter(than: candidates[ranked[at - 1]].rank) {
        if at < width { ranked[at] = ranked[at - 1] }
        at -= 1
      }
      guard at < width else { return }
      ranked[at] = count - 1
      keeping = min(keeping + 1, width)
    }
    for index in 0..<parentCount {
      let slot = parents[index]
      let info = place(
        slot, natural: natural, span: span, at: position, root: root, chooser: chooser,
        enlargement: enlargement, rowSpacing: rowSpacing, insetTop: insetTop)
      rank(Candidate(slot: slot, levelling: (-1, 0, 0), rank: info.rank))
      guard info.waiting < 0 else { continue }
      for found in 0..<levellings(slot, before: position + 1, bound: bound) {
        let levelling = cheapest[found]
        rank(
          Candidate(
            slot: slot, levelling: levelling,
            rank: info.levelled(levelling, before: position + 1).rank))
      }
    }
    // Each levelling kept is made in a slot of its own, from its placed state, before the
    // placed states not kept give their slots back.
    for index in 0..<keeping {
      var candidate = candidates[ranked[index]]
      if candidate.levelling.left >= 0 {
        let slot = take()
        copy(candidate.slot, to: slot)
        level(
          slot, left: candidate.levelling.left, line: candidate.levelling.line,
          before: position + 1)
        self[info: slot] = self[info: candidate.slot].levelled(
          candidate.levelling, before: position + 1)
        candidate.slot = slot
        candidates[ranked[index]] = candidate
      }
      kept[candidate.slot] = true
    }
    for index in 0..<parentCount where !kept[parents[index]] {
      free[freeCount] = parents[index]
      freeCount += 1
    }
    parentCount = 0
    for index in 0..<keeping {
      let slot = candidates[ranked[index]].slot
      kept[slot] = false
      keep(slot)
    }
  }

  /// Orders the states kept best first; among equals, as they were.
  func rankParents() {
    for index in 1..<max(parentCount, 1) {
      let slot = parents[index]
      var at = index
      while at > 0, self[info: slot].isBetter(than: self[info: parents[at - 1]]) {
        parents[at] = parents[at - 1]
        at -= 1
      }
      parents[at] = slot
    }
  }

  /// Finds the cheapest levellings of state `slot` before the item at `next`, at most the
  /// planned alignment's branches, cheapest first (the left pair first among equals), and
  /// returns how many; ``subscript(cheapest:)`` reads them.
  func levellings(_ slot: Int, before next: Int, bound: Double) -> Int {
    var found = 0
    let closed = ColumnState.empty | ColumnState.endsEnlarged
    for left in 0..<max(0, columns - 1) {
      let right = left + 1
      guard (self[flags: slot, left] | self[flags: slot, right]) & closed == 0 else { continue }
      let (a, b) = (self[bottom: slot, left], self[bottom: slot, right])
      guard
        Planner.mayMeet(
          gap: a - b, wholeTails: self[wholeTail: slot, left] + self[wholeTail: slot, right],
          bound: bound)
      else { continue }
      let sums = (
        tailSum(slot, left, before: next, pair: left),
        tailSum(slot, right, before: next, pair: left)
      )
      guard let (line, distortion) = Planner.meeting(a, b, gap: a - b, sums: sums, bound: bound)
      else { continue }
      // Into the list, kept sorted: a later pair goes after an equal one, and what falls off
      // the end is dropped.
      var at = found
      while at > 0, cheapest[at - 1].distortion > distortion {
        if at < PlannedAlignment.branches { cheapest[at] = cheapest[at - 1] }
        at -= 1
      }
      guard at < PlannedAlignment.branches else { continue }
      cheapest[at] = (left, line, distortion)
      found = min(found + 1, PlannedAlignment.branches)
    }
    return found
  }

  /// The natural sum of the tail of `column` in state `slot` that a levelling before `next` of
  /// the pair from `left` may move: an enlarged item heading it counts while it heads its
  /// partner's tail too, the partner outside the pair.
  private func tailSum(_ slot: Int, _ column: Int, before next: Int, pair left: Int) -> Double {
    var sum = 0.0
    let reach = Self.reach(before: next, floor: floor)
    for index in 0..<self[tailCount: slot, column]
    where self[tailPosition: slot, column, index] >= reach {
      if index == 0, self[tailPartner: slot, column, 0] >= 0, !headsBoth(slot, column, pair: left) {
        continue
      }
      sum += self[tailNatural: slot, column, index]
    }
    return sum
  }

  /// Whether the enlarged item heading `column`'s tail in state `slot` heads its partner's too,
  /// the partner outside the pair from `left`.
  private func headsBoth(_ slot: Int, _ column: Int, pair left: Int) -> Bool {
    let partner = self[tailPartner: slot, column, 0]
    return partner != left && partner != left + 1
      && self[runHead: slot, partner] == self[tailPosition: slot, column, 0]
  }

  /// Levels the pair from `left` in state `slot` onto `line` before the item at `next`: an
  /// enlarged item heading a tail moves its partner's end by as much as it changes. What the
  /// state has made (its ``Info``) is the caller's to set.
  func level(_ slot: Int, left: Int, line: Double, before next: Int) {
    for column in left...left + 1 {
      let sum = tailSum(slot, column, before: next, pair: left)
      if self[tailCount: slot, column] > 1, self[tailPartner: slot, column, 0] >= 0,
        self[tailPosition: slot, column, 0] >= Self.reach(before: next, floor: floor),
        headsBoth(slot, column, pair: left),
        sum > 0
      {
        let partner = self[tailPartner: slot, column, 0]
        let change =
          self[tailNatural: slot, column, 0] * (line - self[bottom: slot, column]) / sum
        self[bottom: slot, partner] += change
        // The partner's tail and run lose the enlarged item, moved once.
        let count = self[tailCount: slot, partner]
        if count > 0, self[tailPosition: slot, partner, 0] == self[tailPosition: slot, column, 0] {
          for index in 0..<count - 1 {
            self[tailPosition: slot, partner, index] = self[tailPosition: slot, partner, index + 1]
            self[tailNatural: slot, partner, index] = self[tailNatural: slot, partner, index + 1]
            self[tailPartner: slot, partner, index] = self[tailPartner: slot, partner, index + 1]
          }
          self[tailCount: slot, partner] = count - 1
        }
        self[runHead: slot, partner] = -1
        self[enlargedBottom: slot, partner] += change
      }
    }
    for column in left...left + 1 {
      self[bottom: slot, column] = line
      self[tailCount: slot, column] = 0
      self[runHead: slot, column] = -1
    }
  }
}
