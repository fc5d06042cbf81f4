/// Decides whether bytes are JSON, and where and why not: the line, the column and what was
/// expected there.
///
/// The grammar is RFC 8259's, read strictly where it matters to a feed's meaning: a string must
/// be valid UTF-8 (no overlong forms, no encoded surrogates), with no raw control character and
/// no `\u` escape of half a surrogate pair. Two things are accepted beyond it, as Foundation's
/// parser accepts them: a byte order mark before the value, and a trailing comma in an array or
/// an object. A number too large for a Double is still a number (what it means is for the
/// reader of the value to say).
///
/// Nesting is followed with a stack of its own rather than by recursion, so any depth is read
/// in any build; the bytes are read where they are, never copied.
enum JSONSyntax {
  /// The first syntax error in `bytes`, as "line L, column C: what", or `nil` for valid JSON.
  ///
  /// - Complexity: O(*n*) in the size of the input; memory O(*d*) for nesting depth *d*.
  static func firstError(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var scanner = Scanner(bytes: bytes)
    do throws(Failure) {
      try scanner.document()
      return nil
    } catch {
      return error.message
    }
  }

  /// The first syntax error in `bytes`; see ``firstError(in:)-(UnsafeBufferPointer<UInt8>)``.
  static func firstError(in bytes: some Collection<UInt8>) -> String? {
    if let error = bytes.withContiguousStorageIfAvailable({ firstError(in: $0) }) { return error }
    return Array(bytes).withUnsafeBufferPointer { firstError(in: $0) }
  }

  /// The length of the byte order mark at the start of `bytes`: 3, or 0 when there is none.
  static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  struct Failure: Error {
    var message: String
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The open containers, innermost last: `{` or `[`.
    var open: [UInt8] = []

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8 { bytes[position] }

    mutating func skipWhitespace() {
      position = positionAfterWhitespace(in: bytes, from: position)
    }

    func failure(_ what: String) -> Failure {
      var line = 1
      var column = 1
      for byte in UnsafeBufferPointer(rebasing: bytes[..<min(position, bytes.count)]) {
        if byte == 0x0A {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return Failure(message: "line \(line), column \(column): \(what)")
    }

    func describeCurrent() -> String {
      guard !atEnd else { return "end of input" }
      let byte = current
      if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
      return "byte 0x\(String(byte, radix: 16))"
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
      skipWhitespace()
      guard !atEnd, current == byte else {
        throw failure("unexpected \(describeCurrent()); expected \(what)")
      }
      position += 1
    }

    /// The whole document: one value, with only whitespace after it.
    mutating func document() throws(Failure) {
      position = JSONSyntax.byteOrderMarkLength(bytes)
      skipWhitespace()
      if atEnd { throw failure("the input is empty; expected a JSON object") }
      var needsValue = true
      while true {
        // A container opened by `value()` asks for its first member's value next.
        if needsValue, try value() { continue }
        needsValue = false
        guard let container = open.last else { break }
        skipWhitespace()
        let close = container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let closing = "'\(Character(Unicode.Scalar(close)))'"
        guard !atEnd else { throw failure("unexpected end of input; expected ',' or \(closing)") }
        if current == close {
          position += 1
          open.removeLast()
          continue
        }
        try expect(UInt8(ascii: ","), "',' or \(closing)")
        skipWhitespace()
        if !atEnd, current == close {
          // A trailing comma, which Foundation's parser accepts.
          position += 1
          open.removeLast()
          continue
        }
        if container == UInt8(ascii: "{") { try key() }
        needsValue = true
      }
      skipWhitespace()
      if !atEnd {
        throw failure("unexpected \(describeCurrent()) after the JSON value")
      }
    }

    /// An object's key and its colon.
    mutating func key() throws(Failure) {
      skipWhitespace()
      guard !atEnd, current == UInt8(ascii: "\"") else {
        throw failure("unexpected \(describeCurrent()); expected a quoted key")
      }
      try string()
      try expect(UInt8(ascii: ":"), "':' after the key")
    }

    /// A scalar, or the opening of a container (with an object's first key): true when a
    /// container was opened and its first value is to be read next, by `document()`.
    mutating func value() throws(Failure) -> Bool {
      skipWhitespace()
      guard !atEnd else { throw failure("unexpected end of input; expected a value") }
      switch current {
      case UInt8(ascii: "{"):
        position += 1
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "}") {
          position += 1
          return false
        }
        open.append(UInt8(ascii: "{"))
        try key()
        return true
      case UInt8(ascii: "["):
        position += 1
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "]") {
          position += 1
          return false
        }
        open.append(UInt8(ascii: "["))
        return true
      case UInt8(ascii: "\""): try string()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      default: throw failure("unexpected \(describeCurrent()); expected a value")
      }
      return false
    }

    mutating func string() throws(Failure) {
      position += 1
      while !atEnd {
        let byte = current
        switch byte {
        case UInt8(ascii: "\""):
          position += 1
          return
        case 0..<0x20:
          throw failure(
            "a control character (byte 0x\(String(byte, radix: 16))) inside a string must be "
              + "escaped")
        case UInt8(ascii: "\\"):
          try escape()
        case 0x80...:
          try multibyteCharacter()
        default:
          position += 1
        }
      }
      throw failure("unexpected end of input inside a string; expected a closing '\"'")
    }

    /// An escape, at its backslash.
    mutating func escape() throws(Failure) {
      let start = position
      position += 1
      guard !atEnd else { return }
      let escape = current
      guard escape == UInt8(ascii: "u") else {
        guard byteOfEscape(escape) != nil else {
          throw failure("invalid escape \\\(describeCurrent()) in a string")
        }
        position += 1
        return
      }
      let unit = try hexEscape()
      if (0xDC00..<0xE000).contains(unit) {
        position = start
        throw failure(loneSurrogate(unit))
      }
      guard (0xD800..<0xDC00).contains(unit) else { return }
      // A high surrogate must be followed by the escape of a low one.
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u")
      else {
        position = start
        throw failure(loneSurrogate(unit))
      }
      position += 1
      let second = try hexEscape()
      guard (0xDC00..<0xE000).contains(second) else {
        position = start
        throw failure(loneSurrogate(unit))
      }
    }

    /// The four hexadecimal digits after `\u` (at the `u`), read.
    mutating func hexEscape() throws(Failure) -> UInt32 {
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

    func loneSurrogate(_ unit: UInt32) -> String {
      let hex = String(unit, radix: 16)
      return "the escape \\u\(hex) is half of a surrogate pair without its other half, "
        + "which is not a character"
    }

    /// A UTF-8 sequence of two to four bytes, at its first byte: the shortest form of a scalar
    /// (not a surrogate, at most U+10FFFF).
    mutating func multibyteCharacter() throws(Failure) {
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

    mutating func number() throws(Failure) {
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
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
      let expected = word.withUTF8Buffer { Array($0) }
      for byte in expected {
        guard !atEnd, current == byte else {
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

/// The position of the first byte at or after `position` that is not JSON whitespace (space,
/// tab, line feed, carriage return), or the end: the one statement of what the readers skip.
@inline(__always)
func positionAfterWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
  var position = position
  while position < bytes.count {
    switch bytes[position] {
    case 0x20, 0x09, 0x0A, 0x0D: position += 1
    default: return position
    }
  }
  return position
}
