import Testing

@testable import FallsTerminal

@Suite struct KeyDecoderTests {
  @Test(
    "Bytes become keys: characters, Ctrl-C, and the escape sequences of arrows and pages",
    arguments: [
      (
        [UInt8]("jk q".utf8),
        [Key.character("j"), .character("k"), .character(" "), .character("q")]
      ),
      ([0x03], [.interrupt]),
      ([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42], [.up, .down]),
      ([0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E], [.pageUp, .pageDown]),
      ([0x1B, 0x4F, 0x48, 0x1B, 0x5B, 0x46, 0x1B, 0x5B, 0x31, 0x7E], [.home, .end, .home]),
      ([0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x67], [.character("g")]),  // F5, unknown, then g
      ([0x1B, 0x78], [.character("x")]),  // a lone escape is dropped
      ([0x0D, 0x01, 0x7F], [.character("\n")]),  // other control bytes are dropped
    ])
  func decode(bytes: [UInt8], keys: [Key]) {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: bytes) == keys)
  }

  @Test("A sequence split across reads is completed by the next read")
  func split() {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: [0x1B]).isEmpty)
    #expect(decoder.keys(from: [0x5B, 0x36]).isEmpty)
    #expect(decoder.keys(from: [0x7E, 0x6A]) == [.pageDown, .character("j")])
  }
}
