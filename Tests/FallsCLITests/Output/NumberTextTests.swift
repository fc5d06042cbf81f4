import Testing

@testable import FallsCLI

@Suite struct NumberTextTests {
  @Test(
    "Numbers for people have two decimals",
    arguments: [
      (10.0, "10.00"), (111.66666666666667, "111.67"), (0.005, "0.01"), (-1.5, "-1.50"),
      (-0.004, "0.00"), (1234567.891, "1234567.89"), (0, "0.00"),
    ])
  func fixed(value: Double, text: String) {
    #expect(formatFixed(value) == text)
  }

  @Test(
    "Numbers for people with other decimals: none, four, six; too large, as Swift says them",
    arguments: [
      (24.0, 0, "24"), (24.5, 0, "25"), (-0.4, 0, "0"), (0.07461691542288565, 4, "0.0746"),
      (0.5, 4, "0.5000"), (-0.00005, 4, "-0.0001"), (0.1000049, 6, "0.100005"),
      (1e16, 2, "1e+16"), (.infinity, 2, "inf"),
    ])
  func fixedDecimals(value: Double, decimals: Int, text: String) {
    #expect(formatFixed(value, decimals: decimals) == text)
  }
}
