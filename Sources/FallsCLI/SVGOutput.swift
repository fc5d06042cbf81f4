import FallsBase
import FallsCore
import FallsFeed

/// `--format svg`: the layout as one self-contained SVG picture.
extension LayoutReport {
  /// The height of one row of the legend strip below the content.
  static let svgLegendRowHeight = 28.0

  /// The height of the legend: a row of kinds, and for the columnar styles a row of the
  /// distortion bands.
  static func svgLegendHeight(style: LayoutStyle) -> Double {
    style.family == .columns ? 2 * svgLegendRowHeight : svgLegendRowHeight
  }

  /// Writes the whole content as an SVG document of its size (plus a legend strip below):
  /// every element a rectangle at its frame exactly (plain, enlarged and aligned items told apart
  /// by their fill, an item whose height differs from its natural height filled by how much
  /// (``DistortionBand``), headers and footers grey), labelled with its feed index, with the
  /// image URL as its tooltip; the insets and the columns drawn faintly behind.
  func writeSVG(to out: inout OutputBuffer) throws(SystemError) {
    let size = sectioned.contentSize
    let distortions = items.distortions(of: layout)
    let height = size.height + Self.svgLegendHeight(style: layout.configuration.style)
    out.appendLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.appendLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
    out.appendNumber(size.width)
    out.appendLiteral("\" height=\"")
    out.appendNumber(height)
    out.appendLiteral("\" viewBox=\"0 0 ")
    out.appendNumber(size.width)
    out.appendLiteral(" ")
    out.appendNumber(height)
    out.appendLiteral("\">\n<title>")
    out.appendEscapedMarkup(summary)
    out.appendLiteral(
      """
      </title>
      <style>
      .background{fill:#ffffff}
      .guide{fill:#f2f2f7}
      .inset{fill:none;stroke:#c7c7cc;stroke-dasharray:4 3}
      .item rect{fill:#9ecae1;stroke:#3182bd;stroke-width:1}
      .item.enlarged rect{fill:#fdae6b;stroke:#e6550d}
      .item.aligned rect{fill:#a1d99b;stroke:#31a354}
      .band rect{fill:#e5e5ea;stroke:#8e8e93}
      text{font-family:sans-serif;fill:#1c1c1e;text-anchor:middle;dominant-baseline:central}
      .legend text{text-anchor:start;font-size:11px}

      """)
    for band in DistortionBand.distorted {
      out.append(".item.d\(band.rawValue) rect{fill:\(band.colour);stroke:#67000d}\n")
    }
    out.appendLiteral("</style>\n")
    out.appendLiteral("<rect class=\"background\" x=\"0\" y=\"0\" width=\"")
    out.appendNumber(size.width)
    out.appendLiteral("\" height=\"")
    out.appendNumber(height)
    out.appendLiteral("\"/>\n")
    appendGuides(size: size, to: &out)
    out.appendLiteral("<g class=\"elements\">\n")
    try forEachSelected { (element) throws(SystemError) in
      appendSVGElement(element, distortions: distortions, to: &out)
      try out.flushIfFull()
    }
    out.appendLiteral("</g>\n")
    appendLegend(top: size.height, withBands: distortions != nil, to: &out)
    out.appendLiteral("</svg>\n")
  }

  /// The area inside the insets, dashed, and each column (or row) of a columnar style, faint.
  private func appendGuides(size: Size, to out: inout OutputBuffer) {
    let configuration = layout.configuration
    guard configuration.style.family != .ring else { return }
    let insets = configuration.insets
    let inner = Rect(
      x: insets.left, y: insets.top, width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
    guard inner.width > 0, inner.height > 0 else { return }
    out.appendLiteral("<g class=\"guides\">\n")
    let geometry = configuration.geometry
    for column in 0..<geometry.columns {
      let start = geometry.x(ofColumn: column)
      let lane =
        configuration.axis == .vertical
        ? Rect(x: start, y: inner.y, width: geometry.columnWidth, height: inner.height)
        : Rect(x: inner.x, y: start, width: inner.width, height: geometry.columnWidth)
      appendRect(lane, className: "guide", to: &out)
    }
    appendRect(inner, className: "inset", to: &out)
    out.appendLiteral("</g>\n")
  }

  private func appendRect(_ frame: Rect, className: StaticString?, to out: inout OutputBuffer) {
    out.appendLiteral("<rect ")
    if let className {
      out.appendLiteral("class=\"")
      out.appendLiteral(className)
      out.appendLiteral("\" ")
    }
    out.appendFrame(frame, labels: ("x=\"", "\" y=\"", "\" width=\"", "\" height=\""))
    out.appendLiteral("\"/>")
  }

  private func appendSVGElement(
    _ element: SectionElement, distortions: [Double]?, to out: inout OutputBuffer
  ) {
    let frame = element.frame
    guard let item = element.item else {
      out.appendLiteral("<g class=\"band ")
      out.appendEscapedMarkup(element.kind.rawValue)
      out.appendLiteral("\">")
      appendRect(frame, className: nil, to: &out)
      appendLabel(element.kind.rawValue, in: frame, to: &out)
      out.appendLiteral("</g>\n")
      return
    }
    let feedIndex = items.feedIndex(at: item.index)
    out.appendLiteral(
      item.isEnlarged
        ? "<g class=\"item enlarged"
        : item.isAligned ? "<g class=\"item aligned" : "<g class=\"item")
    if let distortions { out.appendLiteral(DistortionBand(distortions[item.index]).className) }
    out.appendLiteral("\" data-index=\"")
    out.appendInteger(feedIndex)
    out.appendLiteral("\">")
    appendRect(frame, className: nil, to: &out)
    appendLabel(String(feedIndex), in: frame, to: &out)
    out.appendLiteral("<title>item ")
    out.appendInteger(feedIndex)
    out.appendLiteral(" (page ")
    out.appendInteger(items.page(at: item.index))
    out.appendLiteral("): ")
    items.withImage(at: item.index) { out.appendEscapedMarkup($0) }
    out.appendLiteral("</title></g>\n")
  }

  /// `text` centred in `frame`, in a size that fits small frames.
  private func appendLabel(_ text: String, in frame: Rect, to out: inout OutputBuffer) {
    let fontSize = max(4, min(12, min(frame.width, frame.height) / 2.5))
    out.appendLiteral("<text x=\"")
    out.appendNumber(frame.x + frame.width / 2)
    out.appendLiteral("\" y=\"")
    out.appendNumber(frame.y + frame.height / 2)
    out.appendLiteral("\" font-size=\"")
    out.appendNumber((fontSize * 10).rounded() / 10)
    out.appendLiteral("\">")
    out.appendEscapedMarkup(text)
    out.appendLiteral("</text>")
  }

  /// Swatches for plain, enlarged and aligned items and for headers and footers, and with
  /// `withBands` a second row for the distortion bands.
  private func appendLegend(top: Double, withBands: Bool, to out: inout OutputBuffer) {
    out.appendLiteral("<g class=\"legend\">\n")
    var rows: [(title: String?, entries: [(String, String)])] = [
      (
        nil,
        [
          ("item", "item"), ("item enlarged", "enlarged"), ("item aligned", "aligned"),
          ("band", "header, footer"),
        ]
      )
    ]
    if withBands {
      rows.append(
        ("distortion:", DistortionBand.distorted.map { ("item d\($0.rawValue)", $0.label) }))
    }
    for (row, (title, entries)) in rows.enumerated() {
      let rowTop = top + Double(row) * Self.svgLegendRowHeight
      /// `label` from `x` on the row's line; returns the x after it.
      func text(_ label: String, at x: Double) -> Double {
        out.appendLiteral("<text x=\"")
        out.appendNumber(x)
        out.appendLiteral("\" y=\"")
        out.appendNumber(rowTop + 14)
        out.appendLiteral("\">")
        out.appendEscapedMarkup(label)
        out.appendLiteral("</text>")
        return x + 12 + Double(label.count) * 6.5
      }
      var x = 8.0
      if let title {
        x = text(title, at: x)
        out.appendLiteral("\n")
      }
      for (className, label) in entries {
        out.append("<g class=\"\(className)\">")
        appendRect(Rect(x: x, y: rowTop + 8, width: 12, height: 12), className: nil, to: &out)
        x = text(label, at: x + 16)
        out.appendLiteral("</g>\n")
      }
    }
    out.appendLiteral("</g>\n")
  }
}
