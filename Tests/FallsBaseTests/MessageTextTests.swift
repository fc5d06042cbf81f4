import FallsBase
import Testing

@Suite struct MessageTextTests {
  @Test(
    "Every control character is escaped, everything else kept",
    arguments: [
      ("", ""), ("plain https://a.example/x.jpg", "plain https://a.example/x.jpg"),
      ("\u{1B}]0;title\u{7}", "\\u001b]0;title\\u0007"), ("\u{1B}[2J", "\\u001b[2J"),
      ("a\rb\nc\td", "a\\u000db\\u000ac\\u0009d"), ("\u{0}\u{1F}", "\\u0000\\u001f"),
      ("\u{7F}\u{80}\u{9B}\u{9F}", "\\u007f\\u0080\\u009b\\u009f"),
      ("\u{A0}é瀑布\u{FEFF}😀", "\u{A0}é瀑布\u{FEFF}😀"),
    ])
  func escaping(text: String, escaped: String) {
    #expect(escapingControlCharacters(text) == escaped)
  }

  @Test("A character is escaped exactly when it is C0, DEL or C1", arguments: 0..<0x200)
  func everyScalar(value: Int) throws {
    let scalar = try #require(Unicode.Scalar(UInt32(value)))
    let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
    let hex = String(value, radix: 16)
    let expected =
      isControl ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : String(scalar)
    #expect(escapingControlCharacters(String(scalar)) == expected)
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
}
