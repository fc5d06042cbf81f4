import FallsCheckers
import Testing

@testable import FallsCore

@Suite struct AlignmentTests {
  @Test(
    "The target and its side: the right neighbour first, then the left, within tolerance",
    arguments: [
      // top 100, height 50: natural bottom 150, reach 0.2 × 50 = 10.
      (140.5, 159.5, 159.5, 1), (141, 160, 141, -1), (140, 160, nil, nil),
      (160.1, 139.9, nil, nil), (.nan, 155, 155, 1), (145, .nan, 145, -1), (.nan, .nan, nil, nil),
      (150, 150, 150, 1),
    ] as [(Double, Double, Double?, Int?)])
  func target(left: Double, right: Double, bottom: Double?, side: Int?) {
    let target = Alignment.target(top: 100, height: 50, tolerance: 0.2, left: left, right: right)
    #expect(target?.bottom == bottom)
    #expect(target?.side == side)
    // Tolerance 0 aligns nothing, not even a bottom met exactly.
    #expect(Alignment.target(top: 100, height: 50, tolerance: 0, left: left, right: right) == nil)
  }

  @Test("An aligned height reaches its target exactly whenever some Double can", arguments: 0..<20)
  func exactAlignedHeight(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var misses = 0
    for _ in 0..<5_000 {
      let top = random.nextUnit() * 1e4
      let bottom = top + random.nextUnit() * 1e4 + 1e-3
      let height = Alignment.height(from: top, reaching: bottom)
      if LayoutChecker.someHeight(from: top, reaches: bottom) {
        #expect(top + height == bottom)
      } else {
        misses += 1
        #expect(abs(top + height - bottom) <= bottom.ulp)
      }
      #expect(abs(height - (bottom - top)) <= 4 * (bottom - top).ulp)
    }
    // Ties that no height can meet exist but are rare.
    #expect(misses < 100)
  }

  @Test("A rounding tie: no Double height lands exactly, and the nearest is used")
  func roundingTie() {
    // Worked by hand. top = 1 + 2^-52, bottom = 3 + 2^-51; between 2 and 4 a Double's ulp is
    // 2^-51. bottom − top = 2 + 2^-52 is a tie, rounded to even: 2. top + 2 = 3 + 2^-52, a tie
    // rounded to even: 3, one ulp short. The candidates a few ulps around 2 (2 − 2^-52,
    // 2 + 2^-51, 2 + 2^-50) give 3, 3 + 2^-50, 3 + 2^-50: each misses by one ulp too, none by
    // less, so the first, 2, is kept.
    let top = 1.0.nextUp
    let bottom = 3.0.nextUp
    #expect(top == 1 + 0x1p-52 && bottom == 3 + 0x1p-51)
    #expect(!LayoutChecker.someHeight(from: top, reaches: bottom))
    let height = Alignment.height(from: top, reaching: bottom)
    #expect(height == 2)
    #expect(top + height == 3)
    #expect(bottom - (top + height) == bottom.ulp)
  }
}
