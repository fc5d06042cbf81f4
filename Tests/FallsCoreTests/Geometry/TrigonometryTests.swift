import Foundation
import Testing

@testable import FallsCore

@Suite struct TrigonometryTests {
  @Test("Sine, cosine and tangent agree with the C library", arguments: 0..<10)
  func agreesWithLibm(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<10_000 {
      let x = (random.nextUnit() - 0.5) * 200
      let tolerance = 1e-15 * max(1, abs(x))
      #expect(abs(sine(x) - sin(x)) <= tolerance, "sin \(x)")
      #expect(abs(cosine(x) - cos(x)) <= tolerance, "cos \(x)")
      let t = tan(x)
      #expect(abs(tangent(x) - t) <= 1e-13 * max(1, abs(t) * abs(t)), "tan \(x)")
    }
  }

  @Test("Known values")
  func knownValues() {
    #expect(sine(0) == 0 && cosine(0) == 1)
    #expect(abs(sine(Double.pi / 6) - 0.5) < 1e-16)
    #expect(abs(cosine(Double.pi / 3) - 0.5) < 1e-15)
    #expect(abs(sine(Double.pi / 2) - 1) < 1e-16)
    #expect(abs(cosine(Double.pi) + 1) < 1e-16)
    #expect(abs(tangent(Double.pi / 4) - 1) < 1e-15)
    #expect(abs(sine(-Double.pi / 2) + 1) < 1e-16)
    #expect(sine(.infinity).isNaN && cosine(.nan).isNaN)
  }
}
