// Text from outside (feeds, URLs, paths, answers of servers) made safe to show a person.

/// `text` with every control and format character written as a JSON-style escape (`\u001b`,
/// `\u202e`), so that nothing from a feed, a server or an argument can move the cursor, retitle
/// the window, clear the screen, start a new line or reorder what a terminal shows.
///
/// The characters escaped are those of C0 (U+0000–U+001F, newline and tab among them), DEL
/// (U+007F) and C1 (U+0080–U+009F, which some terminals read as escape sequences too), the line
/// and paragraph separators (U+2028, U+2029), and every format character (Unicode's category
/// Cf: the bidirectional overrides and isolates such as U+202E, which make a terminal show text
/// in another order than it is, zero-width characters, the byte order mark, tags). One outside
/// the Basic Multilingual Plane is written as a JSON surrogate pair (`\udb40\udc01`). Every
/// other character is kept.
///
///     escapingControlCharacters("a\u{1B}]0;title\u{7}b")  // "a\\u001b]0;title\\u0007b"
///     escapingControlCharacters("abc\u{202E}fed")       // "abc\\u202efed"
///
/// - Parameters:
///   - text: The text to show.
///   - keepingNewlines: Whether U+000A stays as it is, for a message of several lines whose
///     parts from outside were escaped already.
/// - Returns: The text with its control and format characters escaped.
/// - Complexity: O(*n*) in the length of `text`.
public func escapingControlCharacters(_ text: String, keepingNewlines: Bool = false) -> String {
  guard text.unicodeScalars.contains(where: isEscapedForPeople) else { return text }
  var text = text
  var escaped: [UInt8] = []
  text.withUTF8 { utf8 in
    escaped.reserveCapacity(utf8.count + 64)
    forEachEscapedRun(of: utf8, keepingNewlines: keepingNewlines) { escaped += $0 }
  }
  return String(decoding: escaped, as: UTF8.self)
}

/// Calls `body` with the bytes of `utf8` escaped as
/// ``escapingControlCharacters(_:keepingNewlines:)`` escapes them, a run at a time: each
/// stretch of kept bytes as it lies in `utf8`, each escape as the six ASCII bytes of `\uxxxx`
/// (twelve for a surrogate pair). Text of any length is written out without being copied whole.
///
/// - Parameters:
///   - utf8: Valid UTF-8 (a `String`'s, or a feed's checked strings).
///   - keepingNewlines: Whether U+000A stays as it is.
///   - body: Called with each run, in order.
/// - Complexity: O(*n*) in the length of `utf8`.
public func forEachEscapedRun(
  of utf8: UnsafeBufferPointer<UInt8>, keepingNewlines: Bool = false,
  _ body: (UnsafeBufferPointer<UInt8>) -> Void
) {
  var kept = 0
  var index = 0
  while index < utf8.count {
    let lead = utf8[index]
    // The scalar at `index` and its length in bytes (the text is valid UTF-8).
    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    var value = UInt32(length == 1 ? lead : lead & (0xFF >> (length + 1)))
    for next in 1..<length where index + next < utf8.count {
      value = value << 6 | UInt32(utf8[index + next] & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value), isEscapedForPeople(scalar),
      !(keepingNewlines && scalar == "\n")
    else {
      index += length
      continue
    }
    if kept < index { body(UnsafeBufferPointer(rebasing: utf8[kept..<index])) }
    index += length
    kept = index
    withEscape(of: scalar, body)
  }
  if kept < utf8.count { body(UnsafeBufferPointer(rebasing: utf8[kept...])) }
}

/// Calls `body` with `\uxxxx` for `scalar`, or the two of its surrogate pair past the Basic
/// Multilingual Plane, in lower-case hexadecimal.
private func withEscape(of scalar: Unicode.Scalar, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
  let units: [UInt32] =
    scalar.value > 0xFFFF
    ? [0xD800 + ((scalar.value - 0x10000) >> 10), 0xDC00 + ((scalar.value - 0x10000) & 0x3FF)]
    : [scalar.value]
  var bytes: [UInt8] = []
  for unit in units {
    bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
    for shift in stride(from: 12, through: 0, by: -4) {
      let digit = UInt8((unit >> UInt32(shift)) & 0xF)
      bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
    }
  }
  bytes.withUnsafeBufferPointer(body)
}

/// Whether `scalar` is written escaped in text for people (``escapingControlCharacters(_:keepingNewlines:)``):
/// a control character, a line or paragraph separator, or a format character.
@inline(__always)
public func isEscapedForPeople(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  if value < 0x20 || value == 0x7F { return true }
  if value < 0xA0 { return value >= 0x80 }
  // Below U+00AD (the soft hyphen) no character is a format character.
  if value < 0xAD { return false }
  switch scalar.properties.generalCategory {
  case .format, .lineSeparator, .paragraphSeparator: return true
  default: return false
  }
}

/// The most characters of an outside value a message quotes; a longer one is shortened in the
/// middle (``shownInMessage(_:)``).
public let messageQuoteLimit = 200

/// `text` as a message quotes it: shortened in the middle (``shortenedForMessage(_:)``), then
/// with its control and format characters escaped
/// (``escapingControlCharacters(_:keepingNewlines:)``), so that a value of any length and
/// content (a 100,000-character argument, a URL with a bidi override) gives a message that fits
/// on a screen and says what it quotes.
///
/// - Parameter text: The value from outside: an argument, a path, a URL, a feed's value.
/// - Returns: The text to put in the message.
/// - Complexity: O(*n*) in the length of `text`.
public func shownInMessage(_ text: String) -> String {
  escapingControlCharacters(shortenedForMessage(text))
}

/// `text` shortened in the middle to at most ``messageQuoteLimit`` characters (Unicode
/// scalars), with `…` where the middle was; a shorter text comes back as it is.
///
///     shortenedForMessage(String(repeating: "x", count: 100_000))  // 100 x, "…", 99 x
///
/// - Parameter text: The value from outside.
/// - Returns: The text, at most ``messageQuoteLimit`` characters.
/// - Complexity: O(*n*) in the length of `text`.
public func shortenedForMessage(_ text: String) -> String {
  let scalars = text.unicodeScalars
  // The UTF-8 length bounds the number of scalars: a short text is never counted.
  guard text.utf8.count > messageQuoteLimit, scalars.count > messageQuoteLimit else {
    return text
  }
  let kept = messageQuoteLimit - 1
  var shortened = String.UnicodeScalarView(scalars.prefix(kept - kept / 2))
  shortened.append("…")
  shortened.append(contentsOf: scalars.suffix(kept / 2))
  return String(shortened)
}

/// `url` with the password of its user information replaced by `***`, so that messages never
/// repeat a credential: `https://user:secret@host/feed` becomes `https://user:***@host/feed`.
///
/// Only the part between `//` and the first `/`, `?` or `#` is looked at; text that is not a URL
/// comes back unchanged.
///
/// - Complexity: O(*n*) in the length of `url`.
public func redactingCredentials(_ url: String) -> String {
  guard let slashes = url.range(of: "://") else { return url }
  let authorityStart = slashes.upperBound
  let authorityEnd =
    url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
  let authority = url[authorityStart..<authorityEnd]
  // The user information ends at the last @ of the authority.
  guard let at = authority.lastIndex(of: "@"),
    let colon = authority[..<at].firstIndex(of: ":")
  else { return url }
  return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
}

/// `text` as a word a POSIX shell passes on as it is, for a command a message suggests: as it
/// is when every character is a letter or digit of ASCII or one of `_-.,=/:@%+`, else in
/// single quotes, a quote within written `'\''`.
///
///     shellWord("results")       // results
///     shellWord("my photos")     // 'my photos'
///     shellWord("it's")          // 'it'\''s'
///
/// - Complexity: O(*n*) in the length of `text`.
public func shellWord(_ text: String) -> String {
  let plain = text.utf8.allSatisfy { byte in
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "_-.,=/:@%+".utf8.contains(byte)
    }
  }
  guard plain, !text.isEmpty else {
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
  return text
}
