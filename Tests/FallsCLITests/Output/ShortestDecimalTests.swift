import FallsCore
import Foundation
import Testing

@testable import FallsCLI

@Suite struct ShortestDecimalTests {
  private func text(_ value: Double) -> String {
    ShortestDecimal.text(of: value)
  }

  static let knownValues: [(Double, String)] = [
    (0.1, "0.1"), (2.5, "2.5"), (-2.5, "-2.5"), (167.5, "167.5"), (100, "100.0"), (1, "1.0"),
    (0, "0.0"), (-0.0, "-0.0"), (1.0 / 3, "0.3333333333333333"), (0.1 + 0.2, "0.30000000000000004"),
    (233.33333333333334, "233.33333333333334"), (0.0001, "0.0001"), (0.00012345, "0.00012345"),
    (0.00009999, "9.999e-05"), (1e-5, "1e-05"), (1e-7, "1e-07"),
    (1_000_000_000_000_000.5, "1000000000000000.5"), (0x1p53, "9007199254740992.0"),
    (0x1p53 + 2, "9.007199254740994e+15"), (1e16, "1e+16"), (1e17, "1e+17"),
    (1.5e300, "1.5e+300"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    (.leastNonzeroMagnitude, "5e-324"), (2 * .leastNonzeroMagnitude, "1e-323"),
    (.leastNormalMagnitude, "2.2250738585072014e-308"), (.infinity, "inf"),
  ]

  @Test("Known values print as Swift prints them", arguments: knownValues)
  func known(value: Double, expected: String) {
    #expect(text(value) == expected)
  }

  @Test("Random doubles of every magnitude print as `description` does", arguments: 0..<8)
  func matchesDescription(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var mismatches: [String] = []
    for _ in 0..<50_000 {
      // Any finite bit pattern, a layout-sized value, and a short decimal.
      let values = [
        Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF),
        random.nextUnit() * 5_000,
        Double(random.next() % 1_000_000) / 1_000,
        Double(bitPattern: random.next() % 0x0010_0000_0000_0000),  // subnormal
      ]
      for value in values {
        let printed = text(value)
        if printed != value.description || Double(printed) != value {
          mismatches.append("\(value.description) printed as \(printed)")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
  }

  @Test(
    "Every power of two and its neighbours, where the interval is uneven, print as `description`")
  func powersOfTwo() {
    var mismatches: [String] = []
    for exponent in -1074...1023 {
      let power = Double(sign: .plus, exponent: exponent, significand: 1)
      for value in [power.nextDown, power, power.nextUp] where value.isFinite && value > 0 {
        if text(value) != value.description { mismatches.append(value.description) }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
  }

  @Test("The logarithm shortcuts equal the logarithms over the whole range they are used in")
  func logarithms() {
    // q · log10(2) is never within 1e-9 of an integer for q ≠ 0 in this range, so Double's
    // logarithm decides the floor safely.
    for q in -1200...1200 {
      #expect(
        ShortestDecimal.floorLog10(powerOfTwo: q) == Int((Double(q) * log10(2.0)).rounded(.down)))
      #expect(
        ShortestDecimal.floorLog10(threeQuartersOfPowerOfTwo: q)
          == Int((Double(q) * log10(2.0) + log10(0.75)).rounded(.down)))
      #expect(
        ShortestDecimal.floorLog2(powerOfTen: q) == Int((Double(q) * log2(10.0)).rounded(.down)))
    }
  }

  @Test("The table's powers 10^0 … 10^19 are the exact powers, shifted into 126 bits, plus one")
  func table() {
    var power: UInt64 = 1
    for e in 0...19 {
      let entry = (-e - ShortestDecimal.minimumPowerExponent) * 2
      let high = ShortestDecimal.powersOfTen[entry]
      let low = ShortestDecimal.powersOfTen[entry + 1]
      // power · 2^shift lies in [2^125, 2^126).
      let shift = 125 - (63 - power.leadingZeroBitCount)
      // The 126-bit value split at bit 63: shift ≥ 62 for every power here.
      let expectedHigh = power << (shift - 63)  // a negative shift moves right
      let expectedLow: UInt64 = shift >= 63 ? 1 : (power << shift & (1 << 63 - 1)) + 1
      #expect(high == expectedHigh, "10^\(e)")
      #expect(low == expectedLow, "10^\(e)")
      if e < 19 { power *= 10 }
    }
  }

  @Test(
    "Every place of the point in every digit count prints as `description` (the plain form's two block moves)",
    arguments: 1...17)
  func everyPointPlace(digits: Int) throws {
    // Digits 1…9 then 1…8, cut to the count; the point after each possible whole part, and the
    // forms around the plain one (0.000ddd, ddd000.0).
    let spelled = String("12345678912345678".prefix(digits))
    for exponent in -6...(17 - digits) {
      let value = try #require(Double("\(spelled)e\(exponent)"))
      #expect(text(value) == value.description, "\(spelled)e\(exponent)")
      #expect(text(-value) == (-value).description, "-\(spelled)e\(exponent)")
    }
  }

  @Test("The digit count is the length of the number's decimal text, at every power of ten")
  func digitCount() {
    var values: [UInt64] = [0, 1, 9, .max, .max - 1]
    var power: UInt64 = 10
    for _ in 1...19 {
      values += [power - 1, power, power + 1]
      if power <= UInt64.max / 10 { power *= 10 }
    }
    for value in values {
      #expect(ShortestDecimal.digitCount(value) == String(value).count, "\(value)")
    }
  }

  @Test(
    "Integers print as Swift prints them, in one block below 10^8 and digit by digit above",
    arguments: [
      0, 1, 7, 9, 10, 42, 99, 100, 12_345, 9_999_999, 10_000_000, 99_999_999, 100_000_000,
      123_456_789_012, -1, -10, -99_999_999, -100_000_000, Int.max, Int.min, Int.min + 1,
    ])
  func integers(value: Int) {
    let text = String(unsafeUninitializedCapacity: ShortestDecimal.room) { buffer in
      ShortestDecimal.writeInteger(value, to: buffer.baseAddress!)
    }
    #expect(text == String(value))
  }
}
