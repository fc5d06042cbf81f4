import FallsBase
import FallsCore
import Foundation
import Testing

@Suite struct MessageTextTests {
  @Test(
    "Every control character is escaped, everything else kept",
    arguments: [
      ("", ""), ("plain https://a.example/x.jpg", "plain https://a.example/x.jpg"),
      ("\u{1B}]0;title\u{7}", "\\u001b]0;title\\u0007"), ("\u{1B}[2J", "\\u001b[2J"),
      ("a\rb\nc\td", "a\\u000db\\u000ac\\u0009d"), ("\u{0}\u{1F}", "\\u0000\\u001f"),
      ("\u{7F}\u{80}\u{9B}\u{9F}", "\\u007f\\u0080\\u009b\\u009f"),
      ("\u{A0}é瀑布😀e\u{301}\u{3000}", "\u{A0}é瀑布😀e\u{301}\u{3000}"),
      ("abc\u{202E}fed", "abc\\u202efed"), ("\u{2028}\u{2029}", "\\u2028\\u2029"),
      ("\u{FEFF}x\u{200B}", "\\ufeffx\\u200b"), ("\u{E0001}", "\\udb40\\udc01"),
    ])
  func escaping(text: String, escaped: String) {
    #expect(escapingControlCharacters(text) == escaped)
  }

  @Test(
    "Below U+0200 a character is escaped exactly when it is C0, DEL, C1 or the soft hyphen",
    arguments: 0..<0x200)
  func everyScalar(value: Int) throws {
    let scalar = try #require(Unicode.Scalar(UInt32(value)))
    let isControl = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xAD
    let hex = String(value, radix: 16)
    let expected =
      isControl ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : String(scalar)
    #expect(escapingControlCharacters(String(scalar)) == expected)
  }

  /// The format characters (category Cf) of Unicode 15, and the line and paragraph separators,
  /// as its UnicodeData.txt lists them: written here by hand, not read from the library.
  static let formatCharacters: [ClosedRange<UInt32>] = [
    0xAD...0xAD, 0x600...0x605, 0x61C...0x61C, 0x6DD...0x6DD, 0x70F...0x70F, 0x890...0x891,
    0x8E2...0x8E2, 0x180E...0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,
    0x2066...0x206F, 0xFEFF...0xFEFF, 0xFFF9...0xFFFB, 0x110BD...0x110BD, 0x110CD...0x110CD,
    0x13430...0x1343F, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0001...0xE0001,
    0xE0020...0xE007F,
  ]

  @Test("Every format character, and the line and paragraph separators, are escaped")
  func formatCharactersEscaped() throws {
    for range in Self.formatCharacters {
      for value in range {
        let scalar = try #require(Unicode.Scalar(value))
        let escaped = escapingControlCharacters("a\(scalar)b")
        #expect(
          escaped.hasPrefix("a\\u") && escaped.hasSuffix("b"), "U+\(String(value, radix: 16))")
        #expect(escaped.unicodeScalars.allSatisfy { $0.isASCII })
      }
    }
  }

  @Test(
    "Property: escaping equals a scalar-by-scalar reference, on text of every plane",
    arguments: 0..<20)
  func escapingProperty(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func next() -> UInt64 { random.next() }
    // Scalars from the places that matter: ASCII, controls, format characters, letters of
    // other scripts, emoji, the planes past the first.
    let pools: [ClosedRange<UInt32>] = [
      0x20...0x7E, 0...0x1F, 0x7F...0xA0, 0xAD...0xAD, 0x2000...0x206F, 0x4E00...0x4E20,
      0x1F600...0x1F64F, 0xE0000...0xE007F, 0xFEFF...0xFEFF, 0x10000...0x10FFFF,
    ]
    var text = String.UnicodeScalarView()
    for _ in 0..<500 {
      let pool = pools[Int(next() % UInt64(pools.count))]
      let value = pool.lowerBound + UInt32(next() % UInt64(pool.count))
      if let scalar = Unicode.Scalar(value) { text.append(scalar) }
    }
    var reference = ""
    for scalar in text {
      guard isEscapedForPeople(scalar) else {
        reference.unicodeScalars.append(scalar)
        continue
      }
      let units = String(scalar).utf16.map { String($0, radix: 16) }
      for unit in units {
        reference += "\\u" + String(repeating: "0", count: 4 - unit.count) + unit
      }
    }
    #expect(escapingControlCharacters(String(text)) == reference)
  }

  @Test("A value of any length is quoted in at most 200 characters, its start and end kept")
  func shortened() {
    let long = "a" + String(repeating: "x", count: 100_000) + "z\u{1B}"
    let shown = shownInMessage(long)
    #expect(shown.hasPrefix("axxx") && shown.hasSuffix("z\\u001b") && shown.contains("…"))
    #expect(shortenedForMessage(long).unicodeScalars.count == 200)
    #expect(
      shortenedForMessage(String(repeating: "瀑", count: 200)) == String(repeating: "瀑", count: 200))
    #expect(shortenedForMessage(String(repeating: "瀑", count: 201)).unicodeScalars.count == 200)
    #expect(shownInMessage("short\u{202E}") == "short\\u202e")
  }

  @Test("Newlines may be kept for a message of several lines")
  func keptNewlines() {
    #expect(
      escapingControlCharacters("one\u{1B}\ntwo\r", keepingNewlines: true)
        == "one\\u001b\ntwo\\u000d")
  }

  @Test(
    "A URL's password is shown as ***, and nothing else changes",
    arguments: [
      ("https://user:secret@host/feed", "https://user:***@host/feed"),
      ("http://u:p@127.0.0.1:8080/x?a=b@c", "http://u:***@127.0.0.1:8080/x?a=b@c"),
      ("HTTP://me:p%40ss:w@host", "HTTP://me:***@host"),
      ("https://user@host/feed", "https://user@host/feed"),
      ("https://host/feed?user:pass@x", "https://host/feed?user:pass@x"),
      ("https://host:443/a@b", "https://host:443/a@b"),
      ("gopher://a:b@c#d", "gopher://a:***@c#d"),
      ("feed.json", "feed.json"), ("", ""),
    ])
  func credentials(url: String, shown: String) {
    #expect(redactingCredentials(url) == shown)
  }

  @Test(
    "shellWord leaves a plain word, quotes any other so that sh reads it back",
    arguments: [
      ("results", "results"), ("a.b_c-d/e:f@g%h+i=j,k", "a.b_c-d/e:f@g%h+i=j,k"),
      ("my photos", "'my photos'"), ("it's", #"'it'\''s'"#), ("", "''"), ("a*b", "'a*b'"),
      ("$HOME", "'$HOME'"), ("é", "'é'"), ("a\nb", "'a\nb'"),
    ])
  func shellWords(text: String, word: String) throws {
    #expect(shellWord(text) == word)
    // sh reads the word back as the text.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "printf %s " + shellWord(text)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(String(decoding: output, as: UTF8.self) == text)
  }
}
