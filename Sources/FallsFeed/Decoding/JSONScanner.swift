import Foundation

/// Reads JSON bytes where they lie, strictly, and says where and why they stop being JSON: the
/// line, the column and what was expected there.
///
/// The grammar is RFC 8259's, read strictly where it matters to a feed's meaning: a string must
/// be valid UTF-8 (no overlong forms, no encoded surrogates), with no raw control character and
/// no `\u` escape of half a surrogate pair. One thing is accepted beyond it, as Foundation's
/// parser accepts it: a byte order mark before the value. A trailing comma in an array or
/// an object is refused, as jq refuses it (Foundation's parser accepts it). A number too large for a Double is still a number (what it means is for the
/// reader of the value to say).
///
/// A reader walks the values it knows the shape of with ``value()`` and ``next(in:)``, and skips
/// any other with ``skip(_:)``, which follows nesting with a stack of its own rather than by
/// recursion, so that any depth is read in any build.
struct JSONScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position: Int

  /// Where and why the bytes are not JSON: "line L, column C: what".
  struct Failure: Error, Equatable {
    var message: String
  }

  /// A container, as an open one is walked.
  enum Container {
    case object, array
  }

  /// A string, as it lies in the bytes.
  struct StringToken {
    /// The bytes between the quotes.
    var contents: Range<Int>
    /// Whether the contents are ASCII without escapes: their bytes are the string's text, and
    /// a JSON string of them needs no escaping but for quotes, which they cannot hold.
    var isPlain: Bool
  }

  /// What ``value()`` read.
  enum Token {
    case string(StringToken)
    case number(Range<Int>)
    case boolean(Bool)
    case null
    /// An object that holds members, opened: its first key and colon are read, its value is next.
    case object(firstKey: StringToken)
    /// An array that holds elements, opened: its first element is next.
    case array
    /// An empty object or array, read whole.
    case emptyObject, emptyArray

    /// What kind of value the token is, for a message: "an object", "a number".
    var kindName: String {
      switch self {
      case .object, .emptyObject: "an object"
      case .array, .emptyArray: "an array"
      case .string: "a string"
      case .boolean: "a boolean"
      case .null: "null"
      case .number: "a number"
      }
    }

    /// The container this token opened, if it did.
    var opened: Container? {
      switch self {
      case .object: .object
      case .array: .array
      case .string, .number, .boolean, .null, .emptyObject, .emptyArray: nil
      }
    }
  }

  /// A scanner at the start of `bytes`, after a byte order mark if there is one.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    position = Self.byteOrderMarkLength(bytes)
  }

  /// The length of the byte order mark at the start of `bytes`: 3, or 0 when there is none.
  static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  var atEnd: Bool { position >= bytes.count }
  var current: UInt8 { bytes[position] }

  /// Whether `byte` is JSON whitespace: a space, a tab, a line feed or a carriage return.
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D: true
    default: false
    }
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
  }

  /// The document's value, which must be there.
  mutating func documentValue() throws(Failure) -> Token {
    skipWhitespace()
    if atEnd { throw failure("the input is empty; expected a JSON object") }
    return try value()
  }

  /// The end of the document, after its value: only whitespace.
  mutating func documentEnd() throws(Failure) {
    skipWhitespace()
    if !atEnd { throw trailingBytes() }
  }

  /// Bytes after the document's value that start no value; a comma is what a list of values
  /// written by hand has between them, and is told so.
  @inline(never)
  private func trailingBytes() -> Failure {
    let comma =
      current == UInt8(ascii: ",")
      ? "; the values of a stream are separated by whitespace alone (JSON Lines: one a line), "
        + "and those of an array are in [ ]" : ""
    return failure("unexpected \(describeCurrent()) after the JSON value" + comma)
  }

  /// After a value of a stream (values separated by whitespace, as JSON Lines and jq write
  /// them): whether another follows, the whitespace before it read. Values must be separated.
  @inline(__always)
  mutating func streamGoesOn() throws(Failure) -> Bool {
    let end = position
    skipWhitespace()
    guard !atEnd else { return false }
    switch current {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
      UInt8(ascii: "n"):
      guard position > end else { throw unseparatedValue() }
      return true
    default:
      // Not the start of a value: what follows the document is not JSON.
      throw trailingBytes()
    }
  }

  /// A value right after another, with no whitespace between them.
  @inline(never)
  private func unseparatedValue() -> Failure {
    failure(
      "unexpected \(describeCurrent()) right after the JSON value; the values of a stream are "
        + "separated by whitespace, one a line in JSON Lines")
  }

  /// Reads the value here: a scalar whole, a container opened (or whole, when empty).
  @inline(__always)
  mutating func value() throws(Failure) -> Token {
    skipWhitespace()
    guard !atEnd else { throw failure("unexpected end of input; expected a value") }
    switch current {
    case UInt8(ascii: "{"):
      return opensEmpty(closedBy: UInt8(ascii: "}")) ? .emptyObject : .object(firstKey: try key())
    case UInt8(ascii: "["):
      return opensEmpty(closedBy: UInt8(ascii: "]")) ? .emptyArray : .array
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    case UInt8(ascii: "t"):
      try literal("true")
      return .boolean(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .boolean(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default: throw unexpected("a value")
    }
  }

  /// What follows a member of an open container.
  enum Next {
    /// Another member of an object, whose key and colon are read; its value is next.
    case member(key: StringToken)
    /// Another element of an array.
    case element
    /// The container's end, read.
    case end
  }

  /// Opens the container at its bracket; whether it closes at once with `close`, read.
  @inline(__always)
  private mutating func opensEmpty(closedBy close: UInt8) -> Bool {
    position += 1
    skipWhitespace()
    guard !atEnd, current == close else { return false }
    position += 1
    return true
  }

  /// After a member's value in an open `container`: another member, or the container's end. A
  /// comma must be followed by a member (no trailing comma, as jq and RFC 8259 have it).
  @inline(__always)
  mutating func next(in container: Container) throws(Failure) -> Next {
    skipWhitespace()
    let close = container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
    guard !atEnd, current == UInt8(ascii: ",") else {
      guard !atEnd, current == close else { throw nextFailure(in: container) }
      position += 1
      return .end
    }
    position += 1
    return container == .object ? .member(key: try key()) : .element
  }

  /// What is here where `expected` should be: a trailing comma when it is a closing bracket
  /// after a comma (named at the comma, which is what to remove), else the byte found. Told
  /// only once reading has failed, so that reading members costs nothing for it.
  @inline(never)
  private func unexpected(_ expected: String) -> Failure {
    guard !atEnd, current == UInt8(ascii: "]") || current == UInt8(ascii: "}") else {
      return failure("unexpected \(describeCurrent()); expected \(expected)")
    }
    var comma = position - 1
    while comma >= 0, Self.isWhitespace(bytes[comma]) { comma -= 1 }
    guard comma >= 0, bytes[comma] == UInt8(ascii: ",") else {
      return failure("unexpected \(describeCurrent()); expected \(expected)")
    }
    var there = self
    there.position = comma
    return there.failure(
      "a trailing comma before \(describeCurrent()); JSON allows none, remove the ','")
  }

  /// Neither a comma nor the end of `container` where one must be.
  private func nextFailure(in container: Container) -> Failure {
    let closing = container == .object ? "'}'" : "']'"
    guard !atEnd else { return failure("unexpected end of input; expected ',' or \(closing)") }
    return failure("unexpected \(describeCurrent()); expected ',' or \(closing)")
  }

  /// Skips the rest of what `token` began: the members of the container it opened, however
  /// deep, checking them.
  @inline(__always)
  mutating func skip(_ token: Token) throws(Failure) {
    guard let first = token.opened else { return }
    try skip(opened: first)
  }

  private mutating func skip(opened first: Container) throws(Failure) {
    var open = [first]
    // An opened container's first member's value comes next, then a comma or its end.
    var needsValue = true
    while let container = open.last {
      if needsValue {
        if let opened = try value().opened {
          open.append(opened)
        } else {
          needsValue = false
        }
      } else if case .end = try next(in: container) {
        open.removeLast()
      } else {
        needsValue = true
      }
    }
  }

  /// An object's key and its colon.
  @inline(__always)
  mutating func key() throws(Failure) -> StringToken {
    skipWhitespace()
    guard !atEnd, current == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
    let key = try string()
    skipWhitespace()
    guard !atEnd, current == UInt8(ascii: ":") else {
      throw failure("unexpected \(describeCurrent()); expected ':' after the key")
    }
    position += 1
    return key
  }

  /// A string, at its opening quote.
  @inline(__always)
  mutating func string() throws(Failure) -> StringToken {
    let start = position + 1
    // The common case in one pass: plain ASCII up to the closing quote, eight bytes at a time,
    // then one at a time. Anything else is read again by the strict path, which says what is
    // wrong.
    var scan = start
    if let base = bytes.baseAddress {
      while scan &+ 8 <= bytes.count {
        let word = UnsafeRawPointer(base + scan).loadUnaligned(as: UInt64.self)
        let notPlain = Self.quoteOrNotPlain(word)
        guard notPlain == 0 else {
          // The first byte flagged is flagged rightly (the later ones may not be).
          scan &+= notPlain.trailingZeroBitCount / 8
          break
        }
        scan &+= 8
      }
    }
    while scan < bytes.count {
      let byte = bytes[scan]
      if byte == UInt8(ascii: "\"") {
        position = scan + 1
        return StringToken(contents: start..<scan, isPlain: true)
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
      scan += 1
    }
    return try strictString(from: start)
  }

  /// The high bit of each byte of `word` (eight bytes, the first lowest) that is a quote, a
  /// backslash, a control character or not ASCII, at least for the lowest such byte: the
  /// classic test for a zero byte, applied to the word and to the word xor each byte sought.
  @inline(__always)
  private static func quoteOrNotPlain(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let control = (word &- ones &* 0x20) & ~word
    return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | word)
      & highs
  }

  /// A string whose contents start at `start`, read strictly: escapes, UTF-8, and what is wrong.
  private mutating func strictString(from start: Int) throws(Failure) -> StringToken {
    position = start
    while !atEnd {
      switch current {
      case UInt8(ascii: "\""):
        position += 1
        return StringToken(contents: start..<position - 1, isPlain: false)
      case 0..<0x20:
        throw failure(
          "a control character (byte 0x\(String(current, radix: 16))) inside a string must be "
            + "escaped")
      case UInt8(ascii: "\\"): try escape()
      case 0x80...: try multibyteCharacter()
      default: position += 1
      }
    }
    throw failure("unexpected end of input inside a string; expected a closing '\"'")
  }

  /// An escape, at its backslash.
  private mutating func escape() throws(Failure) {
    let start = position
    position += 1
    guard !atEnd else { return }
    guard current == UInt8(ascii: "u") else {
      guard byteOfEscape(current) != nil else {
        throw failure("invalid escape \\\(describeCurrent()) in a string")
      }
      position += 1
      return
    }
    let unit = try hexEscape()
    if (0xDC00..<0xE000).contains(unit) {
      position = start
      throw failure(Self.loneSurrogate(unit))
    }
    guard (0xD800..<0xDC00).contains(unit) else { return }
    // A high surrogate must be followed by the escape of a low one.
    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
      bytes[position + 1] == UInt8(ascii: "u")
    else {
      position = start
      throw failure(Self.loneSurrogate(unit))
    }
    position += 1
    let second = try hexEscape()
    guard (0xDC00..<0xE000).contains(second) else {
      position = start
      throw failure(Self.loneSurrogate(unit))
    }
  }

  /// The four hexadecimal digits after `\u` (at the `u`), read.
  private mutating func hexEscape() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      position += 1
      guard !atEnd, let digit = hexValue(current) else {
        throw failure("\\u must be followed by four hexadecimal digits")
      }
      value = value << 4 | digit
    }
    position += 1
    return value
  }

  private static func loneSurrogate(_ unit: UInt32) -> String {
    "the escape \\u\(String(unit, radix: 16)) is half of a surrogate pair without its other "
      + "half, which is not a character"
  }

  /// A UTF-8 sequence of two to four bytes, at its first byte: the shortest form of a scalar
  /// (not a surrogate, at most U+10FFFF).
  private mutating func multibyteCharacter() throws(Failure) {
    let lead = current
    let length: Int
    var second: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      second = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      second = 0x80...0x9F
    case 0xF0:
      length = 4
      second = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      second = 0x80...0x8F
    default:
      throw failure("invalid UTF-8 in a string (byte 0x\(String(lead, radix: 16)))")
    }
    for offset in 1..<length {
      let range: ClosedRange<UInt8> = offset == 1 ? second : 0x80...0xBF
      guard position + offset < bytes.count, range.contains(bytes[position + offset]) else {
        throw failure("invalid UTF-8 in a string (byte 0x\(String(lead, radix: 16)))")
      }
    }
    position += length
  }

  /// A number, at its first byte; its text.
  mutating func number() throws(Failure) -> Range<Int> {
    let start = position
    func digits() -> Int {
      var count = 0
      while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) {
        position += 1
        count += 1
      }
      return count
    }
    if current == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits()
    guard integerDigits > 0 else { throw failure("expected a digit in a number") }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
      position = integerStart
      throw failure("a number must not start with 0")
    }
    if !atEnd, current == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw failure("expected a digit after the decimal point") }
    }
    if !atEnd, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if !atEnd, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard digits() > 0 else { throw failure("expected a digit in the exponent") }
    }
    return start..<position
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    for offset in 0..<word.utf8CodeUnitCount {
      guard !atEnd, current == word.utf8Start[offset] else {
        throw failure("unexpected \(describeCurrent()); expected \(word)")
      }
      position += 1
    }
  }

  private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The failure `what` at the current position, with its line and column.
  func failure(_ what: String) -> Failure {
    let (line, column) = location(of: position)
    return Failure(message: "line \(line), column \(column): \(what)")
  }

  /// The line and the column of the byte at `offset`, from 1 (a column counts characters, not
  /// bytes).
  ///
  /// - Complexity: O(*offset*): for a message only.
  func location(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)]) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  private func describeCurrent() -> String {
    guard !atEnd else { return "end of input" }
    let byte = current
    if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  /// The text of the string `token`, unescaped (its escapes are known to be valid, and
  /// surrogates to come in pairs).
  func text(of token: StringToken) -> String {
    let contents = UnsafeBufferPointer(rebasing: bytes[token.contents])
    guard !token.isPlain, contents.contains(UInt8(ascii: "\\")) else {
      return String(decoding: contents, as: UTF8.self)
    }
    var utf8: [UInt8] = []
    utf8.reserveCapacity(contents.count)
    var index = 0
    func hex(_ at: Int) -> UInt32 {
      contents[at..<at + 4].reduce(0) { $0 << 4 | (hexValue($1) ?? 0) }
    }
    while index < contents.count {
      let byte = contents[index]
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        index += 1
        continue
      }
      let escape = contents[index + 1]
      index += 2
      if let byte = byteOfEscape(escape) {
        utf8.append(byte)
        continue
      }
      // \uXXXX; a high surrogate's low half follows it.
      var scalar = hex(index)
      index += 4
      if (0xD800..<0xDC00).contains(scalar) {
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(index + 2) - 0xDC00)
        index += 6
      }
      utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }
    return String(decoding: utf8, as: UTF8.self)
  }

  /// Whether the string `token` is `word`, told by its bytes when it has no escapes.
  @inline(__always)
  func string(_ token: StringToken, is word: StaticString) -> Bool {
    let contents = token.contents
    guard token.isPlain || !bytes[contents].contains(UInt8(ascii: "\\")) else {
      return text(of: token).utf8.elementsEqual(word.description.utf8)
    }
    guard contents.count == word.utf8CodeUnitCount else { return false }
    for offset in 0..<contents.count
    where bytes[contents.lowerBound &+ offset] != word.utf8Start[offset] {
      return false
    }
    return true
  }
}

extension JSONScanner {
  /// Whether the string `token`, its escapes read, is `text`, compared by their UTF-8 bytes as
  /// jq, Python and JavaScript compare keys: `"é"` (one scalar) and `"é"` (e and a combining
  /// accent) are two keys, though Swift's `==` calls them equal.
  func string(_ token: StringToken, equals text: String) -> Bool {
    let contents = token.contents
    guard token.isPlain || !bytes[contents].contains(UInt8(ascii: "\\")) else {
      return self.text(of: token).utf8.elementsEqual(text.utf8)
    }
    return bytes[contents].elementsEqual(text.utf8)
  }
}

/// The byte a one-character JSON escape stands for (`n` in `\n`: 0x0A), or `nil` for a
/// character that makes no such escape (`u` starts the longer `\uXXXX`, read apart).
@inline(__always)
func byteOfEscape(_ character: UInt8) -> UInt8? {
  switch character {
  case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): character
  case UInt8(ascii: "b"): 0x08
  case UInt8(ascii: "f"): 0x0C
  case UInt8(ascii: "n"): 0x0A
  case UInt8(ascii: "r"): 0x0D
  case UInt8(ascii: "t"): 0x09
  default: nil
  }
}
