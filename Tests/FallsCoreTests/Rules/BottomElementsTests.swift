import Testing

@testable import FallsCore

/// The bottom elements of each column kept one by one, and their marks: what ``BottomElements``
/// must answer.
private struct ColumnByColumn {
  var bottoms: [(element: Int, mark: Int?)?]

  init(columns: Int) { bottoms = Array(repeating: nil, count: columns) }

  mutating func lay(_ element: Int, over range: Range<Int>, markedAt mark: Int?) {
    for column in range { bottoms[column] = (element, mark) }
  }

  func markedBottoms(in range: Range<Int>) -> [Int] {
    range.compactMap { column in
      bottoms[column].flatMap { $0.mark == column ? $0.element : nil }
    }
  }
}

@Suite struct BottomElementsTests {
  @Test("Nothing laid: no bottom is found")
  func nothing() {
    var found: [Int] = []
    BottomElements(columns: 1).markedBottoms(in: 0..<1, into: &found)
    BottomElements(columns: 7).markedBottoms(in: 0..<7, into: &found)
    #expect(found.isEmpty)
  }

  @Test("One column: the last element laid, when marked")
  func oneColumn() {
    var bottoms = BottomElements(columns: 1)
    var found: [Int] = []
    bottoms.lay(3, over: 0..<1, markedAt: 0)
    bottoms.markedBottoms(in: 0..<1, into: &found)
    #expect(found == [3])
    bottoms.lay(4, over: 0..<1, markedAt: nil)
    found = []
    bottoms.markedBottoms(in: 0..<1, into: &found)
    #expect(found.isEmpty)
  }

  @Test("A marked element is found at its mark only, and not once a later one covers that column")
  func mark() {
    var bottoms = BottomElements(columns: 3)
    bottoms.lay(1, over: 0..<2, markedAt: 0)
    var found: [Int] = []
    bottoms.markedBottoms(in: 1..<3, into: &found)
    #expect(found.isEmpty)
    bottoms.markedBottoms(in: 0..<1, into: &found)
    #expect(found == [1])
    // A later element over column 1 only: element 1 is still column 0's bottom.
    bottoms.lay(2, over: 1..<3, markedAt: 1)
    found = []
    bottoms.markedBottoms(in: 0..<3, into: &found)
    #expect(found == [1, 2])
    bottoms.lay(5, over: 0..<1, markedAt: nil)
    found = []
    bottoms.markedBottoms(in: 0..<3, into: &found)
    #expect(found == [2])
  }

  @Test(
    "Elements laid at random over ranges: the marked bottoms are a column-by-column count's",
    arguments: [2, 3, 10, 64, 1000])
  func againstColumns(columns: Int) {
    var random = SplitMix64(seed: UInt64(columns))
    func draw(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    var bottoms = BottomElements(columns: columns)
    var expected = ColumnByColumn(columns: columns)
    for element in 0..<3 * columns + 20 {
      let first = draw(columns)
      let range =
        first..<first + 1 + draw(min(columns - first, random.nextUnit() < 0.2 ? columns : 3))
      let mark = random.nextUnit() < 0.5 ? range.lowerBound + draw(range.count) : nil
      bottoms.lay(element, over: range, markedAt: mark)
      expected.lay(element, over: range, markedAt: mark)
      let low = draw(columns)
      let query = low..<low + 1 + draw(columns - low)
      var found: [Int] = []
      bottoms.markedBottoms(in: query, into: &found)
      #expect(found == expected.markedBottoms(in: query), "element \(element), \(query)")
    }
  }
}
