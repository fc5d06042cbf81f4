/// The shortest decimal that reads back as a given Double, written straight into memory.
///
/// `Double.description` makes a `String` for each number, which costs an allocation per number
/// for the 17- and 18-character numbers a layout is full of. This writes the same text (the same
/// digits, the same choice between `0.0001` and `1e-05`) into a caller's buffer.
///
/// The digits come from the Schubfach method (Raffaello Giulietti, "The Schubfach way to render
/// doubles", 2020): the value's rounding interval is scaled by a 126-bit power of ten
/// (`powersOfTen`, worked out exactly on first use), and among the decimals in the interval
/// the one with the fewest digits is taken, the one closest to the value among those, and the
/// even one on a tie.
///
/// Example: `233.33333333333334`, `167.5`, `1e-05`, `9.007199254740994e+15`, `100.0`.
enum ShortestDecimal {
  /// The room `write(_:to:)` needs from its start. It writes at most 24 bytes (a sign, 17
  /// digits, a point and `e-308`), but makes the digits in scratch space behind the text and
  /// moves them into place sixteen bytes at a time.
  static let room = 64

  /// Writes `value` as `value.description` reads, and returns the number of bytes written.
  ///
  /// - Precondition: `buffer` has ``room`` bytes of room; those after the text are left
  ///   undefined.
  /// - Complexity: O(1).
  @inline(__always)
  static func write(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    // Subnormals keep so few bits that the method's guarantees do not reach them; they never
    // come out of a layout, and Swift's own printer takes them.
    guard value.isFinite, value == 0 || value.magnitude >= .leastNormalMagnitude else {
      return copy(value.description, to: buffer)
    }
    let position = writeSign(of: value, to: buffer)
    guard value != 0 else {
      return position + copy("0.0", to: buffer + position)
    }
    let (digits, exponent) = decimal(of: value.magnitude)
    return position
      + format(
        digits: digits, exponent: exponent, isAbovePlainRange: value.magnitude > 0x1p53,
        to: buffer + position)
  }

  /// Writes `value` as a JSON number: a whole number below 2^53 as an integer (`-0.0` as `0`),
  /// any other as ``write(_:to:)`` does; returns the number of bytes written.
  ///
  /// A normal number below 2^53, what a layout is made of, is told whole or not by one look at
  /// its bits, which also leaves the method's own shortcut for whole numbers out.
  ///
  /// Out of line, the whole of the work in one call, so that the JSON writers' number, its
  /// cache's hits above all, stays small enough to be inlined into them.
  ///
  /// - Precondition: `buffer` has ``room`` bytes of room; those after the text are left
  ///   undefined.
  @inline(never)
  static func writeJSON(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    // The exponent field of a normal number below 2^53 is 1 through 1075 (the comparison is
    // unsigned, so that a zero field, −1 here, fails it too).
    let exponentBits = Int(value.exponentBitPattern)
    guard UInt(bitPattern: exponentBits &- 1) < 1075 else {
      // Zeros, subnormals, 2^53 and above, infinities and NaN: of these only the zeros are
      // whole numbers below 2^53.
      return value == 0 ? writeInteger(0, to: buffer) : write(value, to: buffer)
    }
    let position = writeSign(of: value, to: buffer)
    let significand = value.significandBitPattern | (1 << 52)
    let shift = 1075 &- exponentBits
    if isWhole(significand, shift: shift) {
      return position + writeInteger(Int(significand &>> shift), to: buffer + position)
    }
    let result = trimmed(decimal(significand: significand, binaryExponent: 0 &- shift))
    return position
      + format(
        digits: result.significand, exponent: result.exponent, isAbovePlainRange: false,
        to: buffer + position)
  }

  /// `value` as `value.description` reads.
  static func text(of value: Double) -> String {
    String(unsafeUninitializedCapacity: room) { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      return write(value, to: base)
    }
  }

  /// The shortest decimal `significand · 10^exponent` that reads back as `value`, closest to it
  /// among the shortest, without trailing zeros in `significand`.
  ///
  /// - Precondition: `value` is finite, normal and greater than zero.
  @inline(__always)
  static func decimal(of value: Double) -> (significand: UInt64, exponent: Int) {
    let significand = value.significandBitPattern | (1 << 52)
    let shift = 1075 &- Int(value.exponentBitPattern)
    // A whole number below 2^52 is its own shortest decimal.
    return trimmed(
      shift > 0 && isWhole(significand, shift: shift)
        ? (significand &>> shift, 0)
        : decimal(significand: significand, binaryExponent: 0 &- shift))
  }

  /// Writes a minus sign when `value` is negative (−0.0 included); returns how many bytes.
  @inline(__always)
  private static func writeSign(of value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    guard value.sign == .minus else { return 0 }
    buffer[0] = UInt8(ascii: "-")
    return 1
  }

  /// Whether `significand · 2^−shift` is a whole number, for a shift below 53 (a shift of 53
  /// or more leaves a value below 1, a normal one not whole).
  @inline(__always)
  private static func isWhole(_ significand: UInt64, shift: Int) -> Bool {
    shift < 53 && (significand &>> shift) &<< shift == significand
  }

  /// `decimal` with its significand's trailing zeros moved into the exponent.
  @inline(__always)
  private static func trimmed(_ decimal: (significand: UInt64, exponent: Int)) -> (
    significand: UInt64, exponent: Int
  ) {
    var result = decimal
    while result.significand % 10 == 0 {
      result.significand /= 10
      result.exponent &+= 1
    }
    return result
  }

  /// The Schubfach step for `significand · 2^binaryExponent`.
  ///
  /// Its arithmetic cannot overflow (a significand below 2^53 times four, shifts of at most
  /// four bits), so it wraps rather than checks, which would cost a branch per operation.
  @inline(__always)
  private static func decimal(significand c: UInt64, binaryExponent q: Int) -> (
    significand: UInt64, exponent: Int
  ) {
    let isEven: UInt64 = c & 1 == 0 ? 0 : 1
    // Four times the value and its interval's ends, so that the half-way points are integers.
    let scaled = c &<< 2
    let upper = scaled &+ 2
    let lower: UInt64
    let k: Int
    // At the least normal value the subnormals below are as far apart as the normals above.
    if c != 1 << 52 || q == -1074 {
      lower = scaled &- 2
      k = floorLog10(powerOfTwo: q)
    } else {
      // At a power of two the gap below is half the gap above.
      lower = scaled &- 1
      k = floorLog10(threeQuartersOfPowerOfTwo: q)
    }
    let h = q &+ floorLog2(powerOfTen: 0 &- k) &+ 2
    let entry = (k &- minimumPowerExponent) &* 2
    let high = powersOfTen[entry]
    let low = powersOfTen[entry &+ 1]
    let v = scaledProduct(high, low, scaled &<< h)
    let vLower = scaledProduct(high, low, lower &<< h)
    let vUpper = scaledProduct(high, low, upper &<< h)

    let s = v &>> 2
    if s >= 100 {
      // One digit fewer, when exactly one of its two neighbours lies in the interval.
      let down = s / 10 &* 10
      let up = down &+ 10
      let downInside = vLower &+ isEven <= down &<< 2
      let upInside = up &<< 2 &+ isEven <= vUpper
      if downInside != upInside {
        return (downInside ? down : up, k)
      }
    }
    let t = s &+ 1
    let sInside = vLower &+ isEven <= s &<< 2
    let tInside = t &<< 2 &+ isEven <= vUpper
    if sInside != tInside {
      return (sInside ? s : t, k)
    }
    // Both or neither: the closer one, the even one on a tie.
    let twice = (s &+ t) &<< 1
    let closer = v < twice || (v == twice && s & 1 == 0) ? s : t
    return (closer, k)
  }

  /// ⌊(g · cp) / 2^127⌋ for g = high · 2^63 + low, with the lowest bit set when bits were lost.
  @inline(__always)
  private static func scaledProduct(_ high: UInt64, _ low: UInt64, _ cp: UInt64) -> UInt64 {
    let x1 = low.multipliedFullWidth(by: cp).high
    let y = high.multipliedFullWidth(by: cp)
    let z = (y.low &>> 1) &+ x1
    let result = y.high &+ (z &>> 63)
    let lost: UInt64 = z & (1 << 63 - 1) == 0 ? 0 : 1
    return result | lost
  }

  /// ⌊log10(2^q)⌋ for |q| ≤ 5456721.
  static func floorLog10(powerOfTwo q: Int) -> Int {
    (q &* 661_971_961_083) &>> 41
  }

  /// ⌊log10(3/4 · 2^q)⌋ for |q| ≤ 5456721.
  static func floorLog10(threeQuartersOfPowerOfTwo q: Int) -> Int {
    (q &* 661_971_961_083 &- 274_743_187_321) &>> 41
  }

  /// ⌊log2(10^e)⌋ for |e| ≤ 1838394.
  static func floorLog2(powerOfTen e: Int) -> Int {
    (e &* 913_124_641_741) &>> 38
  }

  /// Writes `digits · 10^exponent` as Swift prints a Double: plain from 0.0001 up to 2^53, with
  /// at least one digit after the point; otherwise `d.ddde±XX`.
  @inline(__always)
  private static func format(
    digits: UInt64, exponent: Int, isAbovePlainRange: Bool, to buffer: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let (top, block) = significandText(digits)
    let count = digitCount(digits)
    let leading = exponent &+ count &- 1  // the power of ten of the first digit
    if !isAbovePlainRange, leading >= 0, leading < count - 1 {
      // ddd.ddd, what a layout is full of: the whole part (at most 16 digits below 2^53) and the
      // fraction (at most 16) are each shifted into place in a register and stored as one
      // sixteen-byte block, the fraction's over the whole part's tail. Nothing is read back, so
      // no load waits for these stores.
      let skipped = 17 - count  // leading zeros of the 17 places
      // Shifts below 128 bits (`skipped + leading` ≤ 15), so masking shifts suffice.
      let whole = skipped == 0 ? block &<< 8 | UInt128(top) : block &>> (8 &* (skipped &- 1))
      storeSixteen(whole, at: buffer)
      buffer[leading + 1] = UInt8(ascii: ".")
      storeSixteen(block &>> (8 &* (skipped &+ leading)), at: buffer + leading + 2)
      return count + 1
    }
    return formatOther(
      top: top, block: block, count: count, leading: leading,
      isAbovePlainRange: isAbovePlainRange, to: buffer)
  }

  /// ``format(digits:exponent:isAbovePlainRange:to:)`` for the forms other than `ddd.ddd`,
  /// seldom seen in a layout, from the digits' text (`top` and `block`, as
  /// ``significandText(_:)`` gives them), their `count` and the power of ten of the first:
  /// out of line, so that the common form is small enough to inline.
  @inline(never)
  private static func formatOther(
    top: UInt8, block: UInt128, count: Int, leading: Int, isAbovePlainRange: Bool,
    to buffer: UnsafeMutablePointer<UInt8>
  ) -> Int {
    // The digits are spelled 32 bytes in, then move left into place; a forward copy is safe
    // because every byte moves left.
    let digitsEnd = buffer + 32
    digitsEnd[-17] = top
    storeSixteen(block, at: digitsEnd - 16)
    let first = digitsEnd - count
    if leading < -4 || isAbovePlainRange {
      buffer[0] = first[0]
      var position = 1
      if count > 1 {
        buffer[1] = UInt8(ascii: ".")
        for index in 1..<count { buffer[index + 1] = first[index] }
        position = count + 1
      }
      buffer[position] = UInt8(ascii: "e")
      buffer[position + 1] = leading < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
      position += 2
      let magnitude = leading.magnitude
      if magnitude >= 100 {
        buffer[position] = UInt8(ascii: "0") + UInt8(magnitude / 100)
        position += 1
      }
      buffer[position] = UInt8(ascii: "0") + UInt8(magnitude / 10 % 10)
      buffer[position + 1] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      return position + 2
    }
    if leading < 0 {
      // 0.000ddd
      let zeros = -leading - 1
      buffer[0] = UInt8(ascii: "0")
      buffer[1] = UInt8(ascii: ".")
      for index in 0..<zeros { buffer[2 + index] = UInt8(ascii: "0") }
      for index in 0..<count { buffer[2 + zeros + index] = first[index] }
      return 2 + zeros + count
    }
    if leading >= count - 1 {
      // ddd000.0
      for index in 0..<count { buffer[index] = first[index] }
      for index in count..<(leading + 1) { buffer[index] = UInt8(ascii: "0") }
      buffer[leading + 1] = UInt8(ascii: ".")
      buffer[leading + 2] = UInt8(ascii: "0")
      return leading + 3
    }
    // ddd.ddd
    for index in 0...leading { buffer[index] = first[index] }
    buffer[leading + 1] = UInt8(ascii: ".")
    for index in (leading + 1)..<count { buffer[index + 1] = first[index] }
    return count + 1
  }

  /// Copies 16 bytes through a register, so that the two ranges may overlap.
  @inline(__always)
  static func moveSixteen(
    from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>
  ) {
    let block = UnsafeRawPointer(source).loadUnaligned(as: SIMD16<UInt8>.self)
    UnsafeMutableRawPointer(destination).storeBytes(of: block, as: SIMD16<UInt8>.self)
  }

  /// Writes `value` in decimal, with a minus sign when negative; returns the number of bytes
  /// written.
  ///
  /// - Precondition: `buffer` has ``room`` bytes of room; those after the text are left
  ///   undefined.
  @inline(__always)
  static func writeInteger(_ value: Int, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    if value >= 0 && value < 10 {  // columns, spans, pages
      buffer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
      return 1
    }
    if value >= 0 && value < 100_000_000 {
      // Indices, pages, columns: eight places made at once, the leading zeros shifted out, one
      // store.
      let count = digitCount(UInt64(value))
      let digits = eightDigits(UInt32(truncatingIfNeeded: value)) &>> (8 &* (8 &- count))
      UnsafeMutableRawPointer(buffer).storeBytes(of: digits.littleEndian, as: UInt64.self)
      return count
    }
    var position = 0
    if value < 0 {
      buffer[0] = UInt8(ascii: "-")
      position = 1
    }
    // The digits are made 40 bytes in (they need eight bytes before them), then moved to their
    // place.
    let end = buffer + 40
    let length = writeDigits(UInt64(value.magnitude), endingAt: end)
    (buffer + position).update(from: end - length, count: length)
    return position + length
  }

  /// Writes the decimal digits of `value` so that the last one is just before `end`; returns
  /// how many.
  ///
  /// - Precondition: there are 8 bytes of room before the first digit (it writes eight at a
  ///   time).
  static func writeDigits(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) -> Int {
    var remaining = value
    var cursor = end
    while remaining >= 100_000_000 {
      let quotient = remaining / 100_000_000
      cursor -= 8
      storeEightDigits(UInt32(remaining - quotient * 100_000_000), at: cursor)
      remaining = quotient
    }
    let length = digitCount(remaining)
    storeEightDigits(UInt32(remaining), at: cursor - 8)
    return end - cursor + length
  }

  /// The 17 decimal places of a significand below 10^17, leading zeros included: the first as
  /// an ASCII digit, the other sixteen as ASCII bytes in a 128-bit word, first place in the
  /// lowest byte. Two blocks of eight are worked out side by side, without a branch.
  ///
  /// - Precondition: `value < 10^17`.
  @inline(__always)
  static func significandText(_ value: UInt64) -> (first: UInt8, rest: UInt128) {
    let top = value / 10_000_000_000_000_000
    let rest = value - top * 10_000_000_000_000_000
    let middle = rest / 100_000_000
    let low = eightDigits(UInt32(truncatingIfNeeded: rest - middle * 100_000_000))
    let high = eightDigits(UInt32(truncatingIfNeeded: middle))
    return (UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: top), UInt128(low) << 64 | UInt128(high))
  }

  /// The number of decimal digits of `value`, at least one: the count its bit length implies,
  /// corrected by one comparison (no branch, which would mispredict on a layout's mix of 16- and
  /// 17-digit significands).
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    // Setting the lowest bit changes no digit count (10^k is even, 10^k − 1 odd) and keeps 0 at
    // one digit.
    let odd = value | 1
    let bits = UInt64.bitWidth - odd.leadingZeroBitCount
    // ⌊bits · log10(2)⌋: the count, or one less.
    let guess = (bits &* 1233) &>> 12
    return guess &+ (odd >= powersOfTenUpTo19[guess] ? 1 : 0)
  }

  /// 10^0 … 10^19.
  static let powersOfTenUpTo19: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
    1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
    1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
  ]

  /// Stores `bytes` lowest byte first.
  @inline(__always)
  private static func storeSixteen(_ bytes: UInt128, at destination: UnsafeMutablePointer<UInt8>) {
    UnsafeMutableRawPointer(destination).storeBytes(of: bytes.littleEndian, as: UInt128.self)
  }

  /// Stores the eight decimal digits of `value` (with leading zeros) at `destination`.
  private static func storeEightDigits(_ value: UInt32, at destination: UnsafeMutablePointer<UInt8>)
  {
    UnsafeMutableRawPointer(destination).storeBytes(
      of: eightDigits(value).littleEndian, as: UInt64.self)
  }

  /// The eight decimal digits of `value` (with leading zeros) as ASCII bytes, the first in the
  /// lowest byte.
  ///
  /// The digits are worked out side by side in one 64-bit word: two halves of four digits,
  /// four pairs, eight digits; no loop and no division instruction.
  ///
  /// - Precondition: `value < 100_000_000`.
  @inline(__always)
  static func eightDigits(_ value: UInt32) -> UInt64 {
    // 32-bit lanes: the first four digits, the last four.
    let halves = UInt64(value / 10_000) | UInt64(value % 10_000) << 32
    // x / 100 in each lane is (x · 10486) >> 20 for x < 10^4.
    let hundreds = ((halves &* 10_486) >> 20) & 0x0000_007F_0000_007F
    // 16-bit lanes: the four pairs of digits, first to last.
    let pairs = (halves &- 100 &* hundreds) << 16 &+ hundreds
    // x / 10 in each lane is (x · 103) >> 10 for x < 100.
    let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
    // Bytes: each pair's tens digit, then its ones digit.
    let digits = tens &+ (pairs &- 10 &* tens) << 8
    return digits &+ 0x3030_3030_3030_3030
  }

  private static func copy(_ text: String, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    var count = 0
    for byte in text.utf8 {
      buffer[count] = byte
      count += 1
    }
    return count
  }
}
