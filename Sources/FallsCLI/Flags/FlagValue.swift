import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// A flag's value as given, and the readers of every kind of value: each returns the value or
/// throws the usage error that names the flag, the text and what was expected.
struct FlagValue {
  /// The flag's name, without dashes.
  let flag: String
  /// The text given.
  let text: String

  /// A usage error: the value is not what the flag takes. `example` is the value part of an
  /// example (`3` for `--columns 3`).
  func invalid(expected: String, example: String? = nil) -> CLIError {
    let tail = example.map { " (e.g. --\(flag) \($0))" } ?? ""
    let shown = shownInMessage(redactingCredentials(text))
    return LayoutCommand.usage(
      "invalid value '\(shown)' for '--\(flag)'; expected \(expected)\(tail)")
  }

  /// A plain decimal number (`parseDecimal`).
  func number(example: String) throws(CLIError) -> Double {
    guard let value = parseDecimal(text) else {
      throw invalid(expected: "a decimal number", example: example)
    }
    return value
  }

  /// A number within `range`, which the message describes as `noun` and the range's bounds
  /// when it is not.
  func number(in range: ValueRange, of noun: String = "a number", example: String)
    throws(CLIError) -> Double
  {
    let value = try number(example: example)
    guard range.contains(value) else { throw invalid(expected: range.words(noun)) }
    return value
  }

  /// A whole number within `range`.
  func whole<Integer: FixedWidthInteger>(in range: ClosedRange<Integer>, example: String)
    throws(CLIError) -> Integer
  {
    guard let value = Integer(text), range.contains(value) else {
      throw invalid(
        expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
        example: example)
    }
    return value
  }

  /// One of the cases of `Choice`, by its raw value in any case; when it is none of them, the
  /// message lists them: "A or B", or "one of A, B, C".
  func choice<Choice: CaseIterable & RawRepresentable>(
    _: Choice.Type, naming offered: [Choice]? = nil
  ) throws(CLIError) -> Choice
  where Choice.RawValue == String {
    if let choice = Choice.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
    {
      return choice
    }
    // A value of none is refused naming those the command offers, when it offers fewer.
    let names = offered.map { $0.map(\.rawValue) } ?? Choice.names
    throw invalid(
      expected: names.count == 2
        ? "\(names[0]) or \(names[1])" : "one of \(names.joined(separator: ", "))")
  }

  /// Numbers separated by commas, as many as one of `counts`.
  func numbers(counts: Set<Int>, example: String) throws(CLIError) -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let values = parts.compactMap { parseDecimal(String($0)) }
    guard values.count == parts.count, counts.contains(values.count) else {
      let shape = counts.sorted().map { $0 == 1 ? "one number" : "\($0) numbers" }
        .joined(separator: " or ")
      throw invalid(expected: "\(shape), separated by commas", example: example)
    }
    return values
  }

  /// Insets in CSS's forms, by commas or blanks: one value for every edge; two for top and
  /// bottom, then left and right; three for top, left and right, bottom; four for top, right,
  /// bottom, left (clockwise, as CSS's `padding`).
  func insets() throws(CLIError) -> EdgeInsets {
    let separators: Set<Character> = text.contains(",") ? [","] : [" ", "\t"]
    let parts = text.split(omittingEmptySubsequences: !separators.contains(",")) {
      separators.contains($0)
    }
    let values = parts.compactMap { part in
      parseDecimal(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
    }
    guard values.count == parts.count, (1...4).contains(values.count) else {
      throw invalid(
        expected: "1 to 4 numbers as CSS's padding takes them: ALL, V,H, T,H,B or T,R,B,L",
        example: "10,20")
    }
    let (top, right) = (values[0], values.count > 1 ? values[1] : values[0])
    let bottom = values.count > 2 ? values[2] : top
    let left = values.count > 3 ? values[3] : right
    return EdgeInsets(top: top, left: left, bottom: bottom, right: right)
  }

  /// A quilt of tile spans as `CxR` separated by commas, for `columns` columns.
  func pattern(columns: Int) throws(CLIError) -> QuiltPattern {
    var spans: [(columns: Int, rows: Int)] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let sides = part.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) else {
        throw invalid(expected: "tile spans as CxR separated by commas", example: "2x2,1x1,1x1")
      }
      spans.append((width, height))
    }
    do {
      return try QuiltPattern(spans: spans, columns: columns)
    } catch {
      let detail =
        switch error {
        case .empty: "it has no tiles"
        case .invalidSpan(let index):
          "tile \(index + 1) has a span outside 1 to \(QuiltPattern.maximumSpan)"
        case .outOfBounds(let index, let columns):
          "tile \(index + 1) is wider than the \(columns) columns"
        case .overlap(let index): "tile \(index + 1) overlaps another"
        }
      throw LayoutCommand.usage("--\(flag) '\(shownInMessage(text))': \(detail)")
    }
  }

  /// What a path of keys is, as a message says it: what ``FeedShape/path(_:)`` reads.
  static let pathWords =
    "keys joined by dots, none of them empty, an array's element by its index from 0 in "
    + "brackets or after a dot"

  /// A path of keys joined by dots (`result.list`, `.results`, `pages[0].list`), as
  /// ``FeedShape/path(_:)`` reads it; `.` is the top level.
  func keyPath() throws(CLIError) -> [String] {
    guard let path = FeedShape.path(text) else {
      throw invalid(expected: Self.pathWords, example: "result.list")
    }
    return path
  }

  /// The keys of an item's fields, `FIELD=KEY,…` with each KEY a path of keys joined by dots,
  /// set in `shape`. Each field is given at most once, and no field's key is another's or the
  /// start of it (a value cannot be both a size and an object holding one).
  func itemKeys(into shape: inout FeedShape) throws(CLIError) {
    let fields: [FeedField] = [.img, .width, .height, .span]
    let names = fields.map(\.rawValue).joined(separator: ", ")
    var given: [FeedField: [String]] = [:]
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let sides = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard sides.count == 2, let field = FeedField(rawValue: String(sides[0])),
        fields.contains(field)
      else {
        throw invalid(
          expected: "FIELD=KEY separated by commas, each FIELD one of \(names)",
          example: "img=url,width=size.w,height=size.h")
      }
      guard given[field] == nil else {
        throw LayoutCommand.usage("--\(flag) gives \(field.rawValue) twice; give each field once")
      }
      guard let path = FeedShape.path(String(sides[1])), !path.isEmpty else {
        throw invalid(
          expected: "the key of \(field.rawValue) as \(Self.pathWords)",
          example: "\(field.rawValue)=size.\(field.rawValue.prefix(1))")
      }
      given[field] = path
    }
    // A repeated --keys keeps its last value, as every flag does.
    var shaped = FeedShape(items: shape.items)
    shaped.img = given[.img] ?? shaped.img
    shaped.width = given[.width] ?? shaped.width
    shaped.height = given[.height] ?? shaped.height
    shaped.span = given[.span] ?? shaped.span
    for field in fields {
      for other in fields where other != field {
        let (path, otherPath) = (shaped.path(of: field), shaped.path(of: other))
        guard otherPath.count >= path.count, Array(otherPath.prefix(path.count)) == path else {
          continue
        }
        let key = shownInMessage(FeedShape.text(of: path))
        throw LayoutCommand.usage(
          "--\(flag): '\(key)' is the key of \(field.rawValue)"
            + (otherPath == path
              ? " and of \(other.rawValue)"
              : " and the start of \(other.rawValue)'s '\(shownInMessage(FeedShape.text(of: otherPath)))'")
            + "; each field needs a key of its own")
      }
    }
    shape = shaped
  }

  /// Where the feed comes from: `-` for standard input, an http or https URL, or a file.
  func feedSource() throws(CLIError) -> FeedSource {
    if text == "-" { return .standardInput }
    if text.isEmpty { throw invalid(expected: "a URL, a file path, or - for standard input") }
    // A file: URL names a file, read as a path is (curl reads them too).
    if text.lowercased().hasPrefix("file:") {
      guard let url = URL(string: text), url.isFileURL,
        url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true,
        !url.path.isEmpty
      else {
        throw invalid(
          expected: "a file URL of this machine, file:///path/to/feed.json",
          example: "file:///tmp/feed.json")
      }
      return .file(url.path)
    }
    guard FeedURLTemplate.looksLikeURL(text) else { return .file(text) }
    do {
      return .url(try FeedURLTemplate(text))
    } catch {
      let what =
        switch error {
        case .unparseable: "is not a valid URL"
        case .unsupportedScheme(let scheme): "has the scheme '\(shownInMessage(scheme ?? ""))'"
        case .noHost: "has no host"
        case .unknownPlaceholder(let name):
          "has the placeholder {\(shownInMessage(name))}, which falls does not fill "
            + "in; the placeholders are {page} (the page number, from 1) and {size} "
            + "(--page-size), and a literal brace is written %7B or %7D"
        }
      let expected =
        if case .unknownPlaceholder = error { "" } else {
          "; expected an http or https URL (e.g. --\(flag) https://example.com/feed.json), a "
            + "file path, or -"
        }
      throw LayoutCommand.usage(
        "--\(flag) '\(shownInMessage(redactingCredentials(text)))' \(what)\(expected)")
    }
  }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
  /// The raw values of the cases, as flags take them.
  static var names: [String] { allCases.map(\.rawValue) }
}
