// The layout fuzz target (make fuzz): bytes read as a configuration (any style and option) and a
// batch of items, laid out at once and in pages, and the result held to the rules.
//
// - A configuration is accepted or refused by validate(); an accepted one lays out or refuses an
//   item with a LayoutError, never crashes.
// - Laid out in pages (the splits drawn from the bytes), the layout is the one laid out at once;
//   where each append is a page (spread or planned alignment, flat end), pages are prefix-stable
//   (no final element moves), the flat end moves only the last, spread and planned keep their
//   bounds, and the independent checkers of their contracts (SpreadChecker, PlannedChecker) find
//   nothing wrong where their rules apply.
// - Every number is finite; a screen of `falls view`, of any size and from any row, is drawn
//   in time that does not grow with the layout's extent; frames of the columnar styles do not overlap; the rect query is a
//   brute-force filter; the independent rule checker of the tests finds nothing wrong where its
//   rules apply (irregular and waterfall, without a pixel grid; a horizontal layout is checked
//   as the vertical one it mirrors).

import FallsCheckers
import FallsCore
import FallsFeed

@testable import FallsCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let start else { return 0 }
  var input = ByteInput(UnsafeBufferPointer(start: start, count: count))
  let configuration = input.configuration()
  guard (try? configuration.validate()) != nil else { return 0 }
  let place = (input.byte(), input.byte(), input.byte(), input.byte())
  var items: [LayoutItem] = []
  while items.count < 400, let item = input.item() { items.append(item) }
  let whole: WaterfallLayout
  do {
    whole = try WaterfallLayout(configuration, items: items)
  } catch {
    // Where each append is a page, heights (and so what is too short for its top) depend on
    // the pages: nothing to compare.
    if configuration.appendsArePages { return 0 }
    // An item too tall or too short for the layout: refused whole, as in pages.
    var paged = try? WaterfallLayout(configuration)
    var failed = false
    for page in input.pages(of: items) where !failed {
      failed = (try? paged?.append(page)) == nil
    }
    guard failed else { fatalError("laid out in pages, \(error) did not happen") }
    return 0
  }
  var paged: WaterfallLayout
  var pageStarts: [Int] = []
  do {
    paged = try WaterfallLayout(configuration)
    for page in input.pages(of: items) {
      // Where each append is a page (spread, planned, flat end), pages are prefix-stable instead
      // of equal to the layout at once: no final element moves (under planned, the last items
      // of a page are held back and may). The ring styles place every item again by design.
      let before = Array(paged.elements.dropLast(paged.heldBackCount))
      pageStarts.append(paged.elements.count)
      try paged.append(page)
      guard !configuration.appendsArePages || Array(paged.elements.prefix(before.count)) == before
      else {
        let moved = zip(paged.elements, before).first { $0 != $1 }
        fatalError(
          "a page moved an item of an earlier one: \(String(describing: moved)) in "
            + "\(configuration) of \(items.prefix(12)) in pages from \(pageStarts)")
      }
    }
  } catch {
    if configuration.appendsArePages { return 0 }
    fatalError("in pages the layout failed with \(error)")
  }
  guard configuration.appendsArePages else {
    guard paged.elements == whole.elements, paged.contentSize == whole.contentSize,
      paged.transforms == whole.transforms, paged.centers == whole.centers
    else { fatalError("in pages the layout differs") }
    check(whole, items: items, rect: rect(place, in: whole.contentSize))
    checkScreen(of: whole, place)
    return 0
  }
  let unflattened = paged
  paged.flattenEnd()
  checkMoving(paged, unflattened: unflattened, items: items, pageStarts: pageStarts)
  check(paged, items: items, rect: rect(place, in: paged.contentSize))
  checkScreen(of: paged, place)
  return 0
}

/// Draws one screen of `layout` as `falls view` does, its size, its first row and the bands
/// around the layout chosen by the bytes of `place`: it has exactly the screen's lines, each
/// exactly as wide, whatever the layout's extent (a drawing that cost the extent would hang
/// here and fail the run).
private func checkScreen(of layout: WaterfallLayout, _ place: (UInt8, UInt8, UInt8, UInt8)) {
  let columns = 1 + Int(place.0) % 160
  let rows = 1 + Int(place.3) % 60
  let bands = [0, 44, LayoutConfiguration.maximumLength]
  let section = Section(
    configuration: layout.configuration, headerHeight: bands[Int(place.2) % 3],
    footerHeight: bands[Int(place.2 / 3) % 3])
  guard let sectioned = try? SectionedLayout(sections: [section], layouts: [layout]) else {
    fatalError("one section of checked lengths was refused")
  }
  let feed = FeedItems(
    layout.elements.indices.map { FeedItem(index: $0, img: "i", width: 1, height: 1) })
  let renderer = ViewRenderer(sectioned: sectioned, items: PlacedItems(feed, page: 1))
  let contentRows = renderer.contentRows(columns: columns)
  guard contentRows >= 0, contentRows <= ViewRenderer.farthestCell else {
    fatalError("\(contentRows) content rows")
  }
  // The top, the bottom, or a row between, as far as the layout reaches.
  let top =
    switch place.1 % 4 {
    case 0: 0
    case 1: max(contentRows - rows, 0)
    case 2: ViewRenderer.cell(Double(contentRows) * Double(place.1) / 255)
    default: ViewRenderer.farthestCell - rows
    }
  let lines = renderer.lines(top: top, columns: columns, rows: rows)
  guard lines.count == rows, lines.allSatisfy({ $0.count == columns }) else {
    fatalError("a screen of \(rows) × \(columns) from row \(top) drew \(lines.map(\.count))")
  }
}

/// Holds a layout whose appends are pages to its contract: no height past the bound but the
/// seed's own corrections, the flat end moving only the last page, and where they apply
/// (spread, vertical, left to right, no grid, shortest first) the independent checker's rules.
private func checkMoving(
  _ layout: WaterfallLayout, unflattened: WaterfallLayout, items: [LayoutItem],
  pageStarts: [Int]
) {
  let configuration = layout.configuration
  let lastPageStart = pageStarts.last ?? 0
  guard
    Array(layout.elements.prefix(lastPageStart))
      == Array(unflattened.elements.prefix(lastPageStart))
  else {
    fatalError("the flat end moved an item of an earlier page")
  }
  guard let distortions = LayoutQuality.distortions(of: layout, items: items) else { return }
  if configuration.alignment != .seed {
    // The bound holds for the exact heights; on a grid a frame's is rounded to it as well.
    // The planned alignment's levellings keep to 3% (or less), a flat end to the bound.
    let grid = configuration.scale.map { 1 / $0 } ?? 0
    let bound =
      configuration.alignment == .planned && !configuration.flatEnd
      ? min(PlannedAlignment.bound, configuration.maxDistortion) : configuration.maxDistortion
    let reach = layout.contentExtent
    for (element, distortion) in zip(layout.elements, distortions) {
      let extent =
        configuration.axis == .vertical ? element.frame.height : element.frame.width
      // A height is exact to the rounding of the positions it is worked from: ulps of the
      // farthest, summed down a run (with a row spacing of 10^9 points, 10^-7 pt each).
      let noise = 64 * reach.ulp / extent
      guard distortion <= bound + grid * (1 + distortion) / extent + noise + 1e-12 else {
        fatalError(
          "distortion \(distortion) of element \(element.index) past \(bound) in "
            + "\(configuration) of \(items.prefix(8)) in pages from \(pageStarts)")
      }
    }
  }
  // The independent checker of spread's contract, where its rules apply, on the layout as the
  // pages placed it (the flat end, made after, is held to its bound and page above); planned's,
  // whose flat end keeps every column choice, on the flattened layout too.
  guard configuration.style == .irregular, configuration.alignment != .seed,
    configuration.axis == .vertical, configuration.direction == .leftToRight,
    configuration.scale == nil, configuration.order == .shortest, configuration.tolerance == 0
  else { return }
  let problems =
    configuration.alignment == .spread
    ? SpreadChecker(configuration: configuration, items: items, pageStarts: pageStarts)
      .violations(of: unflattened.elements)
    : PlannedChecker(
      configuration: configuration, items: items,
      bound: min(PlannedAlignment.bound, configuration.maxDistortion)
    ).violations(of: unflattened.elements)
      + (configuration.flatEnd
        ? PlannedChecker(
          configuration: configuration, items: items, bound: configuration.maxDistortion,
          flatEnd: true
        ).violations(of: layout.elements) : [])
  guard problems.isEmpty else {
    fatalError(
      "\(configuration.alignment) rules broken: \(problems.prefix(3)) in \(configuration) of \(items.prefix(8)) "
        + "in pages from \(pageStarts)")
  }
}

/// Holds one layout to the rules that apply to it.
private func check(_ layout: WaterfallLayout, items: [LayoutItem], rect: Rect) {
  let configuration = layout.configuration
  let numbers =
    layout.elements.flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
    + layout.transforms.flatMap(\.entries) + layout.centers.flatMap { [$0.x, $0.y] }
    + [layout.contentSize.width, layout.contentSize.height]
  guard numbers.allSatisfy({ $0.isFinite }) else { fatalError("a number is not finite") }
  let brute = layout.elements.filter { $0.frame.intersects(rect) }
  guard layout.elements(in: rect) == brute else { fatalError("the rect query of \(rect) differs") }
  // falls check's audit of the frames finds nothing in a layout falls made.
  let audit = FrameAudit.problems(of: layout.elements, configuration: configuration)
  guard audit.isEmpty else {
    fatalError("the frame audit found \(audit.prefix(3).map(\.message)) in \(configuration)")
  }
  guard configuration.style == .irregular || configuration.style == .waterfall else { return }
  if configuration.scale == nil, !configuration.appendsArePages {
    let problems = violations(of: layout, items: items)
    guard problems.isEmpty else {
      fatalError("rules broken: \(problems.prefix(3)) in \(configuration) of \(items.prefix(8))")
    }
  } else {
    // On a pixel grid every edge is on the grid; with a grid, or items that move, no two frames
    // overlap.
    let scale = configuration.scale ?? 1
    for element in layout.elements where configuration.scale != nil {
      let frame = element.frame
      for edge in [frame.x, frame.y, frame.maxX, frame.maxY] {
        let units = edge * scale
        guard abs(units - units.rounded()) <= 1e-6 * max(1, abs(units)) else {
          fatalError("edge \(edge) of element \(element.index) is off the 1/\(scale) grid")
        }
      }
    }
    for (i, a) in layout.elements.enumerated() {
      for b in layout.elements[(i + 1)...] where overlap(a.frame, b.frame) {
        fatalError(
          "elements \(a.index) and \(b.index) overlap: \(a.frame), \(b.frame) in \(configuration) "
            + "of \(items.prefix(8))")
      }
    }
  }
}

/// The independent checker's verdict; a horizontal layout is checked as the vertical one it
/// mirrors (x and y exchanged, each item's width and height exchanged).
private func violations(of layout: WaterfallLayout, items: [LayoutItem]) -> [String] {
  let configuration = layout.configuration
  guard configuration.axis == .horizontal else {
    return LayoutChecker(configuration: configuration, items: items)
      .violations(of: layout.elements, contentHeight: layout.contentHeight)
  }
  let mirrored = items.map { LayoutItem(width: $0.height, height: $0.width, span: $0.span) }
  let elements = layout.elements.map { element in
    var element = element
    let frame = element.frame
    element.frame = Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
    return element
  }
  return LayoutChecker(configuration: configuration.working, items: mirrored)
    .violations(of: elements, contentHeight: layout.contentSize.width)
}

private func overlap(_ a: Rect, _ b: Rect) -> Bool {
  let epsilon = 1e-9 * max(1, abs(a.maxX), abs(a.maxY), abs(b.maxX), abs(b.maxY))
  return a.x < b.maxX - epsilon && b.x < a.maxX - epsilon && a.y < b.maxY - epsilon
    && b.y < a.maxY - epsilon
}

/// The fuzzer's bytes, read as choices: each read takes what it needs and gives zeros once the
/// bytes run out.
private struct ByteInput {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var isAtEnd: Bool { position >= bytes.count }

  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func word() -> UInt64 {
    (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
  }

  /// One of `choices`.
  mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

  /// A length: mostly ordinary values, sometimes extreme ones at the limits.
  mutating func length(_ ordinary: [Double]) -> Double {
    let limits = [0, 0.5, 1e-9, LayoutConfiguration.maximumLength, 1e7, 333.3333333333333]
    return byte() < 224 ? pick(ordinary) : pick(limits)
  }

  mutating func configuration() -> LayoutConfiguration {
    let style = LayoutStyle.allCases[Int(byte()) % LayoutStyle.allCases.count]
    let columns = 1 + Int(byte()) % 12
    var configuration = LayoutConfiguration(
      style: style, width: length([375, 320, 414, 1024, 100, 1]), columns: columns,
      columnSpacing: length([10, 0, 4, 7.5]), rowSpacing: length([10, 0, 5, 2.25]),
      insets: EdgeInsets(
        top: length([10, 0, 3]), left: length([10, 0, 20]), bottom: length([10, 0, 1]),
        right: length([10, 0, 8])),
      seed: word(), enlargeChance: pick([0.67, 1, 0, 0.3, 0.999]),
      alignTolerance: pick([0.2, 0, 0.5, 0.95]))
    if style == .irregular, byte() % 3 == 0 {
      configuration.alignment = pick([.spread, .planned])
      configuration.maxDistortion = pick([0.1, 0.05, 0.3, 0, 0.99, 0.02])
    }
    if style == .irregular, byte() % 4 == 0 { configuration.flatEnd = true }
    if style.family == .columns {
      configuration.order = pick(PlacementOrder.allCases)
      if configuration.order == .shortest, byte() % 3 == 0 {
        configuration.tolerance = pick([20, 0.5, 300])
      }
    }
    if style.family == .columns || style == .grid {
      if byte() % 3 == 0 { configuration.direction = .rightToLeft }
      if byte() % 3 == 0 { configuration.axis = .horizontal }
      if byte() % 3 == 0 { configuration.scale = pick([2, 3, 1, 1.5]) }
    }
    if style == .grid {
      configuration.pattern = pattern(columns: columns) ?? .seed
      if configuration.pattern == .seed { configuration.columns = QuiltPattern.seed.columns }
    }
    if style.family == .ring {
      configuration.viewportHeight = length([667, 812, 100])
      if byte() % 2 == 0 {
        configuration.itemSize = Size(width: length([50, 260, 1]), height: length([50, 100, 2]))
      }
      configuration.offset = Point(x: pick([0, 375, -12.5, 1e6]), y: pick([0, 667, 3000, -1]))
    }
    return configuration
  }

  /// A quilt of up to six tiles for `columns` columns, or `nil` when the bytes make none.
  mutating func pattern(columns: Int) -> QuiltPattern? {
    let count = 1 + Int(byte()) % 6
    let spans = (0..<count).map { _ in (1 + Int(byte()) % 3, 1 + Int(byte()) % 3) }
    return try? QuiltPattern(spans: spans, columns: columns)
  }

  /// An item, or `nil` once the bytes run out.
  mutating func item() -> LayoutItem? {
    guard !isAtEnd else { return nil }
    let kind = byte()
    let width = 1 + Double(byte()) * 8 + Double(byte()) / 16
    let height: Double =
      switch kind % 16 {
      case 0: 1e297  // near the largest extent
      case 1: 1e-300  // rounds to 0
      case 2: width  // square: columns tie
      default: 1 + Double(byte()) * 8 + Double(byte()) / 16
      }
    let span = kind % 11 == 0 ? 2 + Int(byte()) % 4 : kind % 37 == 0 ? LayoutItem.fullSpan : 1
    return LayoutItem(width: width, height: height, span: span)
  }

  /// `items` cut into pages at points the bytes choose.
  mutating func pages(of items: [LayoutItem]) -> [ArraySlice<LayoutItem>] {
    var pages: [ArraySlice<LayoutItem>] = []
    var start = 0
    var random = SplitMix64(seed: word())
    while start < items.count {
      let length = 1 + Int(random.next() >> 58)
      let end = min(items.count, start + length)
      pages.append(items[start..<end])
      start = end
    }
    return pages
  }

}

/// A rectangle somewhere around content of `size`, placed by four bytes.
private func rect(_ place: (UInt8, UInt8, UInt8, UInt8), in size: Size) -> Rect {
  func fraction(_ byte: UInt8) -> Double { Double(byte) / 255 * 1.2 }
  return Rect(
    x: (fraction(place.0) - 0.1) * size.width, y: (fraction(place.1) - 0.1) * size.height,
    width: fraction(place.2) * size.width, height: fraction(place.3) * size.height)
}
