import FallsBase
import FallsCore
import FallsFeed

/// `--format svg`: the layout as one self-contained SVG picture.
extension LayoutReport {
  /// The height of one row of the legend strip below the content.
  static let svgLegendRowHeight = 28.0

  /// Writes the picture as an SVG document (plus a legend strip below).
  ///
  /// For the columnar styles and the grid, the whole content at its size: every element a
  /// rectangle at its frame exactly, its class its mark (``ItemMark``: plain, enlarged, aligned
  /// or how far its height is from its natural height), headers and footers grey, labelled with
  /// its feed index, with the image URL as its tooltip; the insets and the columns faintly
  /// behind. For the ring styles, the viewport at `--offset` as the app shows it: each item the
  /// polygon its corners make through its transform (perspective included), nearest last, a
  /// face turned away drawn faint. The legend lists what the picture uses.
  func writeSVG(to out: inout OutputBuffer) throws(SystemError) {
    let isRing = layout.configuration.style.hasTransforms
    let view = pictureViewport
    let distortions = items.distortions(of: layout)
    let used = usedMarks(distortions: distortions)
    let ring = isRing ? ringFaces() : []
    let hasBackFaces = ring.contains { $0.isBack }
    let legend = svgLegendRows(used: used, hasBackFaces: hasBackFaces)
    let height = view.height + Double(legend.count) * Self.svgLegendRowHeight
    out.appendLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.appendLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
    out.appendNumber(view.width)
    out.appendLiteral("\" height=\"")
    out.appendNumber(height)
    out.appendLiteral("\" viewBox=\"0 0 ")
    out.appendNumber(view.width)
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
      .item rect,.item polygon{fill:#9ecae1;stroke:#3182bd;stroke-width:1}
      .item.enlarged rect{fill:#fdae6b;stroke:#e6550d}
      .item.aligned rect{fill:#a1d99b;stroke:#31a354}
      .item.back rect,.item.back polygon{fill-opacity:0.25;stroke-opacity:0.35}
      .band rect{fill:#e5e5ea;stroke:#8e8e93}
      text{font-family:sans-serif;fill:#1c1c1e;text-anchor:middle;dominant-baseline:central}
      .legend text{text-anchor:start;font-size:11px}

      """)
    for band in DistortionBand.distorted {
      out.append(".item.d\(band.rawValue) rect{fill:\(band.colour);stroke:#67000d}\n")
      // A label reads on its band's colour (WCAG's 4.5:1): light text on the dark reds.
      let text = Contrast.text(on: band.colour)
      if text != Contrast.darkText { out.append(".item.d\(band.rawValue) text{fill:\(text)}\n") }
    }
    out.appendLiteral("</style>\n")
    out.appendLiteral("<rect class=\"background\" x=\"0\" y=\"0\" width=\"")
    out.appendNumber(view.width)
    out.appendLiteral("\" height=\"")
    out.appendNumber(height)
    out.appendLiteral("\"/>\n")
    if !isRing { appendGuides(size: Size(width: view.width, height: view.height), to: &out) }
    if isRing {
      // Items reach past the viewport as they turn: what the viewport shows, not the legend.
      out.appendLiteral("<clipPath id=\"viewport\">")
      appendRect(Rect(x: 0, y: 0, width: view.width, height: view.height), className: nil, to: &out)
      out.appendLiteral("</clipPath>\n<g class=\"elements\" clip-path=\"url(#viewport)\">\n")
    } else {
      out.appendLiteral("<g class=\"elements\">\n")
    }
    if isRing {
      for face in ring { appendSVGFace(face, to: &out) }
    } else {
      try forEachSelected { (element) throws(SystemError) in
        appendSVGElement(element, distortions: distortions, to: &out)
        try out.flushIfFull()
      }
    }
    out.appendLiteral("</g>\n")
    appendLegend(legend, top: view.height, to: &out)
    out.appendLiteral("</svg>\n")
  }

  /// What a picture shows: the whole content, or for a ring style the viewport at the offset,
  /// as the app shows it (its origin the offset; the circle does not scroll).
  var pictureViewport: Rect {
    let configuration = layout.configuration
    guard configuration.style.hasTransforms else {
      let size = sectioned.contentSize
      return Rect(x: 0, y: 0, width: size.width, height: size.height)
    }
    let origin = configuration.style.turnsWithOffset ? configuration.offset : .zero
    return Rect(
      x: origin.x, y: origin.y, width: configuration.width,
      height: configuration.viewportHeight)
  }

  /// One item of a ring style as the viewport shows it.
  struct RingFace {
    var element: SectionElement
    /// The corners of its frame through its transform, on the viewport: top left, top right,
    /// bottom right, bottom left.
    var corners: [Point]
    /// Its centre on the viewport, and how near the eye it is (larger is nearer).
    var center: Point
    var depth: Double
    /// Whether it turns its back to the eye (its corners go round the other way).
    var isBack: Bool
  }

  /// The selected items of a ring style projected onto the viewport, farthest first; an item
  /// with a corner behind the eye is left out.
  ///
  /// - Complexity: O(*n* log *n*) for *n* items.
  func ringFaces() -> [RingFace] {
    let view = pictureViewport
    var faces: [RingFace] = []
    forEachSelected { element in
      guard let item = element.item else { return }
      let transform = layout.transforms[item.index]
      let center = layout.centers[item.index]
      let (halfWidth, halfHeight) = (element.frame.width / 2, element.frame.height / 2)
      var corners: [Point] = []
      for (x, y) in [
        (-halfWidth, -halfHeight), (halfWidth, -halfHeight), (halfWidth, halfHeight),
        (-halfWidth, halfHeight),
      ] {
        let projected = transform.projecting(x: x, y: y)
        guard projected.w > 0, projected.x.isFinite, projected.y.isFinite else { return }
        corners.append(
          Point(x: center.x + projected.x - view.x, y: center.y + projected.y - view.y))
      }
      // Twice the signed area (y down): positive for the corners' own order, as unturned.
      var area = 0.0
      for (a, b) in zip(corners, corners.dropFirst() + corners.prefix(1)) {
        area += a.x * b.y - b.x * a.y
      }
      let middle = transform.projecting(x: 0, y: 0)
      faces.append(
        RingFace(
          element: element, corners: corners,
          center: Point(x: center.x + middle.x - view.x, y: center.y + middle.y - view.y),
          depth: middle.z, isBack: area < 0))
    }
    return faces.enumerated().sorted {
      ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset)
    }.map(\.element)
  }

  private func appendSVGFace(_ face: RingFace, to out: inout OutputBuffer) {
    guard let item = face.element.item else { return }
    let feedIndex = items.feedIndex(at: item.index)
    out.appendLiteral(
      face.isBack ? "<g class=\"item back\" data-index=\"" : "<g class=\"item\" data-index=\"")
    out.appendInteger(feedIndex)
    out.appendLiteral("\"><polygon points=\"")
    for (position, corner) in face.corners.enumerated() {
      if position > 0 { out.appendLiteral(" ") }
      out.appendNumber(corner.x)
      out.appendLiteral(",")
      out.appendNumber(corner.y)
    }
    out.appendLiteral("\"/>")
    if !face.isBack {
      let size = face.element.frame
      appendLabel(
        String(feedIndex),
        in: Rect(
          x: face.center.x - size.width / 2, y: face.center.y - size.height / 2,
          width: size.width, height: size.height), to: &out)
    }
    appendTitle(of: item.index, feedIndex: feedIndex, to: &out)
    out.appendLiteral("</g>\n")
  }

  /// The legend's rows: the kinds the picture uses (items, enlarged, aligned, faces turned
  /// away, headers and footers), then the distortion bands it uses.
  private func svgLegendRows(used: (marks: [ItemMark], hasBands: Bool), hasBackFaces: Bool)
    -> [(title: String?, entries: [(String, String)])]
  {
    var kinds = used.marks.filter {
      if case .distorted = $0 { return false }
      return true
    }.map { ("item" + $0.className, $0.label) }
    if hasBackFaces { kinds.append(("item back", "turned away")) }
    if used.hasBands { kinds.append(("band", "header, footer")) }
    var rows: [(title: String?, entries: [(String, String)])] = [(nil, kinds)]
    let bands = used.marks.compactMap { mark -> DistortionBand? in
      if case .distorted(let band) = mark { return band }
      return nil
    }
    if !bands.isEmpty {
      rows.append(("distortion:", bands.map { ("item d\($0.rawValue)", $0.label) }))
    }
    return rows
  }

  /// The area inside the insets, dashed, and each column (or row) of a columnar style, faint.
  private func appendGuides(size: Size, to out: inout OutputBuffer) {
    let configuration = layout.configuration
    guard !configuration.style.hasTransforms else { return }
    let insets = configuration.insets
    let inner = Rect(
      x: insets.left, y: insets.top, width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
    guard inner.width > 0, inner.height > 0 else { return }
    out.appendLiteral("<g class=\"guides\">\n")
    let working = configuration.working
    for column in 0..<working.columns {
      let start = working.x(ofColumn: column)
      let lane =
        configuration.axis == .vertical
        ? Rect(x: start, y: inner.y, width: working.columnWidth, height: inner.height)
        : Rect(x: inner.x, y: start, width: inner.width, height: working.columnWidth)
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
    out.appendLiteral("<g class=\"item")
    out.append(ItemMark(item, distortion: distortions?[item.index]).className)
    out.appendLiteral("\" data-index=\"")
    out.appendInteger(feedIndex)
    out.appendLiteral("\">")
    appendRect(frame, className: nil, to: &out)
    appendLabel(String(feedIndex), in: frame, to: &out)
    appendTitle(of: item.index, feedIndex: feedIndex, to: &out)
    out.appendLiteral("</g>\n")
  }

  /// The tooltip of the item at `position`: its index, its page and its image's URL.
  private func appendTitle(of position: Int, feedIndex: Int, to out: inout OutputBuffer) {
    out.appendLiteral("<title>item ")
    out.appendInteger(feedIndex)
    out.appendLiteral(" (page ")
    out.appendInteger(items.page(at: position))
    out.appendLiteral("): ")
    items.withImage(at: position) { out.appendEscapedMarkup($0) }
    out.appendLiteral("</title>")
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

  /// The legend's `rows` of swatches, from `top` down.
  private func appendLegend(
    _ rows: [(title: String?, entries: [(String, String)])], top: Double,
    to out: inout OutputBuffer
  ) {
    out.appendLiteral("<g class=\"legend\">\n")
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
