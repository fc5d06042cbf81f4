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
}
