import FallsBase
import FallsCore
import Testing

@Suite struct JSONTextTests {
  @Test("The eight-bytes-at-a-time escape check agrees with a byte-by-byte one", arguments: 0..<4)
  func escapeCheck(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    // Bytes near the ones that matter, and any byte, at every position of strings 0…40 long.
    let near: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xFF]
    for _ in 0..<20_000 {
      let length = Int(random.next() % 41)
      var bytes = (0..<length).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 26) }
      for _ in 0..<Int(random.next() % 3) where length > 0 {
        let value = random.next()
        bytes[Int(value % UInt64(length))] =
          value & 0x100 == 0
          ? near[Int((value >> 16) % UInt64(near.count))] : UInt8(value >> 24 & 0xFF)
      }
      let expected = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
      #expect(bytes.withUnsafeBufferPointer(needsJSONEscaping) == expected, "\(bytes)")
    }
  }
}
