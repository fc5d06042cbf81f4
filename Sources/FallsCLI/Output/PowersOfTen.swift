extension ShortestDecimal {
  /// The smallest and largest decimal exponent `k` with an entry in `powersOfTen`.
  static let minimumPowerExponent = -324
  static let maximumPowerExponent = 292

  /// For each `k` from `minimumPowerExponent` up, 10^−k scaled by a power of two into
  /// [2^125, 2^126) and rounded up (`⌊10^−k / 2^r⌋ + 1`): the high 63 bits, then the low 63
  /// bits.
  ///
  /// Worked out once, exactly, with integers of many words: the powers 10^m by multiplying by
  /// ten, and ⌊2^1216 / 10^k⌋ by dividing by ten (⌊⌊a/10⌋/10⌋ is ⌊a/100⌋); an entry is the
  /// top 126 bits of either, plus one.
  static let powersOfTen: [UInt64] = {
    var table = [UInt64](repeating: 0, count: 2 * (maximumPowerExponent - minimumPowerExponent + 1))
    func store(_ number: [UInt64], for k: Int) {
      let (high, low) = topBits(of: number)
      let entry = (k - minimumPowerExponent) * 2
      (table[entry], table[entry + 1]) = (high, low)
    }
    var power: [UInt64] = [1]
    for m in 0...(-minimumPowerExponent) {
      store(power, for: -m)
      var carry: UInt64 = 0
      for index in power.indices {
        let (high, low) = power[index].multipliedFullWidth(by: 10)
        (power[index], carry) = (low &+ carry, high &+ (low &+ carry < low ? 1 : 0))
      }
      if carry > 0 { power.append(carry) }
    }
    var quotient = [UInt64](repeating: 0, count: 19) + [1]  // 2^1216
    for k in 1...maximumPowerExponent {
      var remainder: UInt64 = 0
      for index in quotient.indices.reversed() {
        (quotient[index], remainder) = (10 as UInt64).dividingFullWidth(
          (remainder, quotient[index]))
      }
      while quotient.last == 0 { quotient.removeLast() }
      store(quotient, for: k)
    }
    return table
  }()

  /// The top 126 bits of the number whose words are `number` (lowest first), plus one, split
  /// into its high and low 63 bits; a number of fewer bits is shifted up to 126.
  private static func topBits(of number: [UInt64]) -> (high: UInt64, low: UInt64) {
    let bits = number.count * 64 - (number.last?.leadingZeroBitCount ?? 64)
    /// The bit `index` of the number, 0 below its lowest.
    func bit(_ index: Int) -> UInt64 {
      index < 0 ? 0 : number[index / 64] >> UInt64(index % 64) & 1
    }
    var top: UInt128 = 0
    for offset in 0..<126 { top = top << 1 | UInt128(bit(bits - 1 - offset)) }
    top += 1
    return (UInt64(truncatingIfNeeded: top >> 63), UInt64(truncatingIfNeeded: top) & (1 << 63 - 1))
  }
}
