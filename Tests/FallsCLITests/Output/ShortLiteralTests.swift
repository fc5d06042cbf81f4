import Testing

@testable import FallsCLI

@Suite struct ShortLiteralTests {
  @Test(
    "A short literal writes exactly its bytes, whatever follows",
    arguments: ["", "\n", ",", ",\n", "12345678", "→"] as [StaticString])
  func shortLiterals(text: StaticString) throws {
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    let literal = ShortLiteral(text)
    for _ in 0..<3 {
      out.write(room: 8) { $0.short(literal) }
      out.appendLiteral("|")
    }
    try out.flush()
    let expected = text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    #expect(literal.count == text.utf8CodeUnitCount)
    #expect(sink.text == Array(repeating: expected + "|", count: 3).joined())
  }
}
