/// A finite Double as JSON: whole numbers below 2^53 without a fraction (`375`, `-0` as `0`),
/// others in Swift's shortest round-trip form (`111.66666666666667`, `1e-07`).
func formatNumber(_ value: Double) -> String {
  String(unsafeUninitializedCapacity: ShortestDecimal.room) { buffer in
    guard let base = buffer.baseAddress else { return 0 }
    return ShortestDecimal.writeJSON(value, to: base)
  }
}

/// A number rounded to `decimals` decimals for people (`111.67`, `10.00`; `24` with none): the
/// one form of every figure a table shows.
func formatFixed(_ value: Double, decimals: Int = 2) -> String {
  String(unsafeUninitializedCapacity: ShortestDecimal.room) { buffer in
    guard let base = buffer.baseAddress else { return 0 }
    return writeFixed(value, decimals: decimals, to: base)
  }
}

/// Writes `value` as ``formatFixed(_:decimals:)`` reads, and returns the number of bytes written:
/// a table's cells are written this way, without a `String` each.
///
/// A value too large to round exactly (10^17 in units of its last decimal) or not finite is written as Swift describes it.
///
/// - Precondition: `buffer` has ``ShortestDecimal/room`` bytes of room; `decimals` is 0 to 6.
@inline(__always)
func writeFixed(_ value: Double, decimals: Int = 2, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
  var scale = 1
  for _ in 0..<decimals { scale &*= 10 }
  guard value.isFinite, abs(value * Double(scale)) < 1e17 else {
    var count = 0
    for byte in value.description.utf8 {
      buffer[count] = byte
      count += 1
    }
    return count
  }
  let scaled = Int64((value * Double(scale)).rounded())
  var count = 0
  if scaled < 0 {
    buffer[0] = UInt8(ascii: "-")
    count = 1
  }
  let magnitude = Int(scaled.magnitude)
  count += ShortestDecimal.writeInteger(magnitude / scale, to: buffer + count)
  guard decimals > 0 else { return count }
  buffer[count] = UInt8(ascii: ".")
  var fraction = magnitude % scale
  for place in stride(from: decimals, through: 1, by: -1) {
    buffer[count + place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
    fraction /= 10
  }
  return count + 1 + decimals
}
