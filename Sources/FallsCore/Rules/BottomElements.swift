/// Per column, the element seen last down it, in a sweep along the scroll axis: the element at
/// its bottom so far. ``FrameAudit`` finds stacked enlarged items with it.
///
/// Each element is laid over a range of columns, and may be marked at one of them (an enlarged
/// item at its first column); ``markedBottoms(in:into:)`` finds the columns of a range whose
/// bottom element is marked there. The columns are held in a segment tree whose nodes say which
/// element covers their whole range, if one does, so that laying an element over many columns
/// touches O(log *c*) nodes, not each column.
///
///     var bottoms = BottomElements(columns: 4)
///     bottoms.lay(7, over: 1..<3, markedAt: 1)
///     bottoms.lay(8, over: 2..<3, markedAt: nil)
///     var found: [Int] = []
///     bottoms.markedBottoms(in: 0..<4, into: &found)  // found == [7]: column 1's bottom
///
/// A value: copies are independent, and a copy may be read from any thread.
/// - Complexity: O(*c*) to make for *c* columns; O(log *c*) to lay an element; finding *k*
///   elements takes O((1 + *k*) log *c*).
struct BottomElements: Sendable {
  /// A node of the tree, for a range of columns.
  private struct Node: Sendable {
    /// The element laid over the whole range after any of its columns were laid over
    /// separately, or −1 where the children tell (and where nothing has been laid yet).
    var owner = -1
    /// The column `owner` is marked at, or −1.
    var mark = -1
    /// Whether some column of the range has a bottom element marked at that column.
    var hasMark = false
  }

  /// The nodes, the root at 1 and the children of node *v* at 2*v* and 2*v* + 1, the root
  /// covering every column and each child half of its parent's range.
  private var nodes: [Node]
  private let columns: Int

  /// `columns` columns with nothing laid over them.
  ///
  /// - Precondition: `columns >= 1`.
  init(columns: Int) {
    precondition(columns >= 1, "no columns")
    self.columns = columns
    nodes = Array(repeating: Node(), count: 4 * columns)
  }

  /// Makes `element` the bottom element of each of `range`, marked at `mark` (one of `range`) or
  /// at none.
  ///
  /// - Precondition: `range` is a nonempty range of the columns.
  mutating func lay(_ element: Int, over range: Range<Int>, markedAt mark: Int?) {
    precondition(!range.isEmpty && range.lowerBound >= 0 && range.upperBound <= columns)
    lay(element, mark: mark ?? -1, over: range, node: 1, columns: 0..<columns)
  }

  /// Appends to `found` the bottom element of each column of `range` whose bottom element is
  /// marked at that column, from left to right.
  func markedBottoms(in range: Range<Int>, into found: inout [Int]) {
    collect(in: range, node: 1, columns: 0..<columns, into: &found)
  }

  private mutating func lay(
    _ element: Int, mark: Int, over range: Range<Int>, node: Int, columns: Range<Int>
  ) {
    guard range.overlaps(columns) else { return }
    if range.lowerBound <= columns.lowerBound, columns.upperBound <= range.upperBound {
      nodes[node] = Node(owner: element, mark: mark, hasMark: columns.contains(mark))
      return
    }
    let middle = (columns.lowerBound + columns.upperBound) / 2
    let (left, right) = (columns.lowerBound..<middle, middle..<columns.upperBound)
    // The parent's owner covered both halves: they take it before one of them is changed.
    let owner = nodes[node]
    if owner.owner >= 0 {
      nodes[2 * node] = Node(
        owner: owner.owner, mark: owner.mark, hasMark: left.contains(owner.mark))
      nodes[2 * node + 1] = Node(
        owner: owner.owner, mark: owner.mark, hasMark: right.contains(owner.mark))
    }
    lay(element, mark: mark, over: range, node: 2 * node, columns: left)
    lay(element, mark: mark, over: range, node: 2 * node + 1, columns: right)
    nodes[node] = Node(hasMark: nodes[2 * node].hasMark || nodes[2 * node + 1].hasMark)
  }

  private func collect(
    in range: Range<Int>, node: Int, columns: Range<Int>, into found: inout [Int]
  ) {
    let here = nodes[node]
    guard here.hasMark, range.overlaps(columns) else { return }
    guard here.owner < 0 else {
      // One element over the whole range: its mark is the range's only marked column.
      if range.contains(here.mark) { found.append(here.owner) }
      return
    }
    let middle = (columns.lowerBound + columns.upperBound) / 2
    collect(in: range, node: 2 * node, columns: columns.lowerBound..<middle, into: &found)
    collect(in: range, node: 2 * node + 1, columns: middle..<columns.upperBound, into: &found)
  }
}
