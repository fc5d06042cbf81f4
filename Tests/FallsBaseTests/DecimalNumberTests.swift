import FallsBase
import Testing

@Suite struct DecimalNumberTests {
  @Test(
    "Numbers in flags and fields follow one decimal grammar",
    arguments: [
      ("0", 0.0), ("10", 10), ("-2.5", -2.5), ("1e-3", 0.001), ("3.", 3), (".25", 0.25),
      ("1E+2", 100),
    ])
  func numberGrammar(text: String, value: Double) {
    #expect(parseDecimal(text) == value)
  }

  @Test(
    "Anything else is not a number",
    arguments: [
      "", " 1", "1 ", "abc", "nan", "NaN", "inf", "infinity", "0x1p3", "1e", "e5", ".",
      "-", "1,5", "1_000",
    ])
  func notNumbers(text: String) {
    #expect(parseDecimal(text) == nil)
  }

  @Test(
    "A run of up to 15 digits is read directly, as the full reading reads it; nothing else is",
    arguments: [
      ("0", 0.0), ("7", 7), ("0012", 12), ("1200", 1200), ("999999999999999", 999_999_999_999_999),
    ])
  func wholeNumbers(text: String, value: Double) {
    #expect(whole(text) == value)
    #expect(whole(text) == parseDecimal(text))
  }

  @Test(
    "Signs, fractions, exponents, other bytes and 16 digits or more are left to the full reading",
    arguments: ["", "-1", "+1", "1.0", "1e3", "12a", "1 ", "/", ":", "1234567890123456"])
  func notWhole(text: String) {
    #expect(whole(text) == nil)
  }

  @Test("Random runs of digits read as Double(text) reads them")
  func randomDigits() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let count = Int.random(in: 1...15, using: &generator)
      let text = String((0..<count).map { _ in "0123456789".randomElement(using: &generator)! })
      #expect(whole(text) == Double(text), "\(text)")
    }
  }

  private func whole(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer(wholeDecimal)
  }
}
