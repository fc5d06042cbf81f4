/// Finds where JSON text first breaks the grammar, to say so in an error message.
///
/// Foundation's decoder on Linux reports only that data "was not valid JSON"; this scanner
/// names the line, the column and what was expected there. It checks syntax only, and accepts
/// what Foundation's parser accepts: RFC 8259 plus a trailing comma in arrays and objects.
enum JSONSyntax {
  /// The first syntax error in `bytes`, as "line L, column C: what", or `nil` for valid JSON.
  ///
  /// - Complexity: O(*n*) in the size of the input.
  static func firstError(in bytes: some Collection<UInt8>) -> String? {
    var scanner = Scanner(bytes: Array(bytes))
    do throws(Failure) {
      scanner.skipWhitespace()
      if scanner.atEnd { throw scanner.failure("the input is empty; expected a JSON object") }
      try scanner.value(depth: 0)
      scanner.skipWhitespace()
      if !scanner.atEnd {
        throw scanner.failure("unexpected \(scanner.describeCurrent()) after the JSON value")
      }
      return nil
    } catch {
      return error.message
    }
  }

  struct Failure: Error {
    var message: String
  }

  private struct Scanner {
    let bytes: [UInt8]
    var position = 0
    static let maximumDepth = 10_000

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8 { bytes[position] }

    mutating func skipWhitespace() {
      while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(current) { position += 1 }
    }

    func failure(_ what: String) -> Failure {
      var line = 1
      var column = 1
      for byte in bytes[..<min(position, bytes.count)] {
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

    mutating func value(depth: Int) throws(Failure) {
      skipWhitespace()
      guard depth < Self.maximumDepth else { throw failure("nesting is too deep") }
      guard !atEnd else { throw failure("unexpected end of input; expected a value") }
      switch current {
      case UInt8(ascii: "{"): try object(depth: depth)
      case UInt8(ascii: "["): try array(depth: depth)
      case UInt8(ascii: "\""): try string()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      default: throw failure("unexpected \(describeCurrent()); expected a value")
      }
    }

    mutating func object(depth: Int) throws(Failure) {
      position += 1
      skipWhitespace()
      if !atEnd, current == UInt8(ascii: "}") {
        position += 1
        return
      }
      while true {
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "}") {
          // A trailing comma, which Foundation accepts.
          position += 1
          return
        }
        guard !atEnd, current == UInt8(ascii: "\"") else {
          throw failure("unexpected \(describeCurrent()); expected a quoted key")
        }
        try string()
        try expect(UInt8(ascii: ":"), "':' after the key")
        try value(depth: depth + 1)
        skipWhitespace()
        guard !atEnd else { throw failure("unexpected end of input; expected ',' or '}'") }
        if current == UInt8(ascii: "}") {
          position += 1
          return
        }
        try expect(UInt8(ascii: ","), "',' or '}'")
      }
    }

    mutating func array(depth: Int) throws(Failure) {
      position += 1
      skipWhitespace()
      if !atEnd, current == UInt8(ascii: "]") {
        position += 1
        return
      }
      while true {
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "]") {
          // A trailing comma, which Foundation accepts.
          position += 1
          return
        }
        try value(depth: depth + 1)
        skipWhitespace()
        guard !atEnd else { throw failure("unexpected end of input; expected ',' or ']'") }
        if current == UInt8(ascii: "]") {
          position += 1
          return
        }
        try expect(UInt8(ascii: ","), "',' or ']'")
      }
    }

    mutating func string() throws(Failure) {
      position += 1
      while !atEnd {
        let byte = current
        if byte == UInt8(ascii: "\"") {
          position += 1
          return
        }
        if byte < 0x20 { throw failure("a control character inside a string must be escaped") }
        if byte == UInt8(ascii: "\\") {
          position += 1
          guard !atEnd else { break }
          let escape = current
          if escape == UInt8(ascii: "u") {
            for _ in 0..<4 {
              position += 1
              guard !atEnd, isHexDigit(current) else {
                throw failure("\\u must be followed by four hexadecimal digits")
              }
            }
          } else if !Array("\"\\/bfnrt".utf8).contains(escape) {
            throw failure("invalid escape \\\(describeCurrent()) in a string")
          }
        }
        position += 1
      }
      throw failure("unexpected end of input inside a string; expected a closing '\"'")
    }

    mutating func number() throws(Failure) {
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
      let text = String(decoding: bytes[start..<position], as: UTF8.self)
      if let value = Double(text), !value.isFinite {
        position = start
        throw failure("the number \(text) is too large")
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

    private func isHexDigit(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
  }
}

/// Whether any byte of `utf8` must be escaped in a JSON string: a quote, a backslash or a control
/// character. Looks at eight bytes at a time.
public func needsJSONEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = utf8.baseAddress else { return false }
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  var offset = 0
  while offset + 8 <= utf8.count {
    let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    // A byte below 0x20, or equal to 0x22 or 0x5C, sets its high bit in one of these (the
    // classic "has a zero byte" test, applied to the word and to the word xor the byte).
    let below = (word &- ones &* 0x20) & ~word
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hits = below | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
    if hits & highs != 0 { return true }
    offset += 8
  }
  while offset < utf8.count {
    let byte = utf8[offset]
    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
    offset += 1
  }
  return false
}
