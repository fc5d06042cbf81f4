// Sine, cosine and tangent for the core, which imports nothing (not even the C library).
//
// The argument is reduced by π/2 in two parts (Cody and Waite), then a Taylor polynomial on
// [−π/4, π/4] is evaluated by Horner's rule; its truncation error there is below 1e-19, so the
// results are within a couple of ulps of the C library's. Arguments are angles of a layout, far
// below 2^26 · π/2 in size, where the reduction is exact enough.

/// π/2 with its 27 low bits cleared, so that `k · halfPiHigh` is exact for `|k| < 2^26`.
private let halfPiHigh = Double(bitPattern: (Double.pi / 2).bitPattern & ~((1 << 27) - 1))
/// The rest of π/2: what `Double.pi / 2` drops (6.123233995736766e-17) and what the mask did.
private let halfPiLow = (Double.pi / 2 - halfPiHigh) + 6.123_233_995_736_766e-17

/// `x` reduced to `[−π/4, π/4]` and the quadrant `k mod 4` it came from.
private func reduced(_ x: Double) -> (Double, Int) {
  let k = (x / (Double.pi / 2)).rounded()
  let r = (x - k * halfPiHigh) - k * halfPiLow
  let quadrant = Int(k.truncatingRemainder(dividingBy: 4))
  return (r, (quadrant + 4) % 4)
}

/// sin(r) for |r| ≤ π/4: r − r³/3! + r⁵/5! − … + r¹⁷/17!.
private func sinePolynomial(_ r: Double) -> Double {
  let r2 = r * r
  var p = 1 / 355_687_428_096_000.0  // 1/17!
  for factorial in [
    -1_307_674_368_000.0, 6_227_020_800, -39_916_800, 362_880, -5_040, 120, -6,
  ] {
    p = p * r2 + 1 / factorial
  }
  return r + r * r2 * p
}

/// cos(r) for |r| ≤ π/4: 1 − r²/2! + r⁴/4! − … − r¹⁸/18!.
private func cosinePolynomial(_ r: Double) -> Double {
  let r2 = r * r
  var p = -1 / 6_402_373_705_728_000.0  // −1/18!
  for factorial in [
    20_922_789_888_000.0, -87_178_291_200, 479_001_600, -3_628_800, 40_320, -720, 24, -2,
  ] {
    p = p * r2 + 1 / factorial
  }
  return 1 + r2 * p
}

/// sin(x), or with `quarterTurns` 1 cos(x) = sin(x + π/2): the reduced argument is the same, one
/// quadrant on.
private func sine(_ x: Double, quarterTurns: Int) -> Double {
  guard x.isFinite else { return .nan }
  let (r, quadrant) = reduced(x)
  switch (quadrant + quarterTurns) % 4 {
  case 0: return sinePolynomial(r)
  case 1: return cosinePolynomial(r)
  case 2: return -sinePolynomial(r)
  default: return -cosinePolynomial(r)
  }
}

func sine(_ x: Double) -> Double {
  sine(x, quarterTurns: 0)
}

func cosine(_ x: Double) -> Double {
  sine(x, quarterTurns: 1)
}

func tangent(_ x: Double) -> Double {
  sine(x) / cosine(x)
}
