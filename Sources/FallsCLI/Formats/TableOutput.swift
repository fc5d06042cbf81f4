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
      let turns = style.turnsWithOffset
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

    /// The columns that give way, in turn, where a terminal is too narrow for the table: what
    /// says least about a frame first. The index and the img column stay.
    static let yieldOrder: [TableField] = [
      .page, .span, .column, .flags, .tz, .ty, .tx, .x, .width, .angle, .y, .height,
    ]

    /// The width at which the img column shows enough of a URL to tell it: its host's start
    /// and its file name.
    static let usefulImageWidth = 24
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
    case .flags: return ItemState(item).word
    case .img:
      // A URL from a feed may hold any character: shown escaped, it cannot act on a terminal.
      return escapingControlCharacters(
        items.withImage(at: item.index) { String(decoding: $0, as: UTF8.self) })
    case .x, .y, .width, .height: preconditionFailure("a frame's cell is written above")
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
    var summary = "\(configuration.style.rawValue) layout: \(placement), \(extent)\(quality)"
    var columns = TableField.fields(for: configuration.style).filter {
      fields?.contains($0.rawValue) ?? true
    }
    // The img column is last and never padded: only the other columns are measured (in
    // columns of a terminal), and an image's URL, of any length, is written from where it lies
    // rather than made a string.
    let hasImage = columns.last == .img
    var widths = [TableField: Int]()
    var firstValues = [TableField: String]()
    var varying = Set<TableField>()
    for column in columns { widths[column] = displayWidth(column.rawValue) }
    try forEachSelected { (element) throws(SystemError) in
      for column in columns where column != .img {
        let text = cell(column, of: element)
        widths[column] = max(widths[column] ?? 0, displayWidth(text))
        if let first = firstValues[column] {
          if first != text { varying.insert(column) }
        } else {
          firstValues[column] = text
        }
      }
    }
    // On a terminal, the columns that say least give way until the img column has a useful
    // width: first those that hold one value on every row, then in the order of `yieldOrder`.
    // The user's own --fields are kept.
    var imageWidth: Int?
    if let terminal = terminalColumns {
      func room() -> Int {
        terminal - columns.filter { $0 != .img }.reduce(0) { $0 + (widths[$1] ?? 0) + 2 }
      }
      var hidden: [TableField] = []
      let yielding =
        fields == nil
        ? TableField.yieldOrder.filter { !varying.contains($0) }
          + TableField.yieldOrder.filter { varying.contains($0) } : []
      for column in yielding where columns.contains(column) {
        guard hasImage ? room() < TableField.usefulImageWidth : room() < 0 else { break }
        columns.removeAll { $0 == column }
        hidden.append(column)
      }
      if !hidden.isEmpty {
        summary +=
          " (\(hidden.map(\.rawValue).joined(separator: ", ")) hidden to fit \(terminal) columns; "
          + "piped, the table has them all)"
      }
      imageWidth = max(room(), 3)
      summary = wrap(summary, indent: 0, width: terminal)
    }
    out.append(summary + "\n")
    func appendRow(_ cells: [String], image: Int?) {
      for (index, cell) in cells.enumerated() {
        let column = columns[index]
        let width = widths[column] ?? 0
        let isLast = index == cells.count - 1 && image == nil
        let text = displayWidth(cell) > width ? Self.shortened(cell, to: width) : cell
        let padding = String(repeating: " ", count: max(width - displayWidth(text), 0))
        out.append(column.isNumeric ? padding + text : isLast ? text : text + padding)
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
    let measured = hasImage ? Array(columns.dropLast()) : columns
    appendRow(columns.map(\.rawValue), image: nil)
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
      return shortened(escapingControlCharacters(String(decoding: utf8, as: UTF8.self)), to: width)
    }
    // Each character shown takes at most a few bytes; a window of 64 more per column is room
    // for combining marks. The windows start and end on whole characters' bytes.
    let window = min((width + 2) * 64, utf8.count / 2)
    var start = utf8.count - window
    while start < utf8.count, utf8[start] & 0xC0 == 0x80 { start += 1 }
    var end = window
    while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
    let head = escapingControlCharacters(
      String(decoding: UnsafeBufferPointer(rebasing: utf8[..<end]), as: UTF8.self))
    let tail = escapingControlCharacters(
      String(decoding: UnsafeBufferPointer(rebasing: utf8[start...]), as: UTF8.self))
    return shortened(head + "\u{0}" + tail, to: width, joining: "\u{0}")
  }

  /// `text` shortened to `width` terminal columns, an ellipsis where its middle was, keeping
  /// its end's last path component (a URL's file name) whole where it takes up to two thirds of
  /// the room: `http:/…x_200x999.jpg`.
  static func shortened(_ text: String, to width: Int, joining gap: String? = nil) -> String {
    let (head, tail) =
      gap.flatMap { gap in
        text.range(of: gap).map { (text[..<$0.lowerBound], text[$0.upperBound...]) }
      } ?? (text[...], text[...])
    guard gap != nil || displayWidth(text) > width else { return text }
    guard width > 1 else { return String(head.prefix(columns: width)) }
    let kept = width - 1
    let name = tail.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    let tailWidth = min(kept - min(kept / 3, 8), max(kept / 2, displayWidth(name)))
    let end = tail.suffix(columns: tailWidth)
    let start = head.prefix(columns: kept - displayWidth(end))
    return start + "…" + end
  }
}
