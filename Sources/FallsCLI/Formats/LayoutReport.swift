import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// A finished layout with the feed items it placed, ready to be written.
struct LayoutReport: Sendable {
  /// The one section: its header, the layout of its items, its footer.
  var sectioned: SectionedLayout
  /// Element `i` of the section's layout places `items.items[i]`.
  var items: PlacedItems
  /// Write only the elements intersecting this rectangle.
  var rect: Rect?
  /// The fields `--fields` chose, or `nil` for every field of the format.
  var fields: Set<String>?
  /// The width of the terminal the output goes to, or `nil` when it does not go to one.
  var terminalColumns: Int?
  /// Write only the quality figures (`--quality`).
  var showsQualityOnly = false
  /// Where the feed came from, for the JSON document's `feed` (``FeedSource/name``); `nil` for
  /// a layout made without a feed (``LayoutWriter``), whose document has no `feed`.
  var feed: String?
  /// The invalid items `--skip-invalid` skipped, each with why; `nil` without `--skip-invalid`,
  /// when the documents have no `skipped`.
  var skipped: [FeedItemProblem]?
  /// The page that failed, with `--keep-partial`, after which the pages that arrived were laid
  /// out; `nil` when every page asked for arrived.
  var failedPage: FailedPage?

  /// What was written while the pages arrived (``PagedLayout``): the lines of the first
  /// `positions` elements, in the order of ``SectionedLayout/forEachElement(in:_:)``, and of the
  /// first `skipped` items skipped; `nil` when nothing was.
  var streamed: Streamed?

  /// See ``streamed``.
  struct Streamed: Sendable, Equatable {
    var positions = 0
    var skipped = 0
  }

  /// A page of a URL feed that failed, with `--keep-partial`: `page` of `pages`, and why.
  struct FailedPage: Sendable, Equatable {
    var page: Int
    var pages: Int
    var error: String
  }

  /// The JSON schema name written into `--format json` output: the one its reader
  /// (``LayoutDocument``, for `falls diff`) requires.
  static let schema = LayoutDocument.schema

  /// The section's layout of the items.
  var layout: WaterfallLayout { sectioned.layouts[0] }

  /// Calls `body` with each element to write, in order: all of them, streamed, or those meeting
  /// the rectangle.
  func forEachSelected<Failure: Error>(_ body: (SectionElement) throws(Failure) -> Void)
    throws(Failure)
  {
    guard let rect else { return try sectioned.forEachElement(body) }
    for element in sectioned.elements(in: rect) { try body(element) }
  }

  /// Calls `body` with each element to write at `positions` of the order of
  /// ``SectionedLayout/forEachElement(in:_:)``: all of them, or those meeting the rectangle.
  func forEachSelected<Failure: Error>(
    at positions: Range<Int>, _ body: (SectionElement) throws(Failure) -> Void
  ) throws(Failure) {
    guard positions != 0..<Int.max else { return try forEachSelected(body) }
    try sectioned.forEachElement(in: positions) { (element) throws(Failure) in
      if rect.map(element.frame.intersects) ?? true { try body(element) }
    }
  }

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    if showsQualityOnly, let quality = items.quality(of: layout) {
      writeQuality(quality, as: format, to: &out)
      return try out.flush()
    }
    switch format {
    case .json: try writeJSON(to: &out)
    case .jsonl: try writeJSONLines(to: &out)
    case .table: try writeTable(to: &out)
    case .svg: try writeSVG(to: &out)
    case .html: try writeHTML(to: &out)
    }
    try out.flush()
  }

  /// The fields `--fields` may choose in `format` for `style`: the keys of the JSON objects,
  /// or the columns of the table; none for the pictures.
  static func fieldNames(format: OutputFormat, style: LayoutStyle) -> [String] {
    switch format {
    case .json, .jsonl: ElementField.names(for: style)
    case .table: TableField.fields(for: style).map(\.rawValue)
    case .svg, .html: []
    }
  }

  /// How the items are placed, for people: "50 items in 3 columns of 111.67 pt, width 375 pt",
  /// or for a ring style "12 items of 260×100 pt in a 375×667 pt viewport".
  var placement: String {
    let configuration = layout.configuration
    let count = layout.elements.count
    let itemCount = "\(count) item\(count == 1 ? "" : "s")"
    if configuration.style.hasTransforms {
      let size = configuration.resolvedItemSize
      return "\(itemCount) of \(formatNumber(size.width))×\(formatNumber(size.height)) pt in a "
        + "\(formatNumber(configuration.width))×\(formatNumber(configuration.viewportHeight)) pt "
        + "viewport"
    }
    let lanes = configuration.axis == .vertical ? "column" : "row"
    let grid = configuration.scale.map { " on the 1/\(formatNumber($0)) pt grid" } ?? ""
    let alignment = alignmentFlags.map { ", " + $0.joined(separator: " ") } ?? ""
    return
      "\(itemCount) in \(configuration.columns) \(lanes)\(configuration.columns == 1 ? "" : "s") "
      + "of \(formatFixed(configuration.working.columnWidth)) pt\(grid), "
      + "width \(formatNumber(configuration.width)) pt\(alignment)"
  }

  /// How the columns were made to meet, as the flags that say it: `--align` always, then
  /// `--max-distortion` where it bounds something and is not the default, and `--flat-end`;
  /// `nil` for a style that does not align.
  var alignmentFlags: [String]? {
    let configuration = layout.configuration
    guard configuration.style.options.contains(.alignment) else { return nil }
    var flags = ["--align \(configuration.alignment.rawValue)"]
    if configuration.boundsDistortion,
      configuration.maxDistortion != LayoutConfiguration().maxDistortion
    {
      flags.append("--max-distortion \(formatNumber(configuration.maxDistortion))")
    }
    if configuration.flatEnd { flags.append("--flat-end") }
    return flags
  }

  /// One line about the layout, for the titles and headers of the pictures.
  var summary: String {
    "falls \(layout.configuration.style.rawValue) layout: \(placement)"
  }
}

extension OutputBuffer {
  /// Appends the x, y, width and height of `frame`, each after its label in `labels`: the
  /// attributes of an SVG rectangle, the position of an HTML box.
  mutating func appendFrame(
    _ frame: Rect, labels: (StaticString, StaticString, StaticString, StaticString)
  ) {
    for (label, value) in [
      (labels.0, frame.x), (labels.1, frame.y), (labels.2, frame.width), (labels.3, frame.height),
    ] {
      appendLiteral(label)
      appendNumber(value)
    }
  }
}
