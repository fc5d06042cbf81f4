import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The finderlist feed as Foundation's JSONDecoder reads it: the independent reference that the
/// fast parser and the diagnostic decoder are tested against, on JSON that every reader reads
/// alike (no key given twice: JSONDecoder keeps the first value, falls the last, as jq does).
///
/// Its validation follows docs/feeds.md's item rules, written apart from falls's.
public enum FoundationFeedReference {
  /// What the reference made of a document.
  public enum Outcome: Equatable {
    case feed(ReferenceFeed)
    /// JSONDecoder refused the bytes.
    case notJSON
    case noDataArray
  }

  /// The outcome of decoding `data` with JSONDecoder.
  public static func decode(_ data: Data) -> Outcome {
    do {
      let document = try JSONDecoder().decode(RawDocument.self, from: data)
      var feed = ReferenceFeed(items: [], problems: [])
      for (index, raw) in document.data.enumerated() {
        switch raw.validated(index: index) {
        case .success(let item): feed.items.append(item)
        case .failure(let problem): feed.problems.append(ReferenceProblem(problem))
        }
      }
      return .feed(feed)
    } catch is ReferenceFailure {
      return .noDataArray
    } catch {
      return .notJSON
    }
  }
}

extension FoundationFeedReference {
  /// Whether `bytes` hold a comma followed only by blanks before a closing bracket or brace,
  /// outside strings: the one place JSONDecoder is laxer than falls, which refuses a trailing
  /// comma as jq does.
  public static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
    var (inString, escaped, afterComma) = (false, false, false)
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): (inString, afterComma) = (true, false)
      case UInt8(ascii: ","): afterComma = true
      case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: afterComma = false
      }
    }
    return false
  }
}

/// A feed as the reference and falls can both state it: the items, and each problem's item,
/// field and reason (the value is quoted differently: JSONDecoder has lost a number's text).
public struct ReferenceFeed: Equatable {
  public var items: [FeedItem]
  public var problems: [ReferenceProblem]

  public init(items: [FeedItem], problems: [ReferenceProblem]) {
    self.items = items
    self.problems = problems
  }

  /// falls's feed in the same terms.
  public init(_ feed: Feed) {
    items = Array(feed.items)
    problems = feed.problems.map(ReferenceProblem.init)
  }
}

/// A problem without its quoted value.
public struct ReferenceProblem: Equatable {
  public var index: Int
  public var field: FeedField
  public var reason: FeedItemProblem.Reason

  public init(_ problem: FeedItemProblem) {
    index = problem.index
    field = problem.field
    reason = problem.reason
  }
}

private enum ReferenceFailure: Error {
  case noDataArray(String)
}

private struct RawDocument: Decodable {
  var data: [RawItem]

  private enum Key: String, CodingKey { case data }

  init(from decoder: any Decoder) throws {
    // A top-level array is the items themselves.
    if var items = try? decoder.unkeyedContainer() {
      var data: [RawItem] = []
      while !items.isAtEnd { data.append(try items.decode(RawItem.self)) }
      self.data = data
      return
    }
    guard let container = try? decoder.container(keyedBy: Key.self) else {
      throw ReferenceFailure.noDataArray("the top level is \(RawValue.kind(decoder))")
    }
    guard container.contains(.data) else {
      throw ReferenceFailure.noDataArray("the top-level object has no \"data\" key")
    }
    guard var items = try? container.nestedUnkeyedContainer(forKey: .data) else {
      let found = (try? container.decode(RawValue.self, forKey: .data))?.kindName ?? "not an array"
      throw ReferenceFailure.noDataArray("\"data\" is \(found)")
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

}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
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
    if notAnObject != nil {
      return .failure(
        FeedItemProblem(index: index, field: .item, value: nil, reason: .notAnObject)
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
        FeedItemProblem(index: index, field: .img, value: nil, reason: reason))
    }
    let columns: Int
    switch Self.span(self.span) {
    case .some(let value): columns = value
    case .none:
      return .failure(
        FeedItemProblem(index: index, field: .span, value: nil, reason: .invalidSpan))
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
      guard let number = parseDecimal(text) else { return nil }
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
        FeedItemProblem(index: index, field: field, value: nil, reason: .missing))
    case .number(let number)?:
      value = number
    case .string(let text)?:
      guard let number = parseDecimal(text) else {
        return .failure(
          FeedItemProblem(index: index, field: field, value: nil, reason: .notANumber))
      }
      value = number
    case .hugeNumber?:
      return .failure(
        FeedItemProblem(index: index, field: field, value: nil, reason: .notFinite))
    case .bool?, .array?, .object?:
      return .failure(
        FeedItemProblem(index: index, field: field, value: nil, reason: .notANumber))
    }
    guard value.isFinite else {
      return .failure(
        FeedItemProblem(index: index, field: field, value: nil, reason: .notFinite))
    }
    guard value > 0 else {
      return .failure(
        FeedItemProblem(index: index, field: field, value: nil, reason: .notPositive))
    }
    return .success(value)
  }
}
