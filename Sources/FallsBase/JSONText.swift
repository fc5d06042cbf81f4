/// Whether any byte of `utf8` must be escaped in a JSON string: a quote, a backslash or a control
/// character. Looks at eight bytes at a time.
package func needsJSONEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = utf8.baseAddress else { return false }
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  var offset = 0
  while offset + 8 <= utf8.count {
    let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    // A byte below 0x20, or equal to 0x22 or 0x5C, sets its high bit in one of these (the
    // classic "has a zero byte" test, applied to the word and to the word xor the byte).
    let below = (word &- ones &* 0x20) & ~word
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hits = below | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
    if hits & highs != 0 { return true }
    offset += 8
  }
  while offset < utf8.count {
    let byte = utf8[offset]
    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
    offset += 1
  }
  return false
}
