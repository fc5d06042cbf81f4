/// Slots `0..<count`, each empty or holding a number, indexed by the greatest number of every
/// range of slots that a halving of the slots makes (a segment tree): the slots below a bound
/// whose numbers pass a test are found without looking at the others.
///
/// A sweep keeps its open intervals here, each in the slot of its near edge's rank, holding its
/// far edge; the intervals that reach past a point are the slots whose numbers are above it.
///
///     var open = MaximumTree(count: 4)
///     open[1] = 30
///     open[2] = 10
///     var found: [Int] = []
///     open.slots(below: 4, where: { $0 > 20 }, into: &found)  // found == [1]
///
/// A value: copies are independent, and a copy may be read from any thread.
/// - Complexity: O(*count*) to make; O(log *count*) to set a slot; finding *k* slots takes
///   O((1 + *k*) log *count*).
struct MaximumTree: Sendable {
  /// The nodes of a complete binary tree, the root at 1 and the children of node *v* at 2*v* and
  /// 2*v* + 1; slot *s* is the leaf `leaves + s`. Each node holds the greatest number of its
  /// leaves, and −∞ where they are all empty.
  private var nodes: [Double]
  /// The first leaf: the least power of two that is at least the number of slots.
  private let leaves: Int

  /// `count` empty slots.
  ///
  /// - Precondition: `count >= 0`.
  init(count: Int) {
    precondition(count >= 0, "a negative count of slots")
    var leaves = 1
    while leaves < count { leaves *= 2 }
    self.leaves = leaves
    nodes = Array(repeating: -.infinity, count: 2 * leaves)
  }

  /// The number in `slot`, or `nil` where it is empty; setting `nil` empties it.
  ///
  /// - Precondition: `slot` is one of the slots; a number set is above −∞ (not NaN).
  /// - Complexity: O(1) to read, O(log *count*) to set.
  subscript(slot: Int) -> Double? {
    get {
      let value = nodes[leaves + slot]
      return value == -.infinity ? nil : value
    }
    set {
      let value = newValue ?? -.infinity
      precondition(newValue.map { $0 > -.infinity } ?? true, "a number that is not above -∞")
      var node = leaves + slot
      nodes[node] = value
      // Up to the first ancestor whose greatest number stays: those above it stay too.
      while node > 1 {
        node /= 2
        let greatest = max(nodes[2 * node], nodes[2 * node + 1])
        guard nodes[node] != greatest else { break }
        nodes[node] = greatest
      }
    }
  }

  /// Appends to `found`, in increasing order, the slots below `bound` whose numbers pass
  /// `passes`.
  ///
  /// `passes` must hold for every number above one it holds for (`{ $0 > x }`, or `{ $0 - d > x }`
  /// in floating point): a range of slots whose greatest number fails it is passed over whole.
  /// - Complexity: O((1 + *k*) log *count*) for *k* slots found.
  func slots(below bound: Int, where passes: (Double) -> Bool, into found: inout [Int]) {
    guard bound > 0 else { return }
    collect(node: 1, first: 0, width: leaves, bound: bound, passes: passes, into: &found)
  }

  /// The slots of `node`, which covers `first..<first + width`, as `slots(below:where:into:)`.
  private func collect(
    node: Int, first: Int, width: Int, bound: Int, passes: (Double) -> Bool,
    into found: inout [Int]
  ) {
    let greatest = nodes[node]
    guard first < bound, greatest > -.infinity, passes(greatest) else { return }
    guard width > 1 else {
      found.append(first)
      return
    }
    let half = width / 2
    collect(
      node: 2 * node, first: first, width: half, bound: bound, passes: passes, into: &found)
    collect(
      node: 2 * node + 1, first: first + half, width: half, bound: bound, passes: passes,
      into: &found)
  }
}
