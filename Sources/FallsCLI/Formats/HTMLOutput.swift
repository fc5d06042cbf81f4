import FallsBase
import FallsCore
import FallsFeed

/// `--format html`: the feed as a user would see it, in one self-contained page.
extension LayoutReport {
  /// Writes one HTML page (well-formed XML too): the layout's settings in a header, then every
  /// element absolutely positioned at its frame; an item shows its image (`object-fit: cover`)
  /// over a placeholder with its index, which shows when the image fails to load.
  ///
  /// A feed is untrusted: every string from it is escaped for where it goes (attribute or
  /// text), and only `http:`, `https:` and `data:image/` URLs become an image's `src`; any other
  /// (`javascript:`, `file:`, …) shows the placeholder, marked as not loaded.
  ///
  /// An item whose height differs from its natural height is outlined by how much
  /// (``DistortionBand``), which a legend in the header explains. Outlines are drawn on a layer
  /// over the item (its `::after`), so that its image, once loaded, cannot cover them.
  ///
  /// The ring styles show the viewport at `--offset` as the app does: each item at its frame,
  /// turned by its transform as CSS `matrix3d` (Core Animation's sixteen entries in their order,
  /// perspective included), painted farthest first, a face turned away faint.
  func writeHTML(to out: inout OutputBuffer) throws(SystemError) {
    let view = pictureViewport
    let isRing = layout.configuration.style.hasTransforms
    let distortions = items.distortions(of: layout)
    let used = usedMarks(distortions: distortions)
    out.appendLiteral(
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>
      """)
    out.appendEscapedMarkup(summary)
    out.appendLiteral(
      """
      </title>
      <style>
      body{margin:0;background:#f2f2f7;font:14px -apple-system,system-ui,sans-serif;color:#1c1c1e}
      header{padding:12px 16px;background:#ffffff;border-bottom:1px solid #d1d1d6}
      header h1{margin:0 0 4px;font-size:16px}
      header p{margin:0;color:#636366}
      .content{position:relative;margin:16px auto;background:#ffffff}
      .ring{overflow:hidden}
      .ring .back{opacity:0.25}
      .item,.band{position:absolute;box-sizing:border-box;overflow:hidden;background:#e5e5ea}
      .item img{position:absolute;left:0;top:0;width:100%;height:100%;object-fit:cover;display:block}
      .placeholder{position:absolute;left:0;top:0;right:0;bottom:0;display:flex;align-items:center;justify-content:center;color:#8e8e93;font-size:12px}
      .item::after{content:"";position:absolute;left:0;top:0;right:0;bottom:0;pointer-events:none}
      .enlarged::after{border:2px solid #ff9500}
      .aligned::after{border:2px solid #34c759}
      .blocked .placeholder{color:#ff3b30}
      .band{background:#d1d1d6}
      .legend span{display:inline-block;box-sizing:border-box;width:12px;height:12px;margin:0 4px 0 10px;vertical-align:middle;background:#e5e5ea}
      .legend .enlarged{border:2px solid #ff9500}
      .legend .aligned{border:2px solid #34c759}

      """)
    for band in DistortionBand.distorted {
      out.append(
        ".item.d\(band.rawValue)::after{border:3px solid \(band.colour)}"
          + ".legend .d\(band.rawValue){border:3px solid \(band.colour)}\n")
    }
    out.appendLiteral(
      """
      </style>
      </head>
      <body>
      <header><h1>
      """)
    out.appendEscapedMarkup(summary)
    out.appendLiteral("</h1><p>")
    out.appendEscapedMarkup(settings)
    out.appendLiteral("</p>")
    appendHTMLLegend(used.marks, to: &out)
    out.appendLiteral(
      isRing
        ? "</header>\n<div class=\"content ring\" style=\"width:"
        : "</header>\n<div class=\"content\" style=\"width:")
    out.appendNumber(view.width)
    out.appendLiteral("px;height:")
    out.appendNumber(view.height)
    out.appendLiteral("px\">\n")
    if isRing {
      // Painted farthest first, as the SVG draws them; a face turned away faint.
      for face in ringFaces() {
        appendHTMLElement(
          face.element, distortions: nil, origin: view, isBack: face.isBack, to: &out)
      }
    } else {
      try forEachSelected { (element) throws(SystemError) in
        appendHTMLElement(element, distortions: distortions, origin: view, to: &out)
        try out.flushIfFull()
      }
    }
    out.appendLiteral("</div>\n</body>\n</html>\n")
  }

  /// The legend of the outlines the page uses, if it uses any: enlarged, aligned, and the
  /// distortion bands.
  private func appendHTMLLegend(_ marks: [ItemMark], to out: inout OutputBuffer) {
    let outlined = marks.filter { $0 != .plain }
    guard !outlined.isEmpty else { return }
    out.appendLiteral("<p class=\"legend\">outlined:")
    var saidDistortion = false
    for mark in outlined {
      if case .distorted = mark, !saidDistortion {
        out.appendLiteral(" · distortion (height against natural):")
        saidDistortion = true
      }
      out.append("<span class=\"\(mark.className.dropFirst())\"></span>")
      out.appendEscapedMarkup(mark.label)
    }
    out.appendLiteral("</p>")
  }

  /// The settings that shaped the layout, for the page's header.
  private var settings: String {
    let configuration = layout.configuration
    let insets = configuration.insets
    let size = sectioned.contentSize
    let (extentName, extent) =
      configuration.axis == .vertical ? ("height", size.height) : ("width", size.width)
    var parts = ["content \(extentName) \(formatFixed(extent)) pt"]
    if !configuration.style.hasTransforms {
      parts += [
        "spacing \(formatNumber(configuration.columnSpacing)) × \(formatNumber(configuration.rowSpacing))",
        "insets \(formatNumber(insets.top)), \(formatNumber(insets.left)), "
          + "\(formatNumber(insets.bottom)), \(formatNumber(insets.right))",
      ]
    }
    if configuration.style.drawsAtRandom {
      parts.append("seed \(configuration.seed)")
    }
    if configuration.style.turnsWithOffset {
      let offset = configuration.offset
      parts.append(
        "the viewport at offset \(formatNumber(offset.x)), \(formatNumber(offset.y))")
    }
    if let rect {
      parts.append(
        "showing \(formatNumber(rect.x)),\(formatNumber(rect.y)) "
          + "\(formatNumber(rect.width))×\(formatNumber(rect.height))")
    }
    return parts.joined(separator: " · ")
  }

  private func appendHTMLElement(
    _ element: SectionElement, distortions: [Double]?, origin: Rect, isBack: Bool = false,
    to out: inout OutputBuffer
  ) {
    var frame = element.frame
    (frame.x, frame.y) = (frame.x - origin.x, frame.y - origin.y)
    guard let item = element.item else {
      out.appendLiteral("<div class=\"band ")
      out.appendEscapedMarkup(element.kind.rawValue)
      out.appendLiteral("\" style=\"")
      appendPosition(frame, to: &out)
      out.appendLiteral("\"><span class=\"placeholder\">")
      out.appendEscapedMarkup(element.kind.rawValue)
      out.appendLiteral("</span></div>\n")
      return
    }
    let feedIndex = items.feedIndex(at: item.index)
    let loads = items.withImage(at: item.index) { isLoadableImage($0) }
    out.appendLiteral("<div class=\"item")
    out.append(ItemMark(item, distortion: distortions?[item.index]).className)
    if !loads { out.appendLiteral(" blocked") }
    if isBack { out.appendLiteral(" back") }
    out.appendLiteral("\" data-index=\"")
    out.appendInteger(feedIndex)
    out.appendLiteral("\" style=\"")
    appendPosition(frame, to: &out)
    if layout.configuration.style.hasTransforms {
      out.appendLiteral(";transform:matrix3d(")
      for (position, entry) in layout.transforms[item.index].entries.enumerated() {
        if position > 0 { out.appendLiteral(",") }
        out.appendNumber(entry)
      }
      out.appendLiteral(")")
    }
    out.appendLiteral("\" title=\"item ")
    out.appendInteger(feedIndex)
    out.appendLiteral(loads ? ": " : " (not loaded: only http, https and data:image URLs are): ")
    items.withImage(at: item.index) { out.appendEscapedMarkup($0) }
    out.appendLiteral("\"><span class=\"placeholder\">")
    out.appendInteger(feedIndex)
    out.appendLiteral("</span>")
    if loads {
      out.appendLiteral("<img src=\"")
      items.withImage(at: item.index) { out.appendEscapedMarkup($0) }
      out.appendLiteral("\" alt=\"item ")
      out.appendInteger(feedIndex)
      out.appendLiteral("\" loading=\"lazy\" onerror=\"this.remove()\"/>")
    }
    out.appendLiteral("</div>\n")
  }

  private func appendPosition(_ frame: Rect, to out: inout OutputBuffer) {
    out.appendFrame(frame, labels: ("left:", "px;top:", "px;width:", "px;height:"))
    out.appendLiteral("px")
  }
}

/// Whether a feed's image URL may become an `<img src>`: it starts, exactly (no leading blanks
/// or control characters, which browsers would skip), with `http://`, `https://` or
/// `data:image/`, in any case.
func isLoadableImage(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
  func starts(with prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard url.count >= count else { return false }
    for offset in 0..<count {
      var byte = url[offset]
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
      if byte != prefix.utf8Start[offset] { return false }
    }
    return true
  }
  return starts(with: "http://") || starts(with: "https://") || starts(with: "data:image/")
}
