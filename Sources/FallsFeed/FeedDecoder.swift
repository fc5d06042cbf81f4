import FallsBase
import FallsCore
import Foundation

/// Decodes the finderlist format: `{"data": [{"img": URL, "width": "1200", "height": "2249"}]}`.
///
/// Widths and heights may be strings holding a plain decimal number (`"1200"`, `"2249.5"`,
/// `"1e3"`) or JSON numbers. Keys other than `img`, `width`, `height` and `span` are ignored; a
/// key given twice takes its last value, as JavaScript, Python and jq read it. Every invalid
/// item is reported with its index, field and value; none is dropped silently. Bytes that are
/// not JSON are refused whole, with the line and the column where they stop being JSON.
public enum FeedDecoder {
  /// Decodes a feed from JSON bytes.
  ///
  /// - Returns: The valid items and a problem for each invalid one.
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``.
  /// - Complexity: O(*n*) in the size of the input.
  public static func decode(_ bytes: Data) throws(FeedError) -> Feed {
    try decode(FeedBytes(data: bytes))
  }

  /// Decodes a feed from bytes that may map a file; the pages of a mapping are given back as
  /// they are read, so that a large file is never all in memory at once.
  ///
  /// - Returns: The valid items and a problem for each invalid one.
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``, or
  ///   ``FeedError/unreadable(path:reason:)`` when a mapped file changed while it was read.
  public static func decode(_ bytes: FeedBytes) throws(FeedError) -> Feed {
    let result: Result<Feed, FeedError>
    if let feed = FastFeedParser.parse(bytes.data, releasingReadPages: bytes.isFileMapping) {
      result = .success(feed)
    } else {
      result = Result { () throws(FeedError) in try decodeWithDiagnostics(bytes.data) }
    }
    // A file cut short under the mapping reads as zeros from where it ends: whatever was
    // made of them is not the file's.
    if let mapping = bytes.mapping, mapping.hasChanged {
      throw .unreadable(
        path: mapping.path,
        reason: "it changed (it was cut short) while it was read; read it again when it is "
          + "complete")
    }
    return try result.get()
  }

  /// Decodes without the fast path: the path that reports every problem, and the reference the
  /// fast path is tested against. The bytes are checked to be JSON first, then read.
  ///
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``.
  /// - Complexity: O(*n*) in the size of the input.
  static func decodeWithDiagnostics(_ bytes: Data) throws(FeedError) -> Feed {
    let outcome = bytes.withUnsafeBytes { raw -> Result<Feed, FeedError> in
      let bytes = raw.bindMemory(to: UInt8.self)
      if let detail = JSONSyntax.firstError(in: bytes) { return .failure(.notJSON(detail: detail)) }
      var reader = JSONReader(bytes: bytes)
      return Result { () throws(FeedError) in try reader.feed() }
    }
    return try outcome.get()
  }
}

/// A JSON value of a feed item's field, as much of it as validating it and quoting it in a
/// message needs.
private enum FieldValue: Equatable {
  case null
  case bool(Bool)
  /// A number, with its text as the feed writes it.
  case number(String)
  case string(String)
  case array
  case object

  /// What kind of value it is, for a message: "a string", "an array".
  var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The value in JSON notation, as the feed wrote it; containers are only named.
  var quoted: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let text): text
    case .string(let text): jsonQuoted(text)
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// Reads the feed out of bytes already known to be JSON (``JSONSyntax``): what it meets is
/// always well formed, so it reads without checking the grammar again, and skips any value,
/// however deep, by counting brackets.
private struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    position = JSONSyntax.byteOrderMarkLength(bytes)
  }

  var current: UInt8 { bytes[position] }

  mutating func skipWhitespace() {
    position = positionAfterWhitespace(in: bytes, from: position)
  }

  /// The document's items and problems.
  mutating func feed() throws(FeedError) -> Feed {
    skipWhitespace()
    guard current == UInt8(ascii: "{") else {
      throw .noDataArray(found: "the top level is \(valueKind())")
    }
    // The last "data" wins, as with any key given twice.
    var data: Int?
    members { reader, key in
      if key == .data { data = reader.position }
      reader.skipValue()
    }
    guard let data else {
      throw .noDataArray(found: "the top-level object has no \"data\" key")
    }
    position = data
    skipWhitespace()
    guard current == UInt8(ascii: "[") else {
      throw .noDataArray(found: "\"data\" is \(valueKind())")
    }
    var feed = Feed(items: [])
    var index = 0
    elements { reader in
      switch reader.item(index: index) {
      case .success(let item): feed.items.append(item)
      case .failure(let problem): feed.problems.append(problem)
      }
      index += 1
    }
    return feed
  }

  /// One item: an object's fields validated, or the value that is not an object.
  mutating func item(index: Int) -> Result<FeedItem, FeedItemProblem> {
    skipWhitespace()
    guard current == UInt8(ascii: "{") else {
      let value = fieldValue()
      return .failure(
        FeedItemProblem(index: index, field: .item, value: value.quoted, reason: .notAnObject))
    }
    var fields = Fields()
    members { reader, key in
      switch key {
      case .img: fields.img = reader.fieldValue()
      case .width: fields.width = reader.fieldValue()
      case .height: fields.height = reader.fieldValue()
      case .span: fields.span = reader.fieldValue()
      case .data, .other: reader.skipValue()
      }
    }
    return Self.validated(fields, index: index)
  }

  /// The keys the reader looks for; any other is skipped.
  enum Key {
    case data, img, width, height, span, other
  }

  /// An item's fields, the last value of each.
  struct Fields {
    var img: FieldValue?
    var width: FieldValue?
    var height: FieldValue?
    var span: FieldValue?
  }

  /// A key, at its opening quote: told apart by its bytes, unescaped only when it has escapes.
  mutating func key() -> Key {
    if let raw = plainString() {
      func equals(_ word: StaticString) -> Bool {
        raw.count == word.utf8CodeUnitCount
          && word.withUTF8Buffer { raw.elementsEqual($0) }
      }
      switch raw.count {
      case 3 where equals("img"): return .img
      case 4 where equals("data"): return .data
      case 4 where equals("span"): return .span
      case 5 where equals("width"): return .width
      case 6 where equals("height"): return .height
      default: return .other
      }
    }
    switch string() {
    case "img": return .img
    case "data": return .data
    case "span": return .span
    case "width": return .width
    case "height": return .height
    default: return .other
    }
  }

  /// What kind of value starts here, for a message.
  mutating func valueKind() -> String {
    switch current {
    case UInt8(ascii: "{"): "an object"
    case UInt8(ascii: "["): "an array"
    case UInt8(ascii: "\""): "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
    case UInt8(ascii: "n"): "null"
    default: "a number"
    }
  }

  /// Calls `body` with each member's key, the reader at its value; `body` reads or skips the
  /// value.
  mutating func members(_ body: (inout JSONReader, Key) -> Void) {
    position += 1
    while true {
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        position += 1
        return
      }
      let key = key()
      skipWhitespace()
      position += 1  // the colon
      skipWhitespace()
      body(&self, key)
      skipWhitespace()
      if current == UInt8(ascii: ",") { position += 1 }
    }
  }

  /// Calls `body` with the reader at each element of an array; `body` reads or skips it.
  mutating func elements(_ body: (inout JSONReader) -> Void) {
    position += 1
    while true {
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        position += 1
        return
      }
      let start = position
      body(&self)
      if position == start { skipValue() }
      skipWhitespace()
      if current == UInt8(ascii: ",") { position += 1 }
    }
  }

  /// Reads a value as far as a field needs it; a container is skipped and only named.
  mutating func fieldValue() -> FieldValue {
    skipWhitespace()
    switch current {
    case UInt8(ascii: "\""): return .string(string())
    case UInt8(ascii: "{"):
      skipValue()
      return .object
    case UInt8(ascii: "["):
      skipValue()
      return .array
    case UInt8(ascii: "t"):
      position += 4
      return .bool(true)
    case UInt8(ascii: "f"):
      position += 5
      return .bool(false)
    case UInt8(ascii: "n"):
      position += 4
      return .null
    default:
      let start = position
      skipScalar()
      return .number(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }
  }

  /// Skips the value here, containers whole.
  mutating func skipValue() {
    skipWhitespace()
    switch current {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      repeat {
        switch current {
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        case UInt8(ascii: "\""):
          skipString()
          continue
        default: break
        }
        position += 1
      } while depth > 0
    case UInt8(ascii: "\""): skipString()
    default: skipScalar()
    }
  }

  /// Skips a number or a literal.
  mutating func skipScalar() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
        UInt8(ascii: "a")...UInt8(ascii: "z"):
        position += 1
      default: return
      }
    }
  }

  /// Skips a string, at its opening quote.
  mutating func skipString() {
    position += 1
    while current != UInt8(ascii: "\"") {
      position += current == UInt8(ascii: "\\") ? 2 : 1
    }
    position += 1
  }

  /// The bytes of the string at its opening quote, read, when it has no escape (they are then
  /// its text, known to be valid UTF-8); `nil`, and nothing read, when it has one.
  mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
    let start = position + 1
    var end = start
    while bytes[end] != UInt8(ascii: "\"") && bytes[end] != UInt8(ascii: "\\") { end += 1 }
    guard bytes[end] == UInt8(ascii: "\"") else { return nil }
    position = end + 1
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  /// Reads a string, at its opening quote, unescaped (its escapes are known to be valid, and
  /// surrogates to come in pairs).
  mutating func string() -> String {
    if let raw = plainString() { return String(decoding: raw, as: UTF8.self) }
    position += 1
    var utf8: [UInt8] = []
    while current != UInt8(ascii: "\"") {
      let byte = current
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        position += 1
        continue
      }
      let escape = bytes[position + 1]
      position += 2
      if let byte = byteOfEscape(escape) {
        utf8.append(byte)
        continue
      }
      // \uXXXX; a high surrogate's low half follows it (the syntax check saw them paired).
      var scalar = hex()
      if (0xD800..<0xDC00).contains(scalar) {
        position += 2
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex() - 0xDC00)
      }
      utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }
    position += 1
    return String(decoding: utf8, as: UTF8.self)
  }

  /// The four hexadecimal digits here, read.
  mutating func hex() -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = current | 0x20  // lower case
      value =
        value << 4
        | UInt32(
          byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10)
      position += 1
    }
    return value
  }

  static func validated(_ fields: Fields, index: Int) -> Result<FeedItem, FeedItemProblem> {
    let width: Double
    let height: Double
    switch length(fields.width, field: .width, index: index) {
    case .success(let value): width = value
    case .failure(let problem): return .failure(problem)
    }
    switch length(fields.height, field: .height, index: index) {
    case .success(let value): height = value
    case .failure(let problem): return .failure(problem)
    }
    let img = fields.img
    guard case .string(let url) = img else {
      let reason: FeedItemProblem.Reason = (img == nil || img == .null) ? .missing : .notAString
      return .failure(
        FeedItemProblem(index: index, field: .img, value: img?.quoted, reason: reason))
    }
    guard let columns = span(fields.span) else {
      return .failure(
        FeedItemProblem(
          index: index, field: .span, value: fields.span?.quoted, reason: .invalidSpan))
    }
    return .success(FeedItem(index: index, img: url, width: width, height: height, span: columns))
  }

  /// The span a value asks for: absent or null is 1, `"full"` every column, otherwise a whole
  /// number of at least 1 (as a number or a string); `nil` when it is none of these.
  static func span(_ value: FieldValue?) -> Int? {
    let text: Substring
    switch value {
    case nil, .null?: return 1
    case .string(let string)?:
      if string.lowercased() == "full" { return LayoutItem.fullSpan }
      text = string[...]
    case .number(let number)?: text = number[...]
    default: return nil
    }
    guard let number = parseDecimal(text), number >= 1, number.rounded() == number, number < 1e9
    else { return nil }
    return Int(number)
  }

  /// A width or height: a positive, finite number, or a string holding one.
  static func length(_ value: FieldValue?, field: FeedField, index: Int) -> Result<
    Double, FeedItemProblem
  > {
    func problem(_ reason: FeedItemProblem.Reason) -> Result<Double, FeedItemProblem> {
      .failure(FeedItemProblem(index: index, field: field, value: value?.quoted, reason: reason))
    }
    let number: Double
    switch value {
    case nil, .null?: return problem(.missing)
    case .number(let text)?:
      guard let parsed = parseDecimal(text[...]) else { return problem(.notANumber) }
      number = parsed
    case .string(let text)?:
      guard let parsed = parseDecimal(text[...]) else { return problem(.notANumber) }
      number = parsed
    case .bool?, .array?, .object?: return problem(.notANumber)
    }
    guard number.isFinite else { return problem(.notFinite) }
    guard number > 0 else { return problem(.notPositive) }
    return .success(number)
  }
}

/// `text` as a JSON string literal, for messages.
private func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}
