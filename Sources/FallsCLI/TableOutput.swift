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
    // The img column is last and never padded: only the other columns are measured, and an
    // image's URL, of any length, is written from where it lies rather than made a string.
    let hasImage = columns.last == .img
    let measured = hasImage ? Array(columns.dropLast()) : columns
    var widths = columns.map(\.rawValue.count)
    try forEachSelected { (element) throws(SystemError) in
      for (index, column) in measured.enumerated() {
        widths[index] = max(widths[index], cell(column, of: element).count)
      }
    }
    // On a terminal, what the other columns and their gaps leave, but at least "h…g".
    let imageWidth = terminalColumns.map { terminal in
      max(terminal - widths.dropLast(hasImage ? 1 : 0).reduce(0) { $0 + $1 + 2 }, 3)
    }
    func appendRow(_ cells: [String], image: Int?) {
      for (index, cell) in cells.enumerated() {
        let isLast = index == cells.count - 1 && image == nil
        let text = cell.count > widths[index] ? Self.shortened(cell, to: widths[index]) : cell
        let padding = String(repeating: " ", count: max(widths[index] - text.count, 0))
        out.append(
          columns[index].isNumeric ? padding + text : isLast ? text : text + padding)
        out.appendLiteral(isLast ? "\n" : "  ")
      }
      guard let image else { return }
      items.withImage(at: image) { utf8 in
        if let imageWidth {
          out.append(Self.shortenedImage(utf8, to: imageWidth))
        } else {
          out.appendEscapedForPeople(utf8)
        }
      }
      out.appendLiteral("\n")
    }
    if hasImage {
      appendRow(measured.map(\.rawValue) + [TableField.img.rawValue], image: nil)
    } else {
      appendRow(columns.map(\.rawValue), image: nil)
    }
    try forEachSelected { (element) throws(SystemError) in
      let image = hasImage ? element.item?.index ?? -1 : nil
      if let image, image < 0 {
        // A header or footer has no image: its cell is empty.
        appendRow(columns.map { cell($0, of: element) }, image: nil)
      } else {
        appendRow(measured.map { cell($0, of: element) }, image: image)
      }
      try out.flushIfFull()
    }
  }

  /// An image's URL, escaped for people, shortened in the middle to `width` characters where it
  /// is longer (``shortened(_:to:)``). A URL of up to 64 KiB is shortened exactly; of one
  /// longer, only as many of its first and last bytes are read as the width can show, so that
  /// a URL of any length costs what the terminal shows.
  static func shortenedImage(_ utf8: UnsafeBufferPointer<UInt8>, to width: Int) -> String {
    guard utf8.count > 1 << 16 else {
      let text = escapingControlCharacters(String(decoding: utf8, as: UTF8.self))
      return text.count > width ? shortened(text, to: width) : text
    }
    // Each character shown takes at most a few bytes; a window of 64 more per character is
    // room for combining marks. The windows start and end on whole characters' bytes.
    let window = min((width + 2) * 64, utf8.count / 2)
    var start = utf8.count - window
    while start < utf8.count, utf8[start] & 0xC0 == 0x80 { start += 1 }
    var end = window
    while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
    let head = escapingControlCharacters(
      String(decoding: UnsafeBufferPointer(rebasing: utf8[..<end]), as: UTF8.self))
    let tail = escapingControlCharacters(
      String(decoding: UnsafeBufferPointer(rebasing: utf8[start...]), as: UTF8.self))
    let kept = max(width - 1, 0)
    return String(head.prefix(kept - kept / 2)) + "…" + String(tail.suffix(kept / 2))
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
