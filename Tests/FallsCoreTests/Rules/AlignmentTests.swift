import FallsTestSupport
import Testing

@testable import FallsCore

@Suite struct AlignmentTests {
  @Test(
    "The target: the right neighbour first, then the left, strictly within tolerance, never NaN",
    arguments: [
      // top 100, height 50: natural bottom 150, reach 0.2 × 50 = 10.
      (140.5, 159.5, 159.5 as Double?), (141, 160, 141), (140, 160, nil), (160.1, 139.9, nil),
      (.nan, 155, 155), (145, .nan, 145), (.nan, .nan, nil), (150, 150, 150),
    ] as [(Double, Double, Double?)])
  func target(left: Double, right: Double, expected: Double?) {
    #expect(
      Alignment.target(top: 100, height: 50, tolerance: 0.2, left: left, right: right) == expected)
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
    // top = 1 + 2^-52 (the Double after 1) and bottom = 3 + 2^-51: every sum 1 + 2^-52 + h
    // falls on a tie between neighbours of bottom or misses it by more than half an ulp.
    let top = 1.0.nextUp
    let bottom = 3.0.nextUp
    let height = Alignment.height(from: top, reaching: bottom)
    if !LayoutChecker.someHeight(from: top, reaches: bottom) {
      #expect(abs(top + height - bottom) == bottom.ulp)
    } else {
      #expect(top + height == bottom)
    }
  }
}
