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
  /// (``DistortionBand``), which a legend in the header explains.
  func writeHTML(to out: inout OutputBuffer) throws(SystemError) {
    let size = sectioned.contentSize
    let distortions = items.distortions(of: layout)
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
      .item,.band{position:absolute;box-sizing:border-box;overflow:hidden;background:#e5e5ea}
      .item img{position:absolute;left:0;top:0;width:100%;height:100%;object-fit:cover;display:block}
      .placeholder{position:absolute;left:0;top:0;right:0;bottom:0;display:flex;align-items:center;justify-content:center;color:#8e8e93;font-size:12px}
      .enlarged{outline:2px solid #ff9500;outline-offset:-2px}
      .aligned{outline:2px solid #34c759;outline-offset:-2px}
      .blocked .placeholder{color:#ff3b30}
      .band{background:#d1d1d6}
      .legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}

      """)
    for band in DistortionBand.distorted {
      out.append(
        ".item.d\(band.rawValue){outline:3px solid \(band.colour);outline-offset:-3px}"
          + ".legend .d\(band.rawValue){background:\(band.colour)}\n")
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
    if distortions != nil {
      out.appendLiteral("<p class=\"legend\">outlined by distortion (height against natural):")
      for band in DistortionBand.distorted {
        out.append("<span class=\"d\(band.rawValue)\"></span>")
        out.appendEscapedMarkup(band.label)
      }
      out.appendLiteral("</p>")
    }
    out.appendLiteral("</header>\n<div class=\"content\" style=\"width:")
    out.appendNumber(size.width)
    out.appendLiteral("px;height:")
    out.appendNumber(size.height)
    out.appendLiteral("px\">\n")
    try forEachSelected { (element) throws(SystemError) in
      appendHTMLElement(element, distortions: distortions, to: &out)
      try out.flushIfFull()
    }
    out.appendLiteral("</div>\n</body>\n</html>\n")
  }

  /// The settings that shaped the layout, for the page's header.
  private var settings: String {
    let configuration = layout.configuration
    let insets = configuration.insets
    let size = sectioned.contentSize
    let (extentName, extent) =
      configuration.axis == .vertical ? ("height", size.height) : ("width", size.width)
    var parts = ["content \(extentName) \(formatFixed(extent)) pt"]
    if configuration.style.family != .ring {
      parts += [
        "spacing \(formatNumber(configuration.columnSpacing)) × \(formatNumber(configuration.rowSpacing))",
        "insets \(formatNumber(insets.top)), \(formatNumber(insets.left)), "
          + "\(formatNumber(insets.bottom)), \(formatNumber(insets.right))",
      ]
    }
    if configuration.style == .irregular {
      parts.append("seed \(configuration.seed)")
    }
    if let rect {
      parts.append(
        "showing \(formatNumber(rect.x)),\(formatNumber(rect.y)) "
          + "\(formatNumber(rect.width))×\(formatNumber(rect.height))")
    }
    return parts.joined(separator: " · ")
  }

  private func appendHTMLElement(
    _ element: SectionElement, distortions: [Double]?, to out: inout OutputBuffer
  ) {
    guard let item = element.item else {
      out.appendLiteral("<div class=\"band ")
      out.appendEscapedMarkup(element.kind.rawValue)
      out.appendLiteral("\" style=\"")
      appendPosition(element.frame, to: &out)
      out.appendLiteral("\"><span class=\"placeholder\">")
      out.appendEscapedMarkup(element.kind.rawValue)
      out.appendLiteral("</span></div>\n")
      return
    }
    let feedIndex = items.feedIndex(at: item.index)
    let loads = items.withImage(at: item.index) { isLoadableImage($0) }
    out.appendLiteral("<div class=\"item")
    if item.isEnlarged { out.appendLiteral(" enlarged") }
    if item.isAligned { out.appendLiteral(" aligned") }
    if let distortions { out.appendLiteral(DistortionBand(distortions[item.index]).className) }
    if !loads { out.appendLiteral(" blocked") }
    out.appendLiteral("\" data-index=\"")
    out.appendInteger(feedIndex)
    out.appendLiteral("\" style=\"")
    appendPosition(element.frame, to: &out)
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
