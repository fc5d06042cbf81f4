import FallsBase
import FallsFeed
import Foundation

/// What `falls probe` found of one item: the feed's size beside its image's.
struct ProbedItem: Sendable {
  /// How the item's image agrees with the feed; its raw value is the word every document and
  /// table writes, in camelCase as every key: `notAnImage`.
  enum Status: String, CaseIterable, Sendable {
    /// The image's ratio is the feed's, within the tolerance.
    case ok
    /// The image's ratio is off the feed's by more than the tolerance.
    case mismatch
    /// The feed gives no size; the image's is the one to use.
    case missing
    /// No answer, a non-2xx status, a file that cannot be read.
    case unreachable
    /// An HTML page, text, or no known image header in the bytes it may read.
    case notAnImage
    /// Not read, by rule: a local file named by a remote feed, another scheme, a file that is
    /// not a regular one.
    case refused

    /// The status in a sentence: "not an image".
    var words: String {
      rawValue.unicodeScalars.reduce(into: "") { words, scalar in
        if scalar.properties.isUppercase { words += " " }
        words += String(scalar).lowercased()
      }
    }

  }

  var index: Int
  var img: String
  /// The feed's width and height, or `nil` when it gives none or they are refused.
  var declared: (width: Double, height: Double)?
  /// Why the feed's width and height were refused, when it gave them and they were.
  var declaredError: String?
  var probe: ImageProbe
  var status: Status

  /// The item's status: what its image is, and against the feed's ratio, within `tolerance`
  /// (a fraction of the image's ratio). `declaredProblem` is why the feed's size of the item
  /// was refused, if it was: the item is then as one without a size.
  init(
    _ item: FeedItem, probe: ImageProbe, tolerance: Double,
    declaredProblem: FeedItemProblem? = nil
  ) {
    index = item.index
    img = item.img
    declared = item.hasSize ? (item.width, item.height) : nil
    declaredError = declaredProblem.map { problem in
      let prefix = "item \(problem.index): "
      let message = problem.message
      return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
    self.probe = probe
    switch probe.outcome {
    case .unreachable: status = .unreachable
    case .notAnImage: status = .notAnImage
    case .refused: status = .refused
    case .header(let header):
      guard let declared else {
        status = .missing
        return
      }
      let actual = Double(header.displayedHeight) / Double(header.displayedWidth)
      let given = declared.height / declared.width
      status = abs(given - actual) <= tolerance * actual ? .ok : .mismatch
    }
  }

  /// The feed's size as people read it, `37×23`, or `-` without one.
  var declaredText: String {
    declared.map { "\(formatNumber($0.width))×\(formatNumber($0.height))" } ?? "-"
  }

  /// The image's size as it is shown, `23×37`, or `-` where it was not read.
  var actualText: String {
    header.map { "\($0.displayedWidth)×\($0.displayedHeight)" } ?? "-"
  }

  /// The image's header, when it was read.
  var header: ImageHeader? {
    if case .header(let header) = probe.outcome { header } else { nil }
  }

  /// Why the image could not be read, when it could not.
  var error: String? {
    switch probe.outcome {
    case .header: nil
    case .notAnImage(let why), .unreachable(let why), .refused(let why): why
    }
  }
}

/// The items `falls probe` read, ready to be written as a table, JSON or JSON Lines.
struct ProbeReport: Sendable {
  var items: [ProbedItem]
  /// Where the feed came from (``FeedSource/name``).
  var feed: String
  var tolerance: Double
  /// The items `--skip-invalid` skipped, whose images were not probed, or `nil` without it.
  var skipped: [FeedItemProblem]? = nil
  /// The page that failed, with `--keep-partial`.
  var failedPage: LayoutReport.FailedPage? = nil

  /// The JSON schema name of `--format json`.
  static let schema = "falls.probe/2"

  /// How many items have each status, in the statuses' order.
  var counts: [(ProbedItem.Status, Int)] {
    ProbedItem.Status.allCases.map { status in (status, items.count { $0.status == status }) }
  }

  /// The verdict: status 1 when an item is not ok, saying how many and why; `nil` when every
  /// one is.
  var verdict: CLIError? {
    let failing = items.count { $0.status != .ok }
    guard failing > 0 else { return nil }
    let kinds = counts.filter { $0.0 != .ok && $0.1 > 0 }.map { "\($0.1) \($0.0.words)" }
    return .notAllPassed(
      "\(failing) of \(items.count) image\(items.count == 1 ? " is" : "s are") not ok ("
        + kinds.joined(separator: ", ") + ")")
  }

  /// "14 images: 9 ok, 2 mismatch, 1 missing, 1 unreachable, 1 not an image"; statuses no item
  /// has are left out.
  var summary: String {
    let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0.words)" }
    let noun = items.count == 1 ? "image" : "images"
    return "\(items.count) \(noun)" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
  }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    switch format {
    case .json:
      out.appendDocumentStart(schema: Self.schema)
      out.appendLiteral(",\"feed\":")
      out.appendJSONString(feed)
      out.appendLiteral(",\"tolerance\":")
      out.appendNumber(tolerance)
      out.appendLiteral(",\"summary\":{\"images\":")
      out.appendInteger(items.count)
      for (status, count) in counts {
        out.appendLiteral(",")
        out.appendJSONString(status.rawValue)
        out.appendLiteral(":")
        out.appendInteger(count)
      }
      out.appendLiteral("}")
      try out.appendLeftOut(skipped: skipped, failedPage: failedPage)
      out.appendLiteral(",\"items\":")
      try out.appendJSONArray(items) { item, out in appendJSON(item, to: &out) }
      out.appendLiteral("}\n")
    case .jsonl:
      for item in items {
        appendJSON(item, to: &out)
        out.appendLiteral("\n")
        try out.flushIfFull()
      }
    default:
      try writeTable(to: &out)
    }
    try out.flush()
  }

  /// One item as a JSON object: its keys in a fixed order, `declaredError` and `error` only when
  /// there is one.
  private func appendJSON(_ item: ProbedItem, to out: inout OutputBuffer) {
    out.appendLiteral("{\"index\":")
    out.appendInteger(item.index)
    out.appendLiteral(",\"img\":")
    out.appendJSONString(item.img)
    // A size as {"width","height"}, or null; a whole number is written as an integer.
    func appendSize(_ size: (width: Double, height: Double)?) {
      guard let size else { return out.appendLiteral("null") }
      out.appendLiteral("{\"width\":")
      out.appendNumber(size.width)
      out.appendLiteral(",\"height\":")
      out.appendNumber(size.height)
      out.appendLiteral("}")
    }
    out.appendLiteral(",\"declared\":")
    appendSize(item.declared)
    if let declaredError = item.declaredError {
      out.appendLiteral(",\"declaredError\":")
      out.appendJSONString(declaredError)
    }
    out.appendLiteral(",\"actual\":")
    if let header = item.header {
      appendSize((Double(header.displayedWidth), Double(header.displayedHeight)))
      out.appendLiteral(",\"format\":")
      out.appendJSONString(header.format.rawValue)
      out.appendLiteral(",\"orientation\":")
      out.appendInteger(header.orientation)
    } else {
      out.appendLiteral("null,\"format\":null,\"orientation\":null")
    }
    out.appendLiteral(",\"bytes\":")
    out.appendInteger(item.probe.headerBytes)
    out.appendLiteral(",\"status\":")
    out.appendJSONString(item.status.rawValue)
    if let error = item.error {
      out.appendLiteral(",\"error\":")
      out.appendJSONString(error)
    }
    out.appendLiteral("}")
  }

  /// The table for people: a row an item, what went wrong with each below it, and the counts.
  private func writeTable(to out: inout OutputBuffer) throws(SystemError) {
    let header = ["index", "status", "declared", "actual", "format", "orient", "bytes", "img"]
    var rows: [[String]] = [header]
    for item in items {
      let header = item.header
      rows.append([
        String(item.index), item.status.rawValue,
        item.declaredText, item.actualText,
        header?.format.rawValue ?? "-", header.map { String($0.orientation) } ?? "-",
        String(item.probe.headerBytes), escapingControlCharacters(item.img),
      ])
    }
    let widths = (0..<header.count - 1).map { column in
      rows.map { displayWidth($0[column]) }.max() ?? 0
    }
    for row in rows {
      var line = ""
      for (column, cell) in row.enumerated() {
        guard column < widths.count else {
          line += cell
          continue
        }
        let pad = String(repeating: " ", count: widths[column] - displayWidth(cell))
        // Numbers to the right, words to the left.
        line += ([0, 6].contains(column) ? pad + cell : cell + pad) + "  "
      }
      out.append(line + "\n")
      try out.flushIfFull()
    }
    for item in items {
      if let declaredError = item.declaredError {
        out.append(
          "item \(item.index): declared size refused: "
            + "\(escapingControlCharacters(declaredError))\n")
      }
      guard let error = item.error else { continue }
      out.append("item \(item.index): \(item.status.words): \(escapingControlCharacters(error))\n")
    }
    // What was left out is said with the counts: a probe over skipped items is not a plain one.
    out.append(summary + leftOutWords(skipped: skipped, failedPage: failedPage) + "\n")
  }
}
