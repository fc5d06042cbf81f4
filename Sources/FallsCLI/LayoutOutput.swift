import FallsCore
import FallsFeed

/// The output formats of `falls layout`.
public enum OutputFormat: String, CaseIterable, Sendable {
  /// Aligned columns for a person.
  case table
  /// One JSON document, schema `falls.layout/1`.
  case json
  /// One JSON item object per line.
  case jsonl
}

/// A finished layout with the feed items it placed, ready to be written.
struct LayoutReport {
  /// The layout; element `i` places `items[i]`.
  var layout: WaterfallLayout
  var items: [PlacedItem]

  /// The JSON schema name written into `--format json` output.
  static let schema = "falls.layout/1"

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    var out = OutputBuffer(sink: sink)
    switch format {
    case .json: try writeJSON(to: &out)
    case .jsonl: try writeJSONLines(to: &out)
    case .table: try writeTable(to: &out)
    }
    try out.flush()
  }

  private func writeJSON(to out: inout OutputBuffer) throws(SystemError) {
    let configuration = layout.configuration
    let insets = configuration.insets
    out.append("{\"schema\":")
    out.appendJSONString(Self.schema)
    out.append(",\"style\":")
    out.appendJSONString(configuration.style.rawValue)
    out.append(",\"width\":")
    out.appendNumber(configuration.width)
    out.append(",\"columns\":")
    out.append(String(configuration.columns))
    out.append(",\"columnSpacing\":")
    out.appendNumber(configuration.columnSpacing)
    out.append(",\"rowSpacing\":")
    out.appendNumber(configuration.rowSpacing)
    out.append(",\"insets\":{\"top\":")
    out.appendNumber(insets.top)
    out.append(",\"left\":")
    out.appendNumber(insets.left)
    out.append(",\"bottom\":")
    out.appendNumber(insets.bottom)
    out.append(",\"right\":")
    out.appendNumber(insets.right)
    out.append("},\"seed\":")
    out.append(String(configuration.seed))
    out.append(",\"contentHeight\":")
    out.appendNumber(layout.contentHeight)
    out.append(",\"items\":[")
    for (position, element) in layout.elements.enumerated() {
      if position > 0 { out.append(",") }
      appendItem(element, to: &out)
      try out.flushIfFull()
    }
    out.append("]}\n")
  }

  private func writeJSONLines(to out: inout OutputBuffer) throws(SystemError) {
    for element in layout.elements {
      appendItem(element, to: &out)
      out.append("\n")
      try out.flushIfFull()
    }
  }

  private func appendItem(_ element: LayoutElement, to out: inout OutputBuffer) {
    let placed = items[element.index]
    let frame = element.frame
    out.append("{\"index\":")
    out.append(String(placed.item.index))
    out.append(",\"page\":")
    out.append(String(placed.page))
    out.append(",\"column\":")
    out.append(String(element.column))
    out.append(",\"span\":")
    out.append(String(element.span))
    out.append(",\"x\":")
    out.appendNumber(frame.x)
    out.append(",\"y\":")
    out.appendNumber(frame.y)
    out.append(",\"width\":")
    out.appendNumber(frame.width)
    out.append(",\"height\":")
    out.appendNumber(frame.height)
    out.append(element.isEnlarged ? ",\"enlarged\":true" : ",\"enlarged\":false")
    out.append(element.isAligned ? ",\"aligned\":true" : ",\"aligned\":false")
    if layout.configuration.style.isRing {
      let center = layout.centers[element.index]
      out.append(",\"center\":{\"x\":")
      out.appendNumber(center.x)
      out.append(",\"y\":")
      out.appendNumber(center.y)
      out.append("},\"transform\":[")
      for (position, entry) in layout.transforms[element.index].entries.enumerated() {
        if position > 0 { out.append(",") }
        out.appendNumber(entry)
      }
      out.append("]")
    }
    out.append(",\"img\":")
    out.appendJSONString(placed.item.img)
    out.append("}")
  }

  private func writeTable(to out: inout OutputBuffer) throws(SystemError) {
    let configuration = layout.configuration
    let count = layout.elements.count
    let itemCount = "\(count) item\(count == 1 ? "" : "s")"
    let placement: String
    if configuration.style.isRing {
      let size = configuration.resolvedItemSize
      placement =
        "\(itemCount) of \(formatNumber(size.width))×\(formatNumber(size.height)) pt in a "
        + "\(formatNumber(configuration.width))×\(formatNumber(configuration.viewportHeight)) pt "
        + "viewport"
    } else {
      placement =
        "\(itemCount) in \(configuration.columns) column\(configuration.columns == 1 ? "" : "s") of "
        + "\(formatFixed(configuration.columnWidth)) pt, width \(formatNumber(configuration.width)) pt"
    }
    out.append(
      "\(configuration.style.rawValue) layout: \(placement), content height "
        + "\(formatFixed(layout.contentHeight)) pt\n")
    let headers = ["index", "page", "column", "span", "x", "y", "width", "height", "flags"]
    var rows: [[String]] = []
    rows.reserveCapacity(count)
    for element in layout.elements {
      let frame = element.frame
      let flags = element.isEnlarged ? "enlarged" : element.isAligned ? "aligned" : "-"
      rows.append([
        String(items[element.index].item.index), String(items[element.index].page),
        String(element.column), String(element.span),
        formatFixed(frame.x), formatFixed(frame.y), formatFixed(frame.width),
        formatFixed(frame.height), flags,
      ])
    }
    var widths = headers.map(\.count)
    for row in rows {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func appendRow(_ cells: [String], img: String) {
      for (column, cell) in cells.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        // Numbers are right-aligned, the flags word left-aligned.
        out.append(column == cells.count - 1 ? cell + padding : padding + cell)
        out.append("  ")
      }
      out.append(img)
      out.append("\n")
    }
    appendRow(headers, img: "img")
    for (row, element) in zip(rows, layout.elements) {
      appendRow(row, img: items[element.index].item.img)
      try out.flushIfFull()
    }
  }
}
