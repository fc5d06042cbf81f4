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

  /// Writes the cell of `field` for `element` at `buffer`, and returns its length in bytes:
  /// every cell but the `img`, which is written from where it lies, is ASCII, so that its length
  /// is its width on a screen.
  ///
  /// - Precondition: `field` is not `img`; `buffer` has ``ShortestDecimal/room`` bytes of room.
  @inline(__always)
  func writeCell(
    _ field: TableField, of element: SectionElement, _ contents: PlacedItems.Contents,
    to buffer: UnsafeMutablePointer<UInt8>
  ) -> Int {
    func word(_ text: StaticString) -> Int {
      buffer.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
      return text.utf8CodeUnitCount
    }
    let frame = element.frame
    switch field {
    case .x: return writeFixed(frame.x, to: buffer)
    case .y: return writeFixed(frame.y, to: buffer)
    case .width: return writeFixed(frame.width, to: buffer)
    case .height: return writeFixed(frame.height, to: buffer)
    case .index, .page, .column, .span, .angle, .tx, .ty, .tz, .flags, .img: break
    }
    guard let item = element.item else {
      guard field == .flags else { return word("-") }
      return word(element.kind == .header ? "header" : "footer")
    }
    let transform = { layout.transforms[item.index] }
    switch field {
    case .index: return ShortestDecimal.writeInteger(contents.feedIndex(at: item.index), to: buffer)
    case .page: return ShortestDecimal.writeInteger(items.page(at: item.index), to: buffer)
    case .column: return ShortestDecimal.writeInteger(item.column, to: buffer)
    case .span: return ShortestDecimal.writeInteger(item.span, to: buffer)
    case .angle: return writeFixed(Self.angle(of: transform()), to: buffer)
    case .tx: return writeFixed(transform()[4, 1], to: buffer)
    case .ty: return writeFixed(transform()[4, 2], to: buffer)
    case .tz: return writeFixed(transform()[4, 3], to: buffer)
    case .flags: return word(ItemState(item).word)
    case .x, .y, .width, .height, .img: preconditionFailure("no cell of \(field) is written here")
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
  /// layout itself, however long. Each cell is written as bytes (``writeCell(_:of:_:to:)``),
  /// in the first pass into scratch memory to be measured, in the second into the output after
  /// its padding; no cell is made a `String`.
  func writeTable(to out: inout OutputBuffer) throws(SystemError) {
    let configuration = layout.configuration
    let size = sectioned.contentSize
    let extent =
      configuration.axis == .vertical
      ? "content height \(formatFixed(size.height)) pt"
      : "content width \(formatFixed(size.width)) pt"
    let quality = qualitySummary.map { "; \($0)" } ?? ""
    var summary = "\(configuration.style.rawValue) layout: \(placement), \(extent)\(quality)"
    let chosen = TableField.fields(for: configuration.style).filter {
      fields?.contains($0.rawValue) ?? true
    }
    // The img column is last and never padded: only the other columns are measured (in
    // columns of a terminal), and an image's URL, of any length, is written from where it lies
    // rather than made a string.
    let hasImage = chosen.last == .img
    let measured = hasImage ? Array(chosen.dropLast()) : chosen
    // Per measured column: its width, and whether its cells differ from the first row's (kept
    // in `first`, a cell's room each).
    var widths = measured.map(\.rawValue.utf8.count)
    var varying = [Bool](repeating: false, count: measured.count)
    let room = ShortestDecimal.room
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: room * (measured.count + 1))
    defer { scratch.deallocate() }
    var firstLengths = [Int](repeating: -1, count: measured.count)
    let cell = scratch + room * measured.count
    try items.withContents { (contents) throws(SystemError) in
      try forEachSelected { (element) throws(SystemError) in
        for (position, column) in measured.enumerated() {
          let length = writeCell(column, of: element, contents, to: cell)
          widths[position] = max(widths[position], length)
          let first = scratch + room * position
          if firstLengths[position] < 0 {
            first.update(from: cell, count: length)
            firstLengths[position] = length
          } else if !varying[position],
            length != firstLengths[position] || memcmp(first, cell, length) != 0
          {
            varying[position] = true
          }
        }
      }
    }
    // On a terminal, the columns that say least give way until the img column has a useful
    // width: first those that hold one value on every row, then in the order of `yieldOrder`.
    // The user's own --fields are kept.
    var shown = Array(measured.indices)
    var imageWidth: Int?
    if let terminal = terminalColumns {
      func room() -> Int {
        terminal - shown.reduce(0) { $0 + widths[$1] + 2 }
      }
      var hidden: [TableField] = []
      let yielding =
        fields == nil
        ? TableField.yieldOrder.filter { field in
          !(measured.firstIndex(of: field).map { varying[$0] } ?? false)
        }
          + TableField.yieldOrder.filter { field in
            measured.firstIndex(of: field).map { varying[$0] } ?? false
          } : []
      for column in yielding {
        guard let position = measured.firstIndex(of: column), shown.contains(position) else {
          continue
        }
        guard hasImage ? room() < TableField.usefulImageWidth : room() < 0 else { break }
        shown.removeAll { $0 == position }
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
    let rowRoom = shown.reduce(0) { $0 + widths[$1] + 2 + room } + 1
    // A row of cells given by `write`, each padded to its column's width (numbers on the left,
    // words on the right, the last not at all), then the image of the item at `image`, if any,
    // and the row's end.
    func appendRow(
      image: Int? = nil, imageOf contents: PlacedItems.Contents? = nil, imageCell: StaticString,
      _ write: (TableField, UnsafeMutablePointer<UInt8>) -> Int
    ) {
      out.write(room: rowRoom) { cursor in
        for (place, position) in shown.enumerated() {
          let column = measured[position]
          let length = write(column, cell)
          let padding = max(widths[position] - length, 0)
          let isLast = place == shown.count - 1 && !hasImage
          if column.isNumeric { cursor.spaces(padding) }
          cursor.bytes(cell, count: length)
          if isLast { continue }
          if !column.isNumeric { cursor.spaces(padding) }
          cursor.spaces(2)
        }
      }
      guard let image, let contents else { return out.appendLiteral(imageCell) }
      contents.withImage(at: image) { utf8 in
        if let imageWidth {
          out.append(Self.shortenedImage(utf8, to: imageWidth))
        } else {
          out.appendEscapedForPeople(utf8)
        }
      }
      out.appendLiteral("\n")
    }
    appendRow(imageCell: hasImage ? "img\n" : "\n") { column, buffer in
      var name = column.rawValue
      return name.withUTF8 { utf8 in
        if let base = utf8.baseAddress { buffer.update(from: base, count: utf8.count) }
        return utf8.count
      }
    }
    try items.withContents { (contents) throws(SystemError) in
      try forEachSelected { (element) throws(SystemError) in
        // A header or footer has no image: its img cell is empty.
        let image = hasImage ? element.item?.index : nil
        appendRow(image: image, imageOf: contents, imageCell: "\n") { column, buffer in
          writeCell(column, of: element, contents, to: buffer)
        }
        try out.flushIfFull()
      }
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
