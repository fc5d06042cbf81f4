import Testing

@testable import FallsCore

@Suite struct MaximumTreeTests {
  @Test("No slots, or empty ones: nothing is found, whatever the bound")
  func empty() {
    var found: [Int] = []
    MaximumTree(count: 0).slots(below: 0, where: { _ in true }, into: &found)
    MaximumTree(count: 5).slots(below: 5, where: { _ in true }, into: &found)
    #expect(found.isEmpty)
    #expect(MaximumTree(count: 5)[3] == nil)
  }

  @Test("One slot: found while set, below a bound past it, with a number that passes")
  func one() {
    var tree = MaximumTree(count: 1)
    tree[0] = 4
    var found: [Int] = []
    tree.slots(below: 1, where: { $0 > 3 }, into: &found)
    #expect(found == [0])
    tree.slots(below: 0, where: { $0 > 3 }, into: &found)
    tree.slots(below: 1, where: { $0 > 4 }, into: &found)
    #expect(found == [0])
    tree[0] = nil
    #expect(tree[0] == nil)
    tree.slots(below: 1, where: { _ in true }, into: &found)
    #expect(found == [0])
  }

  @Test("Two and three slots: the slots found are those below the bound that pass, in order")
  func twoAndThree() {
    var tree = MaximumTree(count: 3)
    tree[2] = -5
    tree[0] = 10
    tree[1] = 7
    var found: [Int] = []
    tree.slots(below: 3, where: { $0 > -10 }, into: &found)
    #expect(found == [0, 1, 2])
    found = []
    tree.slots(below: 2, where: { $0 > 8 }, into: &found)
    #expect(found == [0])
    found = []
    tree[0] = 1
    tree.slots(below: 3, where: { $0 > 5 }, into: &found)
    #expect(found == [1])
  }

  @Test(
    "Many slots, set and emptied at random: the slots found are those a scan finds",
    arguments: [5, 64, 100, 1000])
  func againstScan(count: Int) {
    var random = SplitMix64(seed: UInt64(count))
    var tree = MaximumTree(count: count)
    var values = [Double?](repeating: nil, count: count)
    for step in 0..<4 * count {
      let slot = Int(random.next() % UInt64(count))
      let value: Double? = random.nextUnit() < 0.3 ? nil : Double(random.next() % 50) - 25
      tree[slot] = value
      values[slot] = value
      let bound = Int(random.next() % UInt64(count + 1))
      let least = Double(random.next() % 50) - 25
      var found: [Int] = []
      tree.slots(below: bound, where: { $0 > least }, into: &found)
      let expected = (0..<bound).filter { values[$0].map { $0 > least } ?? false }
      #expect(found == expected, "step \(step)")
      #expect(tree[slot] == value)
    }
  }
}
