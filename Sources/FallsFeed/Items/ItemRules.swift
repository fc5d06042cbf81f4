import FallsBase
import FallsCore

/// The rules of a feed item, the one statement of them: what each field must be, and the
/// problem named when it is not.
///
/// - `width` and `height`: a positive, finite number, as a JSON number or as a string holding a
///   plain decimal number (`"1200"`, `"2249.5"`, `"1e3"`).
/// - `img`: a string, the image's URL.
/// - `span`: absent or `null` for one column, `"full"` (in any case) for every column, or a whole
///   number of columns of at least 1, as a number or a string.
///
/// The fields are checked in that order, and the first that breaks its rule is the problem. When
/// the sizes are to be read from the images, a missing or refused width or height is no size,
/// not a problem (``check(_:index:in:allowingMissingSizes:)``).
enum ItemRules {
  /// One field of an item as the reader found it: what kind of JSON value, and where its text
  /// lies.
  enum Field {
    case null
    case boolean(Bool)
    case number(Range<Int>)
    case string(JSONScanner.StringToken)
    case array
    case object

    /// The field that `token` is: a scalar as it lies, a container only named.
    init(_ token: JSONScanner.Token) {
      self =
        switch token {
        case .null: .null
        case .boolean(let value): .boolean(value)
        case .number(let text): .number(text)
        case .string(let string): .string(string)
        case .array, .emptyArray: .array
        case .object, .emptyObject: .object
        }
    }
  }

  /// The fields of an item that the rules read.
  enum FieldName {
    case img, width, height, span

    /// The field as a problem names it.
    var field: FeedField {
      switch self {
      case .img: .img
      case .width: .width
      case .height: .height
      case .span: .span
      }
    }
  }

  /// An item's fields, the last value of each key given twice.
  struct Fields {
    var img: Field?
    var width: Field?
    var height: Field?
    var span: Field?

    subscript(name: FieldName) -> Field? {
      get {
        switch name {
        case .img: img
        case .width: width
        case .height: height
        case .span: span
        }
      }
      set {
        switch name {
        case .img: img = newValue
        case .width: width = newValue
        case .height: height = newValue
        case .span: span = newValue
        }
      }
    }
  }

  /// The width, height and span of the item at feed index `index`, or its first problem; the
  /// field values are read out of `scanner`'s bytes.
  ///
  /// With `allowingMissingSizes` (a feed whose sizes are to be read from its images:
  /// `falls probe`, `--sizes images` or `fill`), an item whose width or height is missing or
  /// breaks its rule has no size: both are 0, and the item is kept. When it declared a size
  /// that is refused (one of the two given, or either wrong), `sizeProblem` says why; the
  /// image and the span are held to their rules still.
  static func check(
    _ fields: Fields, index: Int, in scanner: JSONScanner, allowingMissingSizes: Bool = false
  ) -> Result<
    (width: Double, height: Double, span: Int, sizeProblem: FeedItemProblem?), FeedItemProblem
  > {
    /// `value` read by `rule`, or the problem that names the field.
    func read<Value>(
      _ field: FeedField, _ value: Field?,
      by rule: (Field?, JSONScanner) throws(FeedItemProblem.Reason) -> Value
    ) throws(FeedItemProblem) -> Value {
      do {
        return try rule(value, scanner)
      } catch {
        throw FeedItemProblem(
          index: index, field: field, value: value.map { quoted($0, in: scanner) }, reason: error)
      }
    }
    func isMissing(_ value: Field?) -> Bool {
      switch value {
      case nil, .null?: true
      default: false
      }
    }
    return Result { () throws(FeedItemProblem) in
      if allowingMissingSizes {
        // Missing or refused, a size is none; why a declared one was refused is kept.
        var size = (width: 0.0, height: 0.0)
        var sizeProblem: FeedItemProblem?
        if !isMissing(fields.width) || !isMissing(fields.height) {
          do throws(FeedItemProblem) {
            size = (
              try read(.width, fields.width, by: length),
              try read(.height, fields.height, by: length)
            )
          } catch {
            sizeProblem = error
          }
        }
        try read(.img, fields.img, by: image)
        return (size.width, size.height, try read(.span, fields.span, by: span), sizeProblem)
      }
      let width = try read(.width, fields.width, by: length)
      let height = try read(.height, fields.height, by: length)
      try read(.img, fields.img, by: image)
      return (width, height, try read(.span, fields.span, by: span), nil)
    }
  }

  /// A width or height: a positive, finite number, or a string holding one.
  private static func length(_ value: Field?, in scanner: JSONScanner)
    throws(FeedItemProblem.Reason) -> Double
  {
    let number: Double?
    switch value {
    case nil, .null?: throw .missing
    case .number(let text)?: number = decimal(text, in: scanner)
    case .string(let token)?:
      number =
        token.isPlain
        ? decimal(token.contents, in: scanner) : parseDecimal(scanner.text(of: token))
    case .boolean?, .array?, .object?: throw .notANumber
    }
    guard let number else { throw .notANumber }
    guard number.isFinite else { throw .notFinite }
    guard number > 0 else { throw .notPositive }
    return number
  }

  /// An image URL: a string.
  private static func image(_ value: Field?, in _: JSONScanner) throws(FeedItemProblem.Reason) {
    switch value {
    case .string?: return
    case nil, .null?: throw .missing
    case .boolean?, .number?, .array?, .object?: throw .notAString
    }
  }

  /// The span a value asks for: absent or null is 1, `"full"` every column, otherwise a whole
  /// number of at least 1 (as a number or a string).
  private static func span(_ value: Field?, in scanner: JSONScanner)
    throws(FeedItemProblem.Reason) -> Int
  {
    let number: Double?
    switch value {
    case nil, .null?: return 1
    case .string(let token)?:
      let text = scanner.text(of: token)
      if text.lowercased() == "full" { return LayoutItem.fullSpan }
      number = parseDecimal(text)
    case .number(let text)?: number = decimal(text, in: scanner)
    case .boolean?, .array?, .object?: throw .invalidSpan
    }
    guard let number, number >= 1, number.rounded() == number, number < 1e9 else {
      throw .invalidSpan
    }
    return Int(number)
  }

  /// The decimal number the ASCII bytes `text` spell (see `parseDecimal`); a run of up to 15
  /// digits is read directly, exactly the Double that parsing its text gives.
  @inline(__always)
  private static func decimal(_ text: Range<Int>, in scanner: JSONScanner) -> Double? {
    let bytes = UnsafeBufferPointer(rebasing: scanner.bytes[text])
    if let whole = wholeDecimal(bytes) { return whole }
    return parseDecimal(Substring(decoding: bytes, as: UTF8.self))
  }

  /// A field's value in JSON notation, as the feed wrote it, for a message; containers are
  /// only named.
  static func quoted(_ value: Field, in scanner: JSONScanner) -> String {
    switch value {
    case .null: "null"
    case .boolean(let value): value ? "true" : "false"
    case .number(let text):
      shortenedForMessage(
        String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[text]), as: UTF8.self))
    case .string(let token): FeedItemProblem.quoted(scanner.text(of: token))
    // Containers only named, as the scanner names a token's kind (FeedItemProblem.valueType
    // reads these names back).
    case .array: JSONScanner.Token.emptyArray.kindName
    case .object: JSONScanner.Token.emptyObject.kindName
    }
  }

  /// A value that is not an object where an item should be, in JSON notation.
  static func quoted(_ token: JSONScanner.Token, in scanner: JSONScanner) -> String {
    quoted(Field(token), in: scanner)
  }
}

/// `text` as a JSON string literal, for messages.
func jsonQuoted(_ text: String) -> String {
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
