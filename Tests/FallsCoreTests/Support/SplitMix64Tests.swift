import FallsCore
import Testing

@Suite struct SplitMix64Tests {
  @Test("Seed 0 gives SplitMix64's published first values")
  func publishedValues() {
    // The reference values of Vigna's splitmix64.c for state 0, also checked here with a C build.
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(generator.next() == 0x06C4_5D18_8009_454F)
  }

  @Test("Seed 1 gives the values the C reference prints")
  func seedOne() {
    var generator = SplitMix64(seed: 1)
    #expect(generator.next() == 0x910A_2DEC_8902_5CC1)
    #expect(generator.next() == 0xBEEB_8DA1_658E_EC67)
  }

  @Test("A unit draw is the top 53 bits over 2^53")
  func unitDraw() {
    var generator = SplitMix64(seed: 0)
    let expected = Double(UInt64(0xE220_A839_7B1D_CDAF) >> 11) / 9_007_199_254_740_992
    #expect(generator.nextUnit() == expected)
  }

  @Test("Probability 0 never passes and 1 always does", arguments: [0 as UInt64, 1, 42, .max])
  func extremeProbabilities(seed: UInt64) {
    var never = SplitMix64(seed: seed)
    var always = SplitMix64(seed: seed)
    var passedNever = 0
    var passedAlways = 0
    for _ in 0..<1000 {
      if never.draw(0) { passedNever += 1 }
      if always.draw(1) { passedAlways += 1 }
    }
    #expect(passedNever == 0)
    #expect(passedAlways == 1000)
  }

  @Test("Draws pass about as often as the probability says")
  func frequency() {
    var generator = SplitMix64(seed: 7)
    let passes = (0..<100_000).filter { _ in generator.draw(0.67) }.count
    // Binomial standard deviation is about 149; allow more than six of them.
    #expect(abs(passes - 67_000) < 1_000)
  }

  @Test("Copies continue the same stream independently")
  func valueSemantics() {
    var original = SplitMix64(seed: 99)
    _ = original.next()
    var copy = original
    #expect(copy.next() == original.next())
  }

  @Test("After n steps the state is the seed plus n increments", arguments: [0, 1, 2, 63, 1000])
  func jump(steps: Int) {
    var stepped = SplitMix64(seed: 0xDEAD_BEEF)
    for _ in 0..<steps { _ = stepped.next() }
    let jumped = SplitMix64(seed: 0xDEAD_BEEF &+ SplitMix64.increment &* UInt64(steps))
    #expect(stepped == jumped)
  }
}
