// Text from outside (feeds, URLs, paths, answers of servers) made safe to show a person.

/// `text` with every control character written as a JSON-style escape (`\u001b`), so that
/// nothing from a feed, a server or an argument can move the cursor, retitle the window, clear
/// the screen or start a new line on a terminal.
///
/// The control characters are those of C0 (U+0000–U+001F, newline and tab among them), DEL
/// (U+007F) and C1 (U+0080–U+009F, which some terminals read as escape sequences too). Every
/// other character is kept.
///
///     escapingControlCharacters("a\u{1B}]0;title\u{7}b")  // "a\\u001b]0;title\\u0007b"
///
/// - Parameters:
///   - text: The text to show.
///   - keepingNewlines: Whether U+000A stays as it is, for a message of several lines whose
///     parts from outside were escaped already.
/// - Returns: The text with its control characters escaped.
/// - Complexity: O(*n*) in the length of `text`.
public func escapingControlCharacters(_ text: String, keepingNewlines: Bool = false) -> String {
  func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
  guard text.unicodeScalars.contains(where: isControl) else { return text }
  let hex = Array("0123456789abcdef".unicodeScalars)
  var escaped = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    guard isControl(scalar), !(keepingNewlines && scalar == "\n") else {
      escaped.append(scalar)
      continue
    }
    escaped.append(contentsOf: "\\u00".unicodeScalars)
    escaped.append(hex[Int(scalar.value >> 4)])
    escaped.append(hex[Int(scalar.value & 0xF)])
  }
  return String(escaped)
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
