import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// `--format json` and `jsonl`, and `--quality`: the layout as JSON, written element by element,
/// in chunks side by side for a long layout.
extension LayoutReport {
  func writeJSON(to out: inout OutputBuffer) throws(SystemError) {
    let configuration = layout.configuration
    let insets = configuration.insets
    let size = sectioned.contentSize
    func number(_ key: StaticString, _ value: Double) {
      out.appendLiteral(key)
      out.appendNumber(value)
    }
    out.appendDocumentStart(schema: Self.schema)
    if let feed {
      out.appendLiteral(",\"feed\":")
      out.appendJSONString(feed)
    }
    out.appendLiteral(",\"style\":")
    out.appendJSONString(configuration.style.rawValue)
    number(",\"width\":", configuration.width)
    number(",\"columns\":", Double(configuration.columns))
    number(",\"columnSpacing\":", configuration.columnSpacing)
    number(",\"rowSpacing\":", configuration.rowSpacing)
    number(",\"insets\":{\"top\":", insets.top)
    number(",\"left\":", insets.left)
    number(",\"bottom\":", insets.bottom)
    number(",\"right\":", insets.right)
    out.appendLiteral("},\"seed\":")
    out.append(String(configuration.seed))
    // How the columns were made to meet (the words of ``alignmentFlags``, as data).
    if configuration.style.options.contains(.alignment) {
      out.appendLiteral(",\"alignment\":")
      out.appendJSONString(configuration.alignment.rawValue)
      if configuration.boundsDistortion {
        number(",\"maxDistortion\":", configuration.maxDistortion)
      }
      out.appendLiteral(configuration.flatEnd ? ",\"flatEnd\":true" : ",\"flatEnd\":false")
    }
    number(",\"contentHeight\":", size.height)
    if configuration.axis == .horizontal {
      number(",\"axis\":\"horizontal\",\"contentWidth\":", size.width)
    }
    if let quality = items.quality(of: layout) {
      out.appendLiteral(",\"quality\":")
      appendQualityObject(quality, to: &out)
    }
    try out.appendLeftOut(skipped: skipped, failedPage: failedPage)
    out.appendLiteral(",\"items\":[")
    try writeElements(to: &out, separator: ",", terminator: "")
    out.appendLiteral("]}\n")
  }

  /// `--format jsonl`: a line of kind `skipped` for each item `--skip-invalid` skipped, then a
  /// line an element, then with `--keep-partial` a line of kind `failedPage`; what was
  /// ``streamed`` already is left out.
  func writeJSONLines(to out: inout OutputBuffer) throws(SystemError) {
    let streamed = streamed ?? Streamed()
    try writeJSONLines(
      skipped: streamed.skipped..<(skipped?.count ?? 0), positions: streamed.positions..<Int.max,
      to: &out)
    if let failedPage {
      out.appendLiteral("{\"kind\":\"failedPage\",")
      out.appendFailedPageMembers(failedPage)
      out.appendLiteral("}\n")
    }
  }

  /// The lines of `--format jsonl` for the items skipped at `skipped` (of ``skipped``), then for
  /// the elements at `positions` (``forEachSelected(at:_:)``): what ``PagedLayout`` streams
  /// as a page makes elements final.
  func writeJSONLines(skipped range: Range<Int>, positions: Range<Int>, to out: inout OutputBuffer)
    throws(SystemError)
  {
    for problem in (skipped ?? [])[range] {
      out.appendLiteral("{\"kind\":\"skipped\",")
      out.appendSkippedMembers(problem)
      out.appendLiteral("}\n")
      try out.flushIfFull()
    }
    try writeElements(to: &out, separator: "", terminator: "\n", positions: positions)
  }

  /// The figures as one JSON object, keys in the order of ``LayoutQuality/names``.
  private func appendQualityObject(_ quality: LayoutQuality, to out: inout OutputBuffer) {
    for (position, (name, value)) in zip(LayoutQuality.names, quality.values).enumerated() {
      out.append(position == 0 ? "{\"" : ",\"")
      out.append(name)
      out.append("\":")
      out.appendNumber(value)
    }
    out.append("}")
  }

  /// `--quality`: the figures alone, a `NAME VALUE` line each, or one JSON object.
  func writeQuality(
    _ quality: LayoutQuality, as format: OutputFormat, to out: inout OutputBuffer
  ) {
    guard format == .table else {
      appendQualityObject(quality, to: &out)
      return out.append("\n")
    }
    for (name, value) in zip(LayoutQuality.names, quality.values) {
      out.append("\(name) \(formatNumber(value))\n")
    }
  }

  /// The quality figures for people, for the table's summary line: "enlarged 12.0%, corrected
  /// 24.0% (distortion mean 8.8%, max 19.5%), ragged end 0.62 items, coverage 91.2%".
  var qualitySummary: String? {
    guard let quality = items.quality(of: layout) else { return nil }
    func percent(_ share: Double) -> String { formatFixed(share * 100, decimals: 1) + "%" }
    return "enlarged \(percent(quality.enlargedShare)), corrected "
      + "\(percent(quality.correctedShare)) (distortion mean \(percent(quality.meanDistortion)), "
      + "max \(percent(quality.maxDistortion))), ragged end \(formatFixed(quality.raggedEnd)) "
      + "items, coverage \(percent(quality.coverage))"
  }

  /// Elements written side by side in chunks of this many, when there are at least twice as many.
  static let parallelChunk = 4_096

  /// Writes every selected element's JSON object, `separator` between two and `terminator` after
  /// each.
  ///
  /// A long layout written whole is formatted in chunks on all processors, each chunk into its own
  /// buffer; the buffers are sent in order, so the bytes are the same as written one by one.
  func writeElements(
    to out: inout OutputBuffer, separator: StaticString, terminator: StaticString,
    positions: Range<Int> = 0..<Int.max
  ) throws(SystemError) {
    guard let fields else {
      return try writeElements(
        to: &out, separator: separator, terminator: terminator, positions: positions,
        EveryField())
    }
    try writeElements(
      to: &out, separator: separator, terminator: terminator, positions: positions,
      // With headers or footers, each object says what it is, whatever the fields chosen.
      ChosenFields(sectioned.elementCount > layout.elements.count ? fields.union(["kind"]) : fields)
    )
  }

  private func writeElements<Fields: FieldSelection>(
    to out: inout OutputBuffer, separator: StaticString, terminator: StaticString,
    positions: Range<Int>, _ fields: Fields
  ) throws(SystemError) {
    let count = sectioned.elementCount
    let first = min(positions.lowerBound, count)
    let end = max(min(positions.upperBound, count), first)
    let list = ListStyle(
      separator: ShortLiteral(separator), terminator: ShortLiteral(terminator),
      isRing: layout.configuration.style.hasTransforms,
      isVertical: layout.configuration.axis == .vertical,
      imagesArePlain: items.imagesNeedingJSONEscapes == 0,
      measure: DistortionMeasure(layout.configuration))
    guard rect == nil, end - first >= 2 * Self.parallelChunk else {
      var position = first
      try items.withContents { (contents) throws(SystemError) in
        try forEachSelected(at: positions) { (element) throws(SystemError) in
          appendElement(element, list, fields, contents, isFirst: position == 0, to: &out)
          position += 1
          try out.flushIfFull()
        }
      }
      return
    }
    try out.flush()
    // Each worker takes the next chunk nobody has taken, formats it into its own buffer and, when
    // the chunk before has been sent, sends it: formatting runs side by side, sending in order.
    // A worker waits only for chunks taken before its own, by workers that are running, so the
    // writing ends however the workers are scheduled (one after another on one processor too).
    let chunk = Self.parallelChunk
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    let turns = Turns(sink: out.sink)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      var buffer = OutputBuffer(sink: turns.sink, chunkSize: Int.max)
      while let chunkIndex = turns.take(below: (end - first + chunk - 1) / chunk) {
        let range = first + chunkIndex * chunk..<min(first + (chunkIndex + 1) * chunk, end)
        var position = range.lowerBound
        items.withContents { contents in
          sectioned.forEachElement(in: range) { element in
            appendElement(element, list, fields, contents, isFirst: position == 0, to: &buffer)
            position += 1
          }
        }
        guard turns.wait(for: chunkIndex) else { return }
        do throws(SystemError) { try buffer.flush() } catch { turns.fail(error) }
        turns.finish(chunkIndex)
      }
    }
    if let failure = turns.failure { throw failure }
  }

  /// How the elements of a list are written around each other.
  private struct ListStyle {
    var separator: ShortLiteral
    var terminator: ShortLiteral
    /// Whether items carry a center and a transform.
    var isRing: Bool
    /// Whether the content scrolls vertically.
    var isVertical: Bool
    /// Whether no URL needs escaping, so that each is copied as it is.
    var imagesArePlain: Bool
    /// The natural heights and distortions, for a style that uses item sizes.
    var measure: DistortionMeasure?
  }

  /// Appends the frame's members that `fields` holds: see ``Cursor/member(_:isFirst:)``.
  @inline(__always)
  private func appendFrame<Fields: FieldSelection>(
    _ frame: Rect, isVertical: Bool, _ fields: Fields, isFirst: inout Bool,
    to cursor: inout OutputBuffer.Cursor
  ) {
    // Across the scroll axis a frame repeats its column's position and width, which the
    // buffer's cache of numbers serves; along it, positions and extents seldom repeat, and are
    // written without asking the cache.
    if fields.contains(.x) {
      cursor.member(",\"x\":", isFirst: &isFirst)
      cursor.number(frame.x, isCached: isVertical)
    }
    if fields.contains(.y) {
      cursor.member(",\"y\":", isFirst: &isFirst)
      cursor.number(frame.y, isCached: !isVertical)
    }
    if fields.contains(.width) {
      cursor.member(",\"width\":", isFirst: &isFirst)
      cursor.number(frame.width, isCached: isVertical)
    }
    if fields.contains(.height) {
      cursor.member(",\"height\":", isFirst: &isFirst)
      cursor.number(frame.height, isCached: !isVertical)
    }
  }

  /// Room enough for an element's fields but its URL: the literals (a list's separator and
  /// terminator among them), and a number's room for each of up to 26 numbers (4 counts, 4
  /// frame edges, a ring style's centre and 16 matrix entries).
  private static let elementRoom = 512 + 26 * ShortestDecimal.room

  /// Appends one element's JSON object of the members `fields` holds, after the list's
  /// separator unless it is the first and followed by its terminator; `list` says what is
  /// decided once per layout, not per element. An item with a plain URL is one write, one check
  /// for room.
  private func appendElement<Fields: FieldSelection>(
    _ element: SectionElement, _ list: ListStyle, _ fields: Fields,
    _ contents: PlacedItems.Contents, isFirst: Bool, to out: inout OutputBuffer
  ) {
    guard let item = element.item else {
      if !isFirst { out.write(room: 8) { $0.short(list.separator) } }
      out.appendLiteral("{")
      var isFirstMember = true
      if fields.contains(.kind) {
        out.appendLiteral("\"kind\":")
        out.appendJSONString(element.kind.rawValue)
        isFirstMember = false
      }
      out.write(room: Self.elementRoom) { cursor in
        appendFrame(
          element.frame, isVertical: list.isVertical, fields, isFirst: &isFirstMember, to: &cursor)
        cursor.literal("}")
        cursor.short(list.terminator)
      }
      return
    }
    // A feed's URL is written from where it lies; a generated item's name from a string made
    // for it: through one closure for both, the feed's writer would lose its speed.
    guard let feed = contents.feed else {
      var name = PlacedItems.syntheticImage(item.index)
      name.withUTF8 { image in
        appendItem(item, element, list, fields, contents, image: image, isFirst: isFirst, to: &out)
      }
      return
    }
    appendItem(
      item, element, list, fields, contents, image: feed.image(at: item.index), isFirst: isFirst,
      to: &out)
  }

  /// Appends an item's JSON object; see ``appendElement(_:_:_:_:isFirst:to:)``.
  @inline(__always)
  private func appendItem<Fields: FieldSelection>(
    _ item: LayoutElement, _ element: SectionElement, _ list: ListStyle, _ fields: Fields,
    _ contents: PlacedItems.Contents, image: UnsafeBufferPointer<UInt8>, isFirst: Bool,
    to out: inout OutputBuffer
  ) {
    let writesImage = fields.contains(.img)
    let isImageInline = list.imagesArePlain || !writesImage
    out.write(room: Self.elementRoom + image.count) { cursor in
      if !isFirst { cursor.short(list.separator) }
      cursor.literal("{")
      var isFirstMember = true
      if fields.contains(.kind) { cursor.member(",\"kind\":\"item\"", isFirst: &isFirstMember) }
      if fields.contains(.index) {
        cursor.member(",\"index\":", isFirst: &isFirstMember)
        cursor.integer(contents.feedIndex(at: item.index))
      }
      if fields.contains(.page) {
        cursor.member(",\"page\":", isFirst: &isFirstMember)
        cursor.integer(items.page(at: item.index))
      }
      if fields.contains(.column) {
        cursor.member(",\"column\":", isFirst: &isFirstMember)
        cursor.integer(item.column)
      }
      if fields.contains(.span) {
        cursor.member(",\"span\":", isFirst: &isFirstMember)
        cursor.integer(item.span)
      }
      appendFrame(
        element.frame, isVertical: list.isVertical, fields, isFirst: &isFirstMember, to: &cursor)
      if fields.contains(.enlarged) {
        cursor.member(",\"enlarged\":", isFirst: &isFirstMember)
        cursor.boolean(item.isEnlarged)
      }
      if fields.contains(.aligned) {
        cursor.member(",\"aligned\":", isFirst: &isFirstMember)
        cursor.boolean(item.isAligned)
      }
      if let measure = list.measure,
        fields.contains(.naturalHeight) || fields.contains(.distortion)
      {
        let size = contents.layoutItem(at: item.index)
        if fields.contains(.naturalHeight) {
          cursor.member(",\"naturalHeight\":", isFirst: &isFirstMember)
          cursor.number(measure.naturalExtent(of: item, item: size), isCached: false)
        }
        if fields.contains(.distortion) {
          cursor.member(",\"distortion\":", isFirst: &isFirstMember)
          cursor.number(measure.distortion(of: item, item: size), isCached: false)
        }
      }
      if list.isRing, fields.contains(.center) {
        let center = layout.centers[item.index]
        cursor.member(",\"center\":{\"x\":", isFirst: &isFirstMember)
        cursor.number(center.x)
        cursor.literal(",\"y\":")
        cursor.number(center.y)
        cursor.literal("}")
      }
      if list.isRing, fields.contains(.transform) {
        cursor.member(",\"transform\":[", isFirst: &isFirstMember)
        for (position, entry) in layout.transforms[item.index].entries.enumerated() {
          if position > 0 { cursor.literal(",") }
          cursor.number(entry)
        }
        cursor.literal("]")
      }
      if writesImage { cursor.member(",\"img\":", isFirst: &isFirstMember) }
      if isImageInline {
        if writesImage { cursor.plainString(image) }
        cursor.literal("}")
        cursor.short(list.terminator)
      }
    }
    if !isImageInline {
      out.appendJSONString(image)
      out.appendLiteral("}")
      out.write(room: 8) { $0.short(list.terminator) }
    }
  }
}
