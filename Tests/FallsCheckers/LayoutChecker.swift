import FallsCore

/// An independent check of every layout rule, written from the rules rather than from the
/// engine: it derives each column's bottom from the frames placed before an element, decides
/// what the rules demand of the element, and reports every difference.
///
/// Its only shared part with the engine is the random stream, which its own tests pin to
/// SplitMix64's published values.
public struct LayoutChecker {
  public let configuration: LayoutConfiguration
  public let items: [LayoutItem]

  public init(configuration: LayoutConfiguration, items: [LayoutItem]) {
    self.configuration = configuration
    self.items = items
  }

  /// A bottom as docs/layout-rules.md's tie rule compares it: its binary64 encoding rounded to the nearest
  /// multiple of 2^16, in steps (a top inset of −0 counts as +0).
  static func tieKey(_ bottom: Double) -> UInt64 {
    let encoding = (bottom == 0 ? 0 : bottom).bitPattern
    return encoding / 65_536 + (encoding % 65_536 >= 32_768 ? 1 : 0)
  }

  /// Every rule an element or the layout breaks, in words; empty when all hold.
  public func violations(of elements: [LayoutElement], contentHeight: Double) -> [String] {
    var problems: [String] = []
    func fail(_ index: Int, _ text: String) { problems.append("element \(index): \(text)") }
    let c = configuration.columns
    let insets = configuration.insets
    let w =
      (configuration.width - insets.left - insets.right
        - Double(c - 1) * configuration.columnSpacing) / Double(c)
    let irregular = configuration.style == .irregular
    var random = SplitMix64(seed: configuration.seed)
    // Per column: the last element covering it and the bottom the rules give the column.
    var last: [LayoutElement?] = Array(repeating: nil, count: c)
    var bottoms: [Double?] = Array(repeating: nil, count: c)
    var previous: LayoutElement?
    var cursor = 0

    if elements.count != items.count {
      problems.append("\(elements.count) elements for \(items.count) items")
    }
    for (position, element) in zip(elements.indices, elements) where position < items.count {
      let frame = element.frame
      let numbers = [frame.x, frame.y, frame.width, frame.height]
      guard numbers.allSatisfy(\.isFinite), frame.width > 0, frame.height > 0 else {
        fail(position, "frame \(frame) is not finite and positive")
        continue
      }
      if element.index != position { fail(position, "index \(element.index)") }
      let bottom = { (column: Int) -> Double? in bottoms[column] }
      let span = min(items[position].span, c)
      // Rule 3 and the masonry options: which start column the order demands. Empty columns
      // count as the top inset; a span's height is the highest bottom it would cover.
      let heights = (0..<c).map { bottom($0) ?? insets.top }
      let starts = 0...(c - span)
      let tops = starts.map { start in heights[start..<start + span].max() ?? insets.top }
      let lowest = tops.min() ?? insets.top
      let demanded: Int
      switch configuration.order {
      case .leftToRight:
        demanded = cursor + span <= c ? cursor : 0
      case .rightToLeft:
        demanded = c - (cursor + span <= c ? cursor : 0) - span
      case .shortest where configuration.tolerance > 0:
        let limit = Self.tieKey(lowest + configuration.tolerance)
        let tied = starts.filter { Self.tieKey(tops[$0]) <= limit }
        demanded = tied.first { $0 >= cursor } ?? tied.first ?? 0
      case .shortest:
        let lowestKey = tops.map(Self.tieKey).min() ?? 0
        demanded = tops.firstIndex { Self.tieKey($0) == lowestKey } ?? 0
      }
      if element.column != demanded {
        fail(position, "in column \(element.column), the order demands \(demanded) (\(heights))")
      }
      let column = element.column
      let placedSpan = element.isEnlarged ? 2 : span
      guard (0..<c).contains(column), element.span == placedSpan, column + element.span <= c
      else {
        fail(position, "column \(column) span \(element.span) outside \(c) columns")
        continue
      }
      cursor =
        configuration.order == .rightToLeft
        ? (c - column) % c : (column + placedSpan) % c
      let expectedY =
        (column..<column + span).map {
          bottom($0).map { $0 + configuration.rowSpacing } ?? insets.top
        }
        .max() ?? insets.top
      if frame.y != expectedY { fail(position, "y \(frame.y), expected \(expectedY)") }
      let physical = configuration.direction == .leftToRight ? column : c - column - placedSpan
      let x = insets.left + Double(physical) * (w + configuration.columnSpacing)
      if !close(frame.x, x) { fail(position, "x \(frame.x), expected \(x)") }
      let item = items[position]
      let spanWidth = Double(span) * w + Double(span - 1) * configuration.columnSpacing
      let h = spanWidth * item.height / item.width
      if span > 1 {
        if element.isEnlarged || element.isAligned { fail(position, "a span enlarged or aligned") }
        if !close(frame.width, spanWidth) || !close(frame.height, h) {
          fail(position, "span frame \(frame), expected \(spanWidth) × \(h)")
        }
        for covered in column..<column + span {
          last[covered] = element
          bottoms[covered] = frame.maxY
        }
        previous = element
        continue
      }

      // Rule 5: may this element be enlarged, and must the stream be drawn?
      var eligible = false
      if irregular, column + 1 < c, previous?.isEnlarged != true {
        let pair = (bottom(column), bottom(column + 1))
        let aligned =
          (pair.0 == nil && pair.1 == nil)
          || (pair.0 != nil && pair.0 == pair.1)
        let stacked = last[column]?.isEnlarged == true || last[column + 1]?.isEnlarged == true
        let top = expectedY
        let sideBySide = elements[..<position].contains { other in
          guard other.isEnlarged else { return false }
          // Runs are compared in the engine's logical columns.
          let touchesNeighbour =
            (other.column...other.column + 1).contains(column - 1)
            || (other.column...other.column + 1).contains(column + 2)
          return touchesNeighbour && other.frame.y < top + 2 * h + configuration.rowSpacing
            && top < other.frame.maxY
        }
        eligible = aligned && !stacked && !sideBySide
      }
      let drawn = eligible && random.nextUnit() < configuration.enlargeChance
      if element.isEnlarged != drawn {
        fail(
          position, "enlarged \(element.isEnlarged), rules demand \(drawn) (eligible \(eligible))")
      }
      if element.isEnlarged {
        if element.span != 2 { fail(position, "enlarged with span \(element.span)") }
        if element.isAligned { fail(position, "enlarged and aligned") }
        if !close(frame.width, 2 * w + configuration.columnSpacing) {
          fail(position, "enlarged width \(frame.width)")
        }
        if !close(frame.height, 2 * h + configuration.rowSpacing) {
          fail(
            position,
            "enlarged height \(frame.height), expected \(2 * h + configuration.rowSpacing)")
        }
        last[column] = element
        last[column + 1] = element
        bottoms[column] = frame.maxY
        bottoms[column + 1] = frame.maxY
      } else {
        if element.span != 1 { fail(position, "span \(element.span) but not enlarged") }
        if !close(frame.width, w) { fail(position, "width \(frame.width), expected \(w)") }
        // Rule 6: alignment, right neighbour first, always and only when due.
        var target: Double?
        if irregular {
          for neighbour in [column + 1, column - 1] where (0..<c).contains(neighbour) {
            if let other = bottom(neighbour),
              abs(expectedY + h - other) < configuration.alignTolerance * h
            {
              target = other
              break
            }
          }
        }
        if let target {
          if !element.isAligned {
            fail(position, "not aligned though within tolerance of \(target)")
          }
          // Exact, unless no Double height can make y + height land on the target.
          let representable = Self.someHeight(from: frame.y, reaches: target)
          if frame.maxY != target && (representable || abs(frame.maxY - target) > target.ulp) {
            fail(position, "aligned bottom \(frame.maxY) != \(target)")
          }
          bottoms[column] = target
        } else {
          if element.isAligned { fail(position, "aligned though no neighbour is within tolerance") }
          if !close(frame.height, h) { fail(position, "height \(frame.height), expected \(h)") }
          bottoms[column] = frame.maxY
        }
        last[column] = element
      }
      previous = element
    }

    // No two frames overlap (beyond rounding at shared edges).
    for (i, a) in elements.enumerated() {
      for b in elements[(i + 1)...] where overlaps(a.frame, b.frame) {
        problems.append("elements \(a.index) and \(b.index) overlap")
      }
    }
    // Rule 7: the lowest column bottom, as the rules give the bottoms (an aligned item's is its
    // target, which its frame may miss by an ulp where no Double height reaches it).
    let lowest = bottoms.compactMap { $0 }.max()
    let expectedHeight = (lowest ?? insets.top) + insets.bottom
    if contentHeight != expectedHeight {
      problems.append("content height \(contentHeight), expected \(expectedHeight)")
    }
    return problems
  }

  /// Whether some Double `h` near `target − top` gives `top + h == target` exactly.
  public static func someHeight(from top: Double, reaches target: Double) -> Bool {
    var candidate = (target - top)
    for _ in 0..<8 { candidate = candidate.nextDown }
    for _ in 0..<17 {
      if top + candidate == target { return true }
      candidate = candidate.nextUp
    }
    return false
  }

  private func close(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
  }

  private func overlaps(_ a: Rect, _ b: Rect) -> Bool {
    let epsilon = 1e-9 * max(1, abs(a.maxX), abs(a.maxY), abs(b.maxX), abs(b.maxY))
    return a.x < b.maxX - epsilon && b.x < a.maxX - epsilon && a.y < b.maxY - epsilon
      && b.y < a.maxY - epsilon
  }
}
