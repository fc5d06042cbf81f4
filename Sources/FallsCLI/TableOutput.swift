import FallsBase
import FallsCore
import Foundation

/// `--format table`: the layout for a person, a row an element.
extension LayoutReport {
  /// A column of the table; its raw value is its name in the header and for `--fields`.
  enum TableField: String, CaseIterable {
    case index, page, column, span, x, y, angle, tx, ty, tz, width, height, flags, img

    /// The table's columns for `style`, `img` last: for the cube and the sphere, whose items
    /// share a frame and turn, the angle and the translation of each item's transform in place
    /// of the column, the span, x and y (and no flags: they are never enlarged or aligned).
    static func fields(for style: LayoutStyle) -> [TableField] {
      let turns = style == .cube || style == .sphere
      return allCases.filter { field in
        switch field {
        case .column, .span, .x, .y, .flags: !turns
        case .angle, .tx, .ty, .tz: turns
        case .index, .page, .width, .height, .img: true
        }
      }
    }

    /// Whether its cells are numbers, right-aligned; words are left-aligned.
    var isNumeric: Bool { self != .flags && self != .img }
  }

  /// The cell of `field` for `element`: every cell is ASCII but the `img`, which holds no
  /// control character, so that its length in characters is its width on a screen.
  func cell(_ field: TableField, of element: SectionElement) -> String {
    let frame = element.frame
    switch field {
    case .x: return formatFixed(frame.x)
    case .y: return formatFixed(frame.y)
    case .width: return formatFixed(frame.width)
    case .height: return formatFixed(frame.height)
    case .index, .page, .column, .span, .angle, .tx, .ty, .tz, .flags, .img: break
    }
    guard let item = element.item else {
      return field == .flags ? element.kind.rawValue : field == .img ? "" : "-"
    }
    let transform = { layout.transforms[item.index] }
    switch field {
    case .index: return String(items.feedIndex(at: item.index))
    case .page: return String(items.page(at: item.index))
    case .column: return String(item.column)
    case .span: return String(item.span)
    case .angle: return formatFixed(Self.angle(of: transform()))
    case .tx: return formatFixed(transform()[4, 1])
    case .ty: return formatFixed(transform()[4, 2])
    case .tz: return formatFixed(transform()[4, 3])
    case .flags: return item.isEnlarged ? "enlarged" : item.isAligned ? "aligned" : "-"
    case .img:
      // A URL from a feed may hold any character: shown escaped, it cannot act on a terminal.
      return escapingControlCharacters(
        items.withImage(at: item.index) { String(decoding: $0, as: UTF8.self) })
    case .x, .y, .width, .height: preconditionFailure("a frame's cell is written above")
    }
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
    let quality = qualitySummary.map { "; \($0)" } ?? ""
    out.append("\(configuration.style.rawValue) layout: \(placement), \(extent)\(quality)\n")
    let columns = TableField.fields(for: configuration.style).filter {
      fields?.contains($0.rawValue) ?? true
    }
    var widths = columns.map(\.rawValue.count)
    try forEachSelected { (element) throws(SystemError) in
      for (index, column) in columns.enumerated() {
        widths[index] = max(widths[index], cell(column, of: element).count)
      }
    }
    if let terminalColumns, columns.last == .img {
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
    appendRow(columns.map(\.rawValue))
    try forEachSelected { (element) throws(SystemError) in
      appendRow(columns.map { cell($0, of: element) })
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
