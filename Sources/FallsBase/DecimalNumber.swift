/// Parses a plain decimal number (`1200`, `-2.5`, `1e3`), as feeds and flags write them.
///
/// - Returns: The value, or `nil` for anything else: empty text, spaces, hexadecimal, `nan`,
///   `inf`. A value too large for a Double reads as infinity.
public func parseDecimal(_ text: String) -> Double? {
  parseDecimal(text[...])
}

/// Parses a plain decimal number: optional sign, digits with an optional fraction, an optional
/// exponent. Rejects what `Double.init(_:)` would also accept but a feed should not contain:
/// hexadecimal, `nan`, `inf`, surrounding spaces.
public func parseDecimal(_ text: Substring) -> Double? {
  var digits = 0
  var index = text.startIndex
  func skipDigits() -> Int {
    var count = 0
    while index < text.endIndex, let ascii = text[index].asciiValue, (48...57).contains(ascii) {
      count += 1
      index = text.index(after: index)
    }
    return count
  }
  if index < text.endIndex, text[index] == "-" || text[index] == "+" {
    index = text.index(after: index)
  }
  digits += skipDigits()
  if index < text.endIndex, text[index] == "." {
    index = text.index(after: index)
    digits += skipDigits()
  }
  guard digits > 0 else { return nil }
  if index < text.endIndex, text[index] == "e" || text[index] == "E" {
    index = text.index(after: index)
    if index < text.endIndex, text[index] == "-" || text[index] == "+" {
      index = text.index(after: index)
    }
    guard skipDigits() > 0 else { return nil }
  }
  guard index == text.endIndex else { return nil }
  return Double(text)
}

/// The value of `bytes` when they are a run of 1 to 15 ASCII digits, read directly: exactly the
/// Double that parsing their text gives, as every such number is below 2^53. `nil` otherwise,
/// for the caller's full reading. Package access: a raw pointer in no public API.
@inlinable @inline(__always)
package func wholeDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  guard bytes.count > 0, bytes.count <= 15 else { return nil }
  var value: UInt64 = 0
  var isWhole = true
  for byte in bytes {
    let digit = byte &- UInt8(ascii: "0")
    isWhole = isWhole && digit < 10
    value = value &* 10 &+ UInt64(digit)
  }
  return isWhole ? Double(value) : nil
}
