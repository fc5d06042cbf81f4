import FallsBase
import FallsCore
import Foundation
import FoundationXML
import Testing

@testable import FallsCLI

@Suite struct OutputBufferTests {
  @Test(
    "Numbers print as JSON: integers bare, others in the shortest round-trip form",
    arguments: [
      (375.0, "375"), (0, "0"), (-0.0, "0"), (-12, "-12"),
      (111.66666666666667, "111.66666666666667"),
      (0.1, "0.1"), (1e-7, "1e-07"), (2.5, "2.5"), (9_007_199_254_740_991, "9007199254740991"),
      (1e16, "1e+16"),
    ])
  func numbers(value: Double, text: String) throws {
    #expect(formatNumber(value) == text)
    for isCached in [true, false] {
      let sink = BufferSink()
      var out = OutputBuffer(sink: sink)
      out.appendNumber(value, isCached: isCached)
      out.appendNumber(value, isCached: isCached)  // a second time: from the cache when cached
      try out.flush()
      #expect(sink.text == text + text, "cached: \(isCached)")
    }
  }

  @Test("Every printed number reads back as the same Double", arguments: 0..<10)
  func roundTrip(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var values: [Double] = []
    for _ in 0..<2_000 {
      let magnitude = Double(sign: .plus, exponent: Int(random.next() % 80) - 40, significand: 1)
      values.append(random.nextUnit() * magnitude)
      values.append(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))  // any finite
    }
    // Both printers: the one for messages and the one the JSON writer uses.
    let json = "[" + values.map(formatNumber).joined(separator: ",") + "]"
    let parsed = try JSONDecoder().decode([Double].self, from: Data(json.utf8))
    #expect(parsed == values)
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    out.appendLiteral("[")
    for (position, value) in values.enumerated() {
      if position > 0 { out.appendLiteral(",") }
      out.appendNumber(value)
    }
    out.appendLiteral("]")
    try out.flush()
    #expect(sink.text == json)
    #expect(try JSONDecoder().decode([Double].self, from: Data(sink.bytes)) == values)
  }

  @Test(
    "JSON numbers of every kind print by the rule: whole below 2^53 bare, others as description",
    arguments: 0..<8)
  func numberKinds(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 40)
    // The edges of the shortcuts: zeros, the least normal and a subnormal, whole numbers on
    // both sides of 2^52 and 2^53, halves; then whole numbers and fractions of every size, and
    // any bit pattern at all.
    var values: [Double] = [
      0, -0.0, .leastNormalMagnitude, .leastNonzeroMagnitude, 0x1p52, 0x1p52 + 1, 0x1p53 - 1,
      0x1p53, 0x1p53 + 2, 0.5, 1.5, -2.5, 1, -1,
    ]
    for _ in 0..<3_000 {
      let power = Double(sign: .plus, exponent: Int(random.next() % 120) - 60, significand: 1)
      values.append((random.nextUnit() * power).rounded())
      values.append(random.nextUnit() * power * (random.next() % 2 == 0 ? 1 : -1))
      values.append(Double(bitPattern: random.next()))
    }
    let expected = values.map { value in
      value.isFinite && abs(value) < 0x1p53 && value.rounded() == value
        ? String(Int64(value)) : value.description
    }
    #expect(values.map(formatNumber) == expected)
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    for value in values {
      out.appendNumber(value, isCached: false)
      out.appendLiteral(" ")
    }
    try out.flush()
    #expect(sink.text == expected.joined(separator: " ") + " ")
  }

  @Test("Numbers written again, from the cache or after their slot was taken, print the same")
  func cachedNumbers() throws {
    // A pool larger than the cache's 64 slots, so that slots are shared and taken over:
    // fractions, whole numbers, zeros of both signs, a NaN and infinities.
    var random = SplitMix64(seed: 5)
    var pool: [Double] = [0, -0.0, 10, 375, -12, .nan, .infinity, -.infinity, 1e16, 1e-7]
    for _ in 0..<190 { pool.append((random.nextUnit() - 0.3) * 10_000) }
    let values = (0..<5_000).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    for value in values {
      out.appendNumber(value)
      out.appendLiteral(" ")
    }
    try out.flush()
    // By an independent rule: whole numbers below 2^53 bare (as Int64 prints them), others as
    // Swift's own `description`.
    let expected = values.map { value in
      value.isFinite && abs(value) < 0x1p53 && value.rounded() == value
        ? String(Int64(value)) : value.description
    }
    #expect(sink.text == expected.joined(separator: " ") + " ")
  }

  @Test("Strings are escaped so that JSON parsers read them back unchanged")
  func strings() throws {
    let tricky = [
      "plain", "quote \" and backslash \\", "new\nline\ttab\r", "\u{01}\u{1F}\u{7F}",
      "瀑布流 é 😀", "https://a.b/c?d=e&f=%2F", "",
    ]
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    out.append("[")
    for (index, text) in tricky.enumerated() {
      if index > 0 { out.append(",") }
      out.appendJSONString(text)
    }
    out.append("]")
    try out.flush()
    #expect(try JSONDecoder().decode([String].self, from: Data(sink.bytes)) == tricky)
    #expect(!sink.text.contains("\n"))
  }

  @Test("Plain strings of every length up to three blocks are copied whole, and only them")
  func plainStrings() throws {
    // From a larger array, so that a copy reading past a string's end would show its neighbour.
    let text = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!?".utf8)
    for length in 0...49 {
      for start in [0, 1, 7, 15] {
        let sink = BufferSink()
        var out = OutputBuffer(sink: sink)
        text.withUnsafeBufferPointer { bytes in
          out.appendJSONString(
            UnsafeBufferPointer(rebasing: bytes[start..<start + length]), isPlain: true)
        }
        out.appendLiteral("|")
        try out.flush()
        let expected = "\"" + String(decoding: text[start..<start + length], as: UTF8.self) + "\"|"
        #expect(sink.text == expected, "length \(length) from \(start)")
      }
    }
  }

  @Test("A string longer than the buffer's room is kept whole")
  func longString() throws {
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink, chunkSize: 16)
    let long = String(repeating: "abcdefgh", count: 2_000)
    out.appendJSONString(long)
    out.appendNumber(0.1)
    try out.flush()
    #expect(sink.text == "\"\(long)\"0.1")
  }

  @Test("Text for XML and HTML: markup characters become references, controls U+FFFD")
  func markup() throws {
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    out.appendEscapedMarkup("a&b<c>d\"e'f\tg\nh\u{0}i\u{7F}j 瀑布")
    try out.flush()
    #expect(sink.text == "a&amp;b&lt;c&gt;d&quot;e&#39;f\tg\nh\u{FFFD}i\u{FFFD}j 瀑布")
  }

  @Test(
    "Text for XML: every character the XML 1.0 Char production forbids becomes U+FFFD, the rest stay",
    arguments: [
      "\u{FFFE}", "\u{FFFF}", "a\u{FFFE}b\u{FFFF}c", "\u{FFFD}\u{FFFE}",
      "\u{E000}\u{FFFC}\u{FFFD}\u{10000}\u{10FFFF}\u{1FFFE}", "\r\u{1B}\u{80}\u{9F}",
      "\u{D7FF}ﾟ\u{FEFF}",
    ])
  func forbiddenCharacters(_ text: String) throws {
    // The Char production of XML 1.0, section 2.2.
    func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
      default: false
      }
    }
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink)
    out.appendEscapedMarkup(text)
    try out.flush()
    // CR is allowed by the production but normalised away by parsers, so it is replaced too.
    var expected = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      expected.append(isXMLCharacter(scalar) && scalar != "\r" ? scalar : "\u{FFFD}")
    }
    #expect(sink.text == String(expected))
    let document = try XMLDocument(xmlString: "<a>\(sink.text)</a>")
    #expect(document.rootElement()?.stringValue == String(expected))
  }

  @Test("A full chunk is sent, and nothing before it is full")
  func chunks() throws {
    let sink = BufferSink()
    var out = OutputBuffer(sink: sink, chunkSize: 10)
    out.append("12345")
    try out.flushIfFull()
    #expect(sink.bytes.isEmpty)
    out.append("67890ab")
    try out.flushIfFull()
    #expect(sink.text == "1234567890ab")
    out.append("c")
    try out.flush()
    #expect(sink.text == "1234567890abc")
  }

  @Test("A failed write is reported and the buffer is emptied")
  func failure() {
    var out = OutputBuffer(sink: FailingSink(code: 32))
    out.append("x")
    #expect(throws: SystemError(code: 32)) { try out.flush() }
  }

  #if DEBUG
    @Test("A write past the room made for it stops a debug build")
    func overrun() async {
      await #expect(processExitsWith: .failure) {
        var buffer = OutputBuffer(sink: BufferSink())
        buffer.write(room: 4) { $0.literal("12345") }
      }
      await #expect(processExitsWith: .failure) {
        var buffer = OutputBuffer(sink: BufferSink())
        buffer.write(room: 32) { $0.number(1.5) }
      }
    }
  #endif
}
