import FallsBase

/// A field of a feed item that a ``FeedItemProblem`` names.
public enum FeedField: String, Hashable, Sendable {
  case img
  case width
  case height
  case span
  /// The item as a whole (it is not a JSON object).
  case item
}

/// What is wrong with one item of a feed.
public struct FeedItemProblem: Error, Hashable, Sendable {
  /// Why a field's value was refused.
  public enum Reason: Error, Hashable, Sendable {
    /// The field is absent or `null`.
    case missing
    /// The value is not a number, nor a string holding a decimal number.
    case notANumber
    /// The value is a number but zero or negative.
    case notPositive
    /// The value is a number too large to represent (it reads as infinity).
    case notFinite
    /// The value should be a string.
    case notAString
    /// The item should be a JSON object.
    case notAnObject
    /// The span is not a whole number of at least 1 nor "full".
    case invalidSpan
    /// The width and height are valid, but the height they give in points is too large.
    case tooTall
    /// The width and height are valid, but the height they give in points rounds to 0.
    case tooShort
    /// The item's image, read for its size, could not be had; `why` says what happened.
    case imageUnreachable(String)
    /// The item's image, read for its size, is not read by rule (``ImageSource``); `why` says
    /// which rule.
    case imageRefused(String)
    /// The item's image, read for its size, is not an image falls reads; `why` says what it is.
    case notAnImage(String)
  }

  /// Whether the problem is the item's image's, read for its size (`--sizes`).
  public var isImages: Bool {
    switch reason {
    case .imageUnreachable, .imageRefused, .notAnImage: true
    default: false
    }
  }

  /// The item's position in the feed's `data` array, from 0.
  public var index: Int
  /// The field that was refused.
  public var field: FeedField
  /// The field's key as the feed's shape names it, its path written with dots (`size.w`): the
  /// field's name unless the shape puts it elsewhere (``FeedShape``).
  public var key: String
  /// The value as it appeared in the feed, in JSON notation (`"abc"`, `0`, `null`), or `nil`
  /// when the field is absent.
  public var value: String?
  /// Why it was refused.
  public var reason: Reason
  /// For a field missing at a path of more than one key: where the path stops in the item and
  /// what is there (`"size" is a string, not an object with the key "w"`).
  public var stop: String? {
    get { if case .stop(let stop)? = detail { stop } else { nil } }
    set { detail = newValue.map(Detail.stop) }
  }
  /// For a field missing at a key of its own: what the item has instead.
  public var hint: KeyHint? {
    get { if case .hint(let hint)? = detail { hint } else { nil } }
    set { detail = newValue.map(Detail.hint) }
  }

  /// What more is said of a missing field, held by reference: a problem travels with every
  /// item the reader checks, and stays small.
  private indirect enum Detail: Hashable, Sendable {
    case stop(String)
    case hint(KeyHint)
  }
  private var detail: Detail?

  /// The keys of an item that lacks a field, and the `--keys` that would read it when the guess
  /// is plain (`img=urls.small,width=w,height=h`).
  public struct KeyHint: Hashable, Sendable {
    /// The item's first five keys.
    public var keys: [String]
    /// How many keys the item has.
    public var count: Int
    /// The value of `--keys` that reads the missing fields, or `nil` when it is not plain.
    public var suggestion: String?
    /// For a value of a stream that reads as a page: the key of its one array, a value of
    /// `--items` that would read its elements as the items.
    public var items: String?
    /// Whether only the width or the height is missing: the image is there to read them from.
    public var lacksSizesOnly = false

    public init(
      keys: [String], count: Int, suggestion: String?, items: String? = nil,
      lacksSizesOnly: Bool = false
    ) {
      self.keys = keys
      self.count = count
      self.suggestion = suggestion
      self.items = items
      self.lacksSizesOnly = lacksSizesOnly
    }

    /// What a message says of it.
    var text: String {
      guard count > 0 else { return "the item is an empty object" }
      let listed = "the item's keys are " + FeedShape.listed(keys, count: count)
      if let items {
        return listed + "; if each value is a page of items at \"\(items)\", try --items "
          + shellWord(items)
      }
      // Sizes missing beside an image can be read from it.
      let fill = lacksSizesOnly ? ", or read the sizes from the images with --sizes fill" : ""
      guard let suggestion else {
        let fields = lacksSizesOnly ? "width=KEY,height=KEY" : "img=KEY,width=KEY,height=KEY"
        return listed + "; say where its fields are with --keys \(fields)" + fill
      }
      return listed + "; try --keys " + shellWord(suggestion) + fill
    }
  }

  /// The JSON type of the feed's value, by ``value``: `string`, `number`, `boolean`, `null`,
  /// `object`, `array`, or `missing` when the field is absent.
  public var valueType: String {
    switch value {
    case nil: "missing"
    case "null": "null"
    case "true", "false": "boolean"
    case JSONScanner.Token.emptyObject.kindName: "object"
    case JSONScanner.Token.emptyArray.kindName: "array"
    case let value? where value.hasPrefix("\""): "string"
    case _?: "number"
    }
  }

  /// A string value as ``value`` holds it: shortened as a message quotes it, then a JSON
  /// string literal, its quotes, backslashes and control characters escaped, so that the
  /// documents can write it as JSON.
  public static func quoted(_ text: String) -> String {
    jsonQuoted(shortenedForMessage(text))
  }

  /// Creates a problem report; `key` is the field's name unless given.
  public init(
    index: Int, field: FeedField, value: String?, reason: Reason, key: String? = nil
  ) {
    self.index = index
    self.field = field
    self.key = key ?? field.rawValue
    self.value = value
    self.reason = reason
  }

  /// One line for a person: the item, the field, the value and what was expected.
  public var message: String {
    let expected: String
    switch reason {
    case .missing where field == .img, .notAString: expected = "a string, the image's URL"
    case .missing, .notANumber, .notPositive, .notFinite:
      expected = "a positive number, as a string like \"1200\" or a JSON number"
    case .notAnObject:
      expected = "an object like {\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}"
    case .tooTall: expected = "a height/width ratio whose height in points is at most 1e300"
    case .tooShort:
      expected =
        "a height/width ratio whose height in points is above 0 and not lost in rounding "
        + "against the position it lands at (far below very tall items)"
    case .invalidSpan: expected = "a whole number of columns of at least 1, or \"full\""
    case .imageUnreachable, .notAnImage:
      expected = "an image falls reads (\(ImageFormat.listed))"
    case .imageRefused:
      expected =
        "an image falls may read: http, https or data: (a file of this machine too for a "
        + "local feed, or with --allow-local-images)"
    }
    let what: String
    switch (reason, value) {
    case (.missing, _), (_, nil):
      what = "\"\(key)\" is missing" + (stop.map { ": " + $0 } ?? "")
    case (.notAnObject, let value?): what = "the item is \(value), not an object"
    case (.tooTall, let value?):
      what = "\"\(key)\" \(value) makes it too tall to lay out"
    case (.imageUnreachable(let why), let value?):
      what = "its image \(value) could not be read: \(why)"
    case (.imageRefused(let why), let value?):
      what = "its image \(value) was not read: \(why)"
    case (.notAnImage(let why), let value?):
      what = "its image \(value) is not an image: \(why)"
    case (.tooShort, let value?):
      what = "\"\(key)\" \(value) makes it too short to lay out"
    case (_, let value?): what = "\"\(key)\" is \(value)"
    }
    return "item \(index): \(what); expected \(expected)" + (hint.map { "; " + $0.text } ?? "")
  }
}
