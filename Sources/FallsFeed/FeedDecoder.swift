import FallsCore
import Foundation

/// Decodes the finderlist format: `{"data": [{"img": URL, "width": "1200", "height": "2249"}]}`.
///
/// Widths and heights may be strings holding a plain decimal number (`"1200"`, `"2249.5"`,
/// `"1e3"`) or JSON numbers. Keys other than `img`, `width` and `height` are ignored. Every
/// invalid item is reported with its index, field and value; none is dropped silently.
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
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``.
  public static func decode(_ bytes: FeedBytes) throws(FeedError) -> Feed {
    if let feed = FastFeedParser.parse(bytes.data, releasingReadPages: bytes.isFileMapping) {
      return feed
    }
    return try decodeWithFoundation(bytes.data)
  }

  /// Decodes with Foundation's `JSONDecoder` alone: the path that reports every problem, and
  /// the reference the fast path is tested against.
  ///
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``.
  static func decodeWithFoundation(_ bytes: Data) throws(FeedError) -> Feed {
    let document: RawDocument
    do {
      document = try JSONDecoder().decode(RawDocument.self, from: bytes)
    } catch let error as FeedError {
      throw error
    } catch {
      throw .notJSON(detail: JSONSyntax.firstError(in: bytes) ?? describe(error))
    }
    var feed = Feed(items: [])
    feed.items.reserveCapacity(document.data.count)
    for (index, raw) in document.data.enumerated() {
      switch raw.validated(index: index) {
      case .success(let item): feed.items.append(item)
      case .failure(let problem): feed.problems.append(problem)
      }
    }
    return feed
  }

  /// Reads a plain decimal number (`1200`, `-2.5`, `1e3`) as feeds and flags write them.
  ///
  /// - Returns: The value, or `nil` for anything else: empty text, spaces, hexadecimal, `nan`,
  ///   `inf`. A value too large for a Double reads as infinity.
  public static func number(from text: String) -> Double? {
    parseDecimal(text[...])
  }

  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as? NSError)?.userInfo["NSDebugDescription"]
      return (underlying as? String) ?? context.debugDescription
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context):
      return context.debugDescription
    @unknown default:
      return "\(error)"
    }
  }
}

/// Parses a plain decimal number: optional sign, digits with an optional fraction, an optional
/// exponent. Rejects what `Double.init(_:)` would also accept but a feed should not contain:
/// hexadecimal, `nan`, `inf`, surrounding spaces.
func parseDecimal(_ text: Substring) -> Double? {
  var digits = 0
  var index = text.startIndex
  func skipDigits() -> Int {
    var count = 0
    while index < text.endIndex, let ascii = text[index].asciiValue, (48...57).contains(ascii) {
      count += 1
      index = text.index(after: index)
    }
    return count
  }
  if index < text.endIndex, text[index] == "-" || text[index] == "+" {
    index = text.index(after: index)
  }
  digits += skipDigits()
  if index < text.endIndex, text[index] == "." {
    index = text.index(after: index)
    digits += skipDigits()
  }
  guard digits > 0 else { return nil }
  if index < text.endIndex, text[index] == "e" || text[index] == "E" {
    index = text.index(after: index)
    if index < text.endIndex, text[index] == "-" || text[index] == "+" {
      index = text.index(after: index)
    }
    guard skipDigits() > 0 else { return nil }
  }
  guard index == text.endIndex else { return nil }
  return Double(text)
}

private struct RawDocument: Decodable {
  var data: [RawItem]

  private enum Key: String, CodingKey { case data }

  init(from decoder: any Decoder) throws {
    guard let container = try? decoder.container(keyedBy: Key.self) else {
      throw FeedError.noDataArray(found: "the top level is \(RawValue.kind(decoder))")
    }
    guard container.contains(.data) else {
      throw FeedError.noDataArray(found: "the top-level object has no \"data\" key")
    }
    guard var items = try? container.nestedUnkeyedContainer(forKey: .data) else {
      let found = (try? container.decode(RawValue.self, forKey: .data))?.kindName ?? "not an array"
      throw FeedError.noDataArray(found: "\"data\" is \(found)")
    }
    var data: [RawItem] = []
    if let count = items.count { data.reserveCapacity(count) }
    while !items.isAtEnd { data.append(try items.decode(RawItem.self)) }
    self.data = data
  }
}

/// Any JSON value, kept just well enough to validate it and to quote it in a message.
private enum RawValue: Decodable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array
  case object
  /// A number too large for a Double.
  case hugeNumber

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Most likely first: a failed attempt throws, and throwing is what costs here.
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if (try? decoder.unkeyedContainer()) != nil {
      self = .array
    } else if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
      self = .object
    } else {
      self = .hugeNumber
    }
  }

  static func kind(_ decoder: any Decoder) -> String {
    (try? RawValue(from: decoder))?.kindName ?? "not an object"
  }

  var kindName: String {
    switch self {
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    case .array: "an array"
    case .object: "an object"
    case .hugeNumber: "a number"
    }
  }

  /// The value in JSON notation, for messages; containers are only named.
  var quoted: String {
    switch self {
    case .string(let text): jsonQuoted(text)
    case .number(let value):
      value.rounded() == value && abs(value) < 0x1p53 ? String(Int64(value)) : value.description
    case .bool(let value): value ? "true" : "false"
    case .null: "null"
    case .array: "an array"
    case .object: "an object"
    case .hugeNumber: "a number too large to represent"
    }
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

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

private struct RawItem: Decodable {
  var img: RawValue?
  var width: RawValue?
  var height: RawValue?
  var span: RawValue?
  /// Set when the item is not an object.
  var notAnObject: RawValue?

  private enum Key: String, CodingKey { case img, width, height, span }

  init(from decoder: any Decoder) throws {
    guard let container = try? decoder.container(keyedBy: Key.self) else {
      notAnObject = try RawValue(from: decoder)
      return
    }
    // `decodeIfPresent` reads null as absent; decode it to quote `null` in messages.
    func field(_ key: Key) throws -> RawValue? {
      container.contains(key) ? try container.decode(RawValue.self, forKey: key) : nil
    }
    img = try field(.img)
    width = try field(.width)
    height = try field(.height)
    span = try field(.span)
  }

  func validated(index: Int) -> Result<FeedItem, FeedItemProblem> {
    if let notAnObject {
      return .failure(
        FeedItemProblem(index: index, field: .item, value: notAnObject.quoted, reason: .notAnObject)
      )
    }
    let width: Double
    let height: Double
    switch Self.length(self.width, field: .width, index: index) {
    case .success(let value): width = value
    case .failure(let problem): return .failure(problem)
    }
    switch Self.length(self.height, field: .height, index: index) {
    case .success(let value): height = value
    case .failure(let problem): return .failure(problem)
    }
    guard case .string(let url) = img else {
      let reason: FeedItemProblem.Reason = (img == nil || img == .null) ? .missing : .notAString
      return .failure(
        FeedItemProblem(index: index, field: .img, value: img?.quoted, reason: reason))
    }
    let columns: Int
    switch Self.span(self.span) {
    case .some(let value): columns = value
    case .none:
      return .failure(
        FeedItemProblem(index: index, field: .span, value: self.span?.quoted, reason: .invalidSpan))
    }
    return .success(FeedItem(index: index, img: url, width: width, height: height, span: columns))
  }

  /// The span a raw value asks for: absent or null is 1, `"full"` every column, otherwise a
  /// whole number of at least 1 (as a number or a string); `nil` when it is none of these.
  private static func span(_ raw: RawValue?) -> Int? {
    let value: Double
    switch raw {
    case nil, .null?: return 1
    case .string(let text)?:
      if text.lowercased() == "full" { return LayoutItem.fullSpan }
      guard let number = parseDecimal(text[...]) else { return nil }
      value = number
    case .number(let number)?: value = number
    default: return nil
    }
    guard value >= 1, value.rounded() == value, value < 1e9 else { return nil }
    return Int(value)
  }

  private static func length(_ raw: RawValue?, field: FeedField, index: Int) -> Result<
    Double, FeedItemProblem
  > {
    let value: Double
    switch raw {
    case nil, .null?:
      return .failure(
        FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .missing))
    case .number(let number)?:
      value = number
    case .string(let text)?:
      guard let number = parseDecimal(text[...]) else {
        return .failure(
          FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .notANumber))
      }
      value = number
    case .hugeNumber?:
      return .failure(
        FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .notFinite))
    case .bool?, .array?, .object?:
      return .failure(
        FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .notANumber))
    }
    guard value.isFinite else {
      return .failure(
        FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .notFinite))
    }
    guard value > 0 else {
      return .failure(
        FeedItemProblem(index: index, field: field, value: raw?.quoted, reason: .notPositive))
    }
    return .success(value)
  }
}
