import FallsCore
import Foundation

/// A `falls.layout/1` JSON document read back with Foundation's JSONDecoder, independent of the
/// writer.
///
/// Not JSONSerialization: on Linux it misreads some doubles by an ulp (it reads
/// 1328.8497821467556 as 1328.8497821467554), while JSONDecoder, Python and jq read them right.
public struct ParsedLayout {
  public struct Item: Decodable {
    public var kind: String
    public var index: Int
    public var page: Int
    public var column: Int
    public var span: Int
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var enlarged: Bool
    public var aligned: Bool
    public var img: String
  }

  private struct Document: Decodable {
    struct Insets: Decodable {
      var top: Double
      var left: Double
      var bottom: Double
      var right: Double
    }
    var schema: String
    var style: String
    var width: Double
    var columns: Int
    var columnSpacing: Double
    var rowSpacing: Double
    var insets: Insets
    var seed: UInt64
    var alignment: String?
    var maxDistortion: Double?
    var flatEnd: Bool?
    var contentHeight: Double
    var contentWidth: Double?
    var items: [Element]
  }

  /// A header or footer band.
  public struct Band: Decodable, Equatable {
    public var kind: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(kind: String, x: Double, y: Double, width: Double, height: Double) {
      self.kind = kind
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  /// Any element: an item, or a header or footer band.
  private enum Element: Decodable {
    case item(Item)
    case band(Band)

    private enum Key: String, CodingKey { case kind }

    init(from decoder: any Decoder) throws {
      let kind = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .kind)
      self = kind == "item" ? .item(try Item(from: decoder)) : .band(try Band(from: decoder))
    }
  }

  public struct Malformed: Error, CustomStringConvertible {
    public var description: String
  }

  public var schema: String
  public var configuration: LayoutConfiguration
  public var contentHeight: Double
  public var contentWidth: Double?
  public var elements: [LayoutElement]
  public var items: [Item]
  /// The headers and footers, in output order.
  public var bands: [Band]
  /// The kinds of every element, in output order.
  public var kinds: [String]
  /// The top-level keys in the order they appear in the text.
  public var keyOrder: [String]

  public init(json: Data) throws {
    let document = try JSONDecoder().decode(Document.self, from: json)
    guard let style = LayoutStyle(rawValue: document.style) else {
      throw Malformed(description: "unknown style \(document.style)")
    }
    schema = document.schema
    configuration = LayoutConfiguration(
      style: style, width: document.width, columns: document.columns,
      columnSpacing: document.columnSpacing, rowSpacing: document.rowSpacing,
      insets: EdgeInsets(
        top: document.insets.top, left: document.insets.left, bottom: document.insets.bottom,
        right: document.insets.right),
      seed: document.seed)
    if let alignment = document.alignment {
      guard let strategy = AlignmentStrategy(rawValue: alignment) else {
        throw Malformed(description: "unknown alignment \(alignment)")
      }
      configuration.alignment = strategy
    }
    configuration.maxDistortion = document.maxDistortion ?? configuration.maxDistortion
    configuration.flatEnd = document.flatEnd ?? false
    contentHeight = document.contentHeight
    contentWidth = document.contentWidth
    items = document.items.compactMap { if case .item(let item) = $0 { item } else { nil } }
    bands = document.items.compactMap { if case .band(let band) = $0 { band } else { nil } }
    kinds = document.items.map {
      switch $0 {
      case .item: "item"
      case .band(let band): band.kind
      }
    }
    elements = items.enumerated().map { position, item in
      LayoutElement(
        index: position, column: item.column, span: item.span,
        frame: Rect(x: item.x, y: item.y, width: item.width, height: item.height),
        isEnlarged: item.enlarged, isAligned: item.aligned)
    }
    let text = String(decoding: json, as: UTF8.self)
    keyOrder = [
      "schema", "style", "width", "columns", "columnSpacing", "rowSpacing", "insets", "seed",
      "alignment", "flatEnd", "contentHeight", "quality", "items",
    ]
    .compactMap { key in text.range(of: "\"\(key)\":").map { (key, $0.lowerBound) } }
    .sorted { $0.1 < $1.1 }.map(\.0)
  }
}

/// The `index` of every item object in JSON Lines output, read with JSONDecoder.
public func itemIndices(ofJSONLines text: String) throws -> [Int] {
  struct Line: Decodable {
    var kind: String
    var index: Int?
  }
  return try text.split(separator: "\n").compactMap { line in
    let decoded = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    return decoded.kind == "item" ? decoded.index : nil
  }
}

/// Any JSON value, read with JSONDecoder: for walking every number of a document.
public enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Every number in the value, depth first.
  public var numbers: [Double] {
    switch self {
    case .number(let value): [value]
    case .array(let values): values.flatMap(\.numbers)
    case .object(let members): members.values.flatMap(\.numbers)
    case .null, .bool, .string: []
    }
  }
}
