import FallsCore

// The rules of a layout document's values, and the keys and members they are read from.
extension LayoutDocument {
  /// What the value of a key must be: the one statement of the rules of a layout document.
  enum Rule {
    /// A whole number within the range.
    case whole(ClosedRange<Int>)
    /// A finite number, at least the bound when there is one.
    case finite(atLeast: Double?)
    case boolean
    /// One of the element kinds falls writes.
    case kind

    /// The rule of `key`; `nil` for a key whose value is not checked.
    static func of(_ key: Key) -> Rule? {
      switch key {
      case .index: .whole(0...(1 << 53 - 1))
      // Columns from 0, less than the most a layout has; spans of as many as a layout has.
      case .column:
        .whole(0...LayoutConfiguration.columnCounts.upperBound - 1)
      case .span: .whole(LayoutConfiguration.columnCounts)
      case .x, .y, .contentHeight, .contentWidth: .finite(atLeast: nil)
      case .width, .height: .finite(atLeast: 0)
      case .enlarged: .boolean
      case .kind: .kind
      case .schema, .items, .other: nil
      }
    }

    /// Whether the number `value` keeps the rule.
    func admits(_ value: Double) -> Bool {
      switch self {
      case .whole(let range):
        value.rounded() == value && value >= Double(range.lowerBound)
          && value <= Double(range.upperBound)
      case .finite(let bound): value.isFinite && value >= (bound ?? -.infinity)
      case .boolean, .kind: false
      }
    }

    /// What the rule asks for, for a message.
    var words: String {
      switch self {
      case .whole(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
      case .finite(nil): "a finite number"
      case .finite(let bound?): "a finite number of at least \(formatBound(bound))"
      case .boolean: "true or false"
      case .kind:
        ElementKind.allCases.map { "\"\($0.rawValue)\", " }.joined()
          + "\"\(skippedKind)\" or \"\(failedPageKind)\""
      }
    }

    private func formatBound(_ bound: Double) -> String {
      bound.rounded() == bound && abs(bound) < 0x1p53 ? String(Int(bound)) : String(bound)
    }
  }

  /// The keys a reader of a layout document knows; any other is skipped. The raw value is the
  /// key's slot in ``Members``.
  enum Key: Int, CaseIterable {
    /// An item's.
    case kind, index, x, y, width, height, column, span, enlarged
    /// A document's.
    case schema, items, contentHeight, contentWidth
    case other

    /// The key as the document spells it.
    var name: String { String(describing: self) }

    /// The key `token` spells, told apart by its length, then its bytes: no string is made for
    /// the keys of a million lines. A key with escapes is the key its text spells.
    @inline(__always)
    init(_ token: JSONScanner.StringToken, in scanner: JSONScanner) {
      func spells(_ word: StaticString) -> Bool { scanner.string(token, is: word) }
      self =
        switch token.isPlain ? token.contents.count : scanner.text(of: token).utf8.count {
        case 1 where spells("x"): .x
        case 1 where spells("y"): .y
        case 4 where spells("kind"): .kind
        case 4 where spells("span"): .span
        case 5 where spells("index"): .index
        case 5 where spells("width"): .width
        case 5 where spells("items"): .items
        case 6 where spells("height"): .height
        case 6 where spells("column"): .column
        case 6 where spells("schema"): .schema
        case 8 where spells("enlarged"): .enlarged
        case 12 where spells("contentWidth"): .contentWidth
        case 13 where spells("contentHeight"): .contentHeight
        default: .other
        }
    }
  }

  /// The members of an object that a reader keeps, each as it lies (the last of a key given
  /// twice), to be checked once the object is read.
  struct Members {
    /// A value for each ``Key``, by its raw value.
    private var values = InlineArray<14, ItemRules.Field?>(repeating: nil)
    /// Whether the object has an `items` key: it is a whole document.
    var hasItems = false

    var isDocument: Bool { hasItems || self[.schema] != nil }

    @inline(__always)
    subscript(key: Key) -> ItemRules.Field? {
      get { values[key.rawValue] }
      set { values[key.rawValue] = newValue }
    }
  }

  /// The `kind` of a jsonl line that names an item `--skip-invalid` skipped: read, and left out.
  static let skippedKind: StaticString = "skipped"
  /// The `kind` of a jsonl line that names a page that failed (`--keep-partial`): read, and
  /// left out.
  static let failedPageKind: StaticString = "failedPage"

  /// The item that `members` make, by the rules, or `nil` for a header or a footer; the first
  /// key, in the order of ``Key``, whose value breaks its rule is the failure, at `place`
  /// (worked out only then).
  static func item(_ members: Members, at place: @autoclosure () -> Place, in scanner: JSONScanner)
    throws(Failure) -> Items.Stored?
  {
    var isItem = true
    if let kind = members[.kind] {
      guard case .string(let text) = kind else {
        throw invalid(.kind, kind, at: place(), in: scanner)
      }
      // A line of kind "skipped" (jsonl with --skip-invalid) names an item not laid out, one
      // of kind "failedPage" (--keep-partial) a page: neither is an element.
      if scanner.string(text, is: "item") {
        isItem = true
      } else if scanner.string(text, is: skippedKind) || scanner.string(text, is: failedPageKind) {
        return nil
      } else if ElementKind(rawValue: scanner.text(of: text)) != nil {
        isItem = false
      } else {
        throw invalid(.kind, kind, at: place(), in: scanner)
      }
    }
    /// The number `key` gives, checked; a missing one is a failure when `isRequired`.
    func number(_ key: Key, isRequired: Bool) throws(Failure) -> Double? {
      guard !isRequired || members[key] != nil else {
        throw invalid(key, nil, at: place(), in: scanner)
      }
      return try checkedNumber(key, members[key], at: place(), in: scanner)
    }
    let index = try number(.index, isRequired: isItem)
    let x = try number(.x, isRequired: isItem)
    let y = try number(.y, isRequired: isItem)
    let width = try number(.width, isRequired: isItem)
    let height = try number(.height, isRequired: isItem)
    let column = try number(.column, isRequired: false)
    let span = try number(.span, isRequired: false)
    var enlarged = Items.Stored.noEnlargement
    switch members[.enlarged] {
    case nil: break
    case .boolean(let flag)?: enlarged = flag ? 1 : 0
    case let value?: throw invalid(.enlarged, value, at: place(), in: scanner)
    }
    guard isItem, let index, let x, let y, let width, let height else { return nil }
    // Whole numbers within their rules' ranges: each fits.
    return Items.Stored(
      index: Int(index), frame: Rect(x: x, y: y, width: width, height: height),
      column: column.map { Int32($0) } ?? Items.Stored.noColumn,
      span: span.map { Int32($0) } ?? Items.Stored.noSpan, enlarged: enlarged)
  }

  /// The number that `key` is given as `value`, by its rule, or `nil` when it is not given.
  ///
  /// - Throws: ``Failure/invalidValue(_:key:value:expected:)`` at `place` (worked out only
  ///   then) when it is not a number, or not one the rule admits.
  @inline(__always)
  static func checkedNumber(
    _ key: Key, _ value: ItemRules.Field?, at place: @autoclosure () -> Place?,
    in scanner: JSONScanner
  ) throws(Failure) -> Double? {
    guard let value else { return nil }
    guard case .number(let text) = value, let rule = Rule.of(key),
      case let number = LayoutDocument.number(UnsafeBufferPointer(rebasing: scanner.bytes[text])),
      rule.admits(number)
    else { throw invalid(key, value, at: place(), in: scanner) }
    return number
  }

  /// The failure of `key`'s `value` (`nil`: missing) at `place`.
  static func invalid(
    _ key: Key, _ value: ItemRules.Field?, at place: Place?, in scanner: JSONScanner
  ) -> Failure {
    .invalidValue(
      place, key: key.name, value: value.map { ItemRules.quoted($0, in: scanner) },
      expected: Rule.of(key)?.words ?? "")
  }
}
