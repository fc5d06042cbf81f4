import FallsBase
import FallsCore
import Foundation

/// `--format table`: the layout for a person, a row an element.
extension LayoutReport {
  /// A column of the table: its name in the header and for `--fields`, and its cell of an
  /// element; every cell is ASCII, so that its length in characters is its width on a screen.
  struct TableColumn {
    let name: String
    /// Whether it holds numbers, right-aligned; words are left-aligned.
    let isNumeric: Bool
    let cell: (SectionElement) -> String
  }

  /// The table's columns for the layout's style, `img` last: for the cube and the sphere,
  /// whose items share a frame and turn, the angle and the translation of each item's
  /// transform instead of the column, the span, x and y.
  var tableColumns: [TableColumn] {
    func number(_ name: String, _ value: @escaping (SectionElement) -> Double) -> TableColumn {
      TableColumn(name: name, isNumeric: true) { formatFixed(value($0)) }
    }
    func itemNumber(_ name: String, _ value: @escaping (LayoutElement) -> String) -> TableColumn {
      TableColumn(name: name, isNumeric: true) { $0.item.map(value) ?? "-" }
    }
    var columns = [
      itemNumber("index") { String(items.feedIndex(at: $0.index)) },
      itemNumber("page") { String(items.page(at: $0.index)) },
    ]
    let style = layout.configuration.style
    if style == .cube || style == .sphere {
      let transforms = layout.transforms
      func entry(_ name: String, _ row: Int, _ column: Int) -> TableColumn {
        itemNumber(name) { formatFixed(transforms[$0.index][row, column]) }
      }
      columns += [
        itemNumber("angle") { formatFixed(Self.angle(of: transforms[$0.index])) },
        entry("tx", 4, 1), entry("ty", 4, 2), entry("tz", 4, 3),
      ]
    } else {
      columns += [
        itemNumber("column") { String($0.column) }, itemNumber("span") { String($0.span) },
        number("x") { $0.frame.x }, number("y") { $0.frame.y },
      ]
    }
    columns += [number("width") { $0.frame.width }, number("height") { $0.frame.height }]
    if style != .cube, style != .sphere {
      columns.append(
        TableColumn(name: "flags", isNumeric: false) { element in
          guard let item = element.item else { return element.kind.rawValue }
          return item.isEnlarged ? "enlarged" : item.isAligned ? "aligned" : "-"
        })
    }
    // A URL from a feed may hold any character: shown escaped, it cannot act on a terminal.
    columns.append(
      TableColumn(name: "img", isNumeric: false) { element in
        element.item.map { item in
          escapingControlCharacters(
            items.withImage(at: item.index) { String(decoding: $0, as: UTF8.self) })
        } ?? ""
      })
    return columns
  }

  /// The names of the table's columns for `style`, as ``tableColumns`` makes them.
  static func tableColumnNames(for style: LayoutStyle) -> [String] {
    style == .cube || style == .sphere
      ? ["index", "page", "angle", "tx", "ty", "tz", "width", "height", "img"]
      : ["index", "page", "column", "span", "x", "y", "width", "height", "flags", "img"]
  }

  /// The fields `--fields` may choose in `format` for `style`: the keys of the JSON objects,
  /// or the columns of the table; none for the pictures.
  static func fieldNames(format: OutputFormat, style: LayoutStyle) -> [String] {
    switch format {
    case .json, .jsonl: ElementField.names(for: style)
    case .table: tableColumnNames(for: style)
    case .svg, .html: []
    }
  }

  /// The angle, in degrees from 0 to 180, by which `transform` turns: from the trace of its
  /// 3×3 rotation, which is 1 + 2 cos θ.
  static func angle(of transform: Transform3D) -> Double {
    let trace = transform[1, 1] + transform[2, 2] + transform[3, 3]
    return acos(min(max((trace - 1) / 2, -1), 1)) * 180 / .pi
  }

  /// The table: a summary line, a header and one row per element, numbers right-aligned. On a
  /// terminal the `img` column is shortened in the middle to the width left, so that no row
  /// wraps; elsewhere every value is whole.
  ///
  /// Written in two passes over the elements, the first to measure each column's width, the
  /// second to write the rows: no row is kept, so the table takes no more memory than the
  /// layout itself, however long.
  func writeTable(to out: inout OutputBuffer) throws(SystemError) {
    let configuration = layout.configuration
    let size = sectioned.contentSize
    let extent =
      configuration.axis == .vertical
      ? "content height \(formatFixed(size.height)) pt"
      : "content width \(formatFixed(size.width)) pt"
    out.append("\(configuration.style.rawValue) layout: \(placement), \(extent)\n")
    let columns = tableColumns.filter { fields?.contains($0.name) ?? true }
    var widths = columns.map(\.name.count)
    try forEachSelected { (element) throws(SystemError) in
      for (index, column) in columns.enumerated() {
        widths[index] = max(widths[index], column.cell(element).count)
      }
    }
    if let terminalColumns, columns.last?.name == "img" {
      // What the other columns and their gaps leave, but at least "h…g".
      let used = widths.dropLast().reduce(0) { $0 + $1 + 2 }
      widths[widths.count - 1] = max(terminalColumns - used, 3)
    }
    func appendRow(_ cells: [String]) {
      for (index, cell) in cells.enumerated() {
        let isLast = index == cells.count - 1
        let text = cell.count > widths[index] ? Self.shortened(cell, to: widths[index]) : cell
        let padding = String(repeating: " ", count: max(widths[index] - text.count, 0))
        out.append(
          columns[index].isNumeric ? padding + text : isLast ? text : text + padding)
        out.appendLiteral(isLast ? "\n" : "  ")
      }
    }
    appendRow(columns.map(\.name))
    try forEachSelected { (element) throws(SystemError) in
      appendRow(columns.map { $0.cell(element) })
      try out.flushIfFull()
    }
  }

  /// `text` shortened to `width` characters in the middle, where an ellipsis stands for what is
  /// left out: `http://s13.mogu…200x999.jpg`.
  static func shortened(_ text: String, to width: Int) -> String {
    guard text.count > width else { return text }
    guard width > 1 else { return String(text.prefix(width)) }
    let kept = width - 1
    return String(text.prefix(kept - kept / 2)) + "…" + String(text.suffix(kept / 2))
  }
}
