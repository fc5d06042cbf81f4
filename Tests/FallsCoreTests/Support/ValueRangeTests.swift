import FallsCore
import Testing

@Suite struct ValueRangeTests {
  @Test(
    "Each kind of bound, in words and in its check, one ulp either side",
    arguments: [
      (ValueRange(from: 0, to: 1000), "from 0 to 1000", true, true),
      (ValueRange(above: 0, atMost: 86_400), "above 0, at most 86400", false, true),
      (ValueRange(from: 0, below: 1), "from 0 up to (not including) 1", true, false),
      (ValueRange(from: -1e9, to: 1e9), "from -1000000000 to 1000000000", true, true),
      (ValueRange(from: 0.5, to: 2.25), "from 0.5 to 2.25", true, true),
    ])
  func bounds(range: ValueRange, words: String, lowerIn: Bool, upperIn: Bool) {
    #expect(range.bounds == words)
    #expect(range.words("a number of seconds") == "a number of seconds " + words)
    #expect(range.contains(range.lower) == lowerIn)
    #expect(range.contains(range.upper) == upperIn)
    #expect(range.contains(range.lower.nextUp))
    #expect(range.contains(range.upper.nextDown))
    #expect(!range.contains(range.lower.nextDown))
    #expect(!range.contains(range.upper.nextUp))
  }

  @Test("No range holds a NaN or an infinity, whatever its bounds")
  func nonFinite() {
    let everything = ValueRange(from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
    #expect(everything.contains(0))
    for value in [Double.nan, .infinity, -.infinity] {
      #expect(!everything.contains(value))
      #expect(!LayoutConfiguration.lengths.contains(value))
    }
  }

  @Test("The configuration's ranges are stated with its largest length")
  func configurationRanges() {
    let most = LayoutConfiguration.maximumLength
    #expect(LayoutConfiguration.lengths == ValueRange(from: 0, to: most))
    #expect(LayoutConfiguration.positiveLengths == ValueRange(above: 0, atMost: most))
    #expect(LayoutConfiguration.coordinates == ValueRange(from: -most, to: most))
  }
}
