/// Sections stacked along the scroll axis, each a ``WaterfallLayout`` between its header and its
/// footer; the content is at least ``minimumContentHeight`` long (CHT's minimumContentHeight).
///
/// Section *s* starts where section *s* − 1 ends: its header spans the container's full width,
/// its items follow (their insets apply inside the section), and its footer follows the items.
/// Items are appended to one section at a time; sections after it move down.
public struct SectionedLayout: Sendable {
  /// Why sections cannot be stacked.
  public enum Problem: Error, Hashable, Sendable {
    /// A layout needs at least one section.
    case noSections
    /// Section `section`'s configuration is invalid.
    case invalidSection(section: Int, LayoutError)
    /// A header or footer height, or the minimum content height, is not from 0 to
    /// ``LayoutConfiguration/maximumLength``.
    case invalidLength(String, Double)
    /// Section `section` has another width, viewport height or axis than section 0.
    case mismatchedSection(section: Int)
    /// Appending to a section that does not exist.
    case noSuchSection(Int)
  }

  /// The layouts of the sections, without their offsets.
  public private(set) var layouts: [WaterfallLayout]
  /// The sections as given.
  public let sections: [Section]
  /// The least extent of the content along the scroll axis.
  public let minimumContentHeight: Double

  /// Creates empty sections.
  ///
  /// - Throws: ``Problem`` for an invalid section, header, footer or minimum, or sections that
  ///   disagree on width, viewport height or axis.
  /// - Complexity: O(*s* · *c*) for *s* sections of *c* columns.
  public init(_ sections: [Section], minimumContentHeight: Double = 0) throws(Problem) {
    guard let first = sections.first else { throw .noSections }
    let lengths = LayoutConfiguration.lengths
    guard lengths.contains(minimumContentHeight) else {
      throw .invalidLength("minimumContentHeight", minimumContentHeight)
    }
    var layouts: [WaterfallLayout] = []
    for (index, section) in sections.enumerated() {
      for (name, value) in [
        ("headerHeight", section.headerHeight), ("footerHeight", section.footerHeight),
      ]
      where !lengths.contains(value) {
        throw .invalidLength(name, value)
      }
      let configuration = section.configuration
      guard configuration.width == first.configuration.width,
        configuration.axis == first.configuration.axis,
        configuration.axis == .vertical
          || configuration.viewportHeight == first.configuration.viewportHeight
      else { throw .mismatchedSection(section: index) }
      do {
        layouts.append(try WaterfallLayout(configuration))
      } catch {
        throw .invalidSection(section: index, error)
      }
    }
    self.sections = sections
    self.layouts = layouts
    self.minimumContentHeight = minimumContentHeight
  }

  /// One section holding `layout`, without header, footer or minimum height; nothing can be
  /// wrong with it.
  public init(_ layout: WaterfallLayout) {
    sections = [Section(configuration: layout.configuration)]
    layouts = [layout]
    minimumContentHeight = 0
  }

  /// Stacks layouts already filled, one per section.
  ///
  /// - Throws: What ``init(_:minimumContentHeight:)`` throws, or
  ///   ``Problem/mismatchedSection(section:)`` when a layout's configuration is not its
  ///   section's.
  public init(
    sections: [Section], layouts: [WaterfallLayout], minimumContentHeight: Double = 0
  ) throws(Problem) {
    try self.init(sections, minimumContentHeight: minimumContentHeight)
    guard layouts.count == sections.count else { throw .mismatchedSection(section: layouts.count) }
    for (index, layout) in layouts.enumerated()
    where layout.configuration != sections[index].configuration {
      throw .mismatchedSection(section: index)
    }
    self.layouts = layouts
  }

  /// Places `items` in section `section`, below its items.
  ///
  /// - Throws: What ``WaterfallLayout/append(_:)-(Sequence<LayoutItem>)`` throws, as ``Problem/invalidSection(section:_:)``;
  ///   nothing is appended then.
  /// - Complexity: That of ``WaterfallLayout/append(_:)-(Sequence<LayoutItem>)``.
  public mutating func append(_ items: some Sequence<LayoutItem>, toSection section: Int)
    throws(Problem)
  {
    guard layouts.indices.contains(section) else { throw .noSuchSection(section) }
    do {
      try layouts[section].append(items)
    } catch {
      throw .invalidSection(section: section, error)
    }
  }

  private var axis: LayoutAxis { sections[0].configuration.axis }

  /// How far along the scroll axis section `section` starts.
  ///
  /// - Complexity: O(*s*) for the sections before it.
  public func start(ofSection section: Int) -> Double {
    (0..<section).reduce(0) { $0 + extent(ofSection: $1) }
  }

  /// Section `section`'s extent: header, items and footer.
  public func extent(ofSection section: Int) -> Double {
    sections[section].headerHeight + layouts[section].contentExtent + sections[section].footerHeight
  }

  /// The content's extent along the scroll axis: every section's, at least the minimum.
  public var contentExtent: Double {
    max(start(ofSection: sections.count), minimumContentHeight)
  }

  /// The size of the content.
  public var contentSize: Size {
    let configuration = sections[0].configuration
    return axis == .vertical
      ? Size(width: configuration.width, height: contentExtent)
      : Size(width: contentExtent, height: configuration.viewportHeight)
  }

  /// A band of the content along the scroll axis, across its full breadth.
  private func band(from start: Double, length: Double) -> Rect {
    let size = contentSize
    return axis == .vertical
      ? Rect(x: 0, y: start, width: size.width, height: length)
      : Rect(x: start, y: 0, width: length, height: size.height)
  }

  private func shifted(_ frame: Rect, by distance: Double) -> Rect {
    var frame = frame
    if axis == .vertical { frame.y += distance } else { frame.x += distance }
    return frame
  }

  /// Every element: for each section its header (if any), its items, its footer (if any).
  ///
  /// - Complexity: O(*n* + *s*).
  public var elements: [SectionElement] {
    var all: [SectionElement] = []
    forEachElement { all.append($0) }
    return all
  }

  /// The number of elements: every section's items, headers and footers.
  ///
  /// - Complexity: O(*s*) for *s* sections.
  public var elementCount: Int {
    sections.indices.reduce(0) { $0 + elementCount(ofSection: $1) }
  }

  private func elementCount(ofSection section: Int) -> Int {
    (sections[section].headerHeight > 0 ? 1 : 0) + layouts[section].elements.count
      + (sections[section].footerHeight > 0 ? 1 : 0)
  }

  /// Calls `body` with every element, in the order of ``elements``, without gathering them.
  ///
  /// - Throws: What `body` throws; the walk stops there.
  /// - Complexity: O(*n* + *s*).
  public func forEachElement<Failure: Error>(
    _ body: (SectionElement) throws(Failure) -> Void
  ) throws(Failure) {
    try forEachElement(in: 0..<Int.max, body)
  }

  /// Calls `body` with the elements at `positions` of the order of ``elements`` (positions past
  /// the last element are ignored), without gathering them: for writing parts of a long layout
  /// side by side.
  ///
  /// - Throws: What `body` throws; the walk stops there.
  /// - Complexity: O(*k* + *s*) for *k* elements visited.
  public func forEachElement<Failure: Error>(
    in positions: Range<Int>, _ body: (SectionElement) throws(Failure) -> Void
  ) throws(Failure) {
    var start = 0.0
    var first = 0  // the position of the section's first element
    for (index, section) in sections.enumerated() {
      let count = elementCount(ofSection: index)
      defer {
        start += extent(ofSection: index)
        first += count
      }
      guard first < positions.upperBound, first + count > positions.lowerBound else { continue }
      var position = first
      if section.headerHeight > 0 {
        if positions.contains(position) {
          try body(
            SectionElement(
              kind: .header, section: index, item: nil,
              frame: band(from: start, length: section.headerHeight)))
        }
        position += 1
      }
      let itemsStart = start + section.headerHeight
      let items = layouts[index].elements
      let low = min(max(positions.lowerBound - position, 0), items.count)
      let high = max(min(positions.upperBound - position, items.count), low)
      for itemIndex in low..<high {
        let element = items[itemIndex]
        try body(
          SectionElement(
            kind: .item, section: index, item: element,
            frame: shifted(element.frame, by: itemsStart)))
      }
      position += items.count
      if section.footerHeight > 0, positions.contains(position) {
        try body(
          SectionElement(
            kind: .footer, section: index, item: nil,
            frame: band(
              from: itemsStart + layouts[index].contentExtent, length: section.footerHeight)))
      }
    }
  }

  /// The elements whose frames intersect `rect`, in the order of ``elements``.
  ///
  /// - Complexity: O(*s*) for the sections plus each crossed section's
  ///   ``WaterfallLayout/elements(in:)``.
  public func elements(in rect: Rect) -> [SectionElement] {
    var found: [SectionElement] = []
    var start = 0.0
    for (index, section) in sections.enumerated() {
      let header = band(from: start, length: section.headerHeight)
      if section.headerHeight > 0, header.intersects(rect) {
        found.append(SectionElement(kind: .header, section: index, item: nil, frame: header))
      }
      let itemsStart = start + section.headerHeight
      for element in layouts[index].elements(in: shifted(rect, by: -itemsStart)) {
        found.append(
          SectionElement(
            kind: .item, section: index, item: element,
            frame: shifted(element.frame, by: itemsStart)))
      }
      let footerStart = itemsStart + layouts[index].contentExtent
      let footer = band(from: footerStart, length: section.footerHeight)
      if section.footerHeight > 0, footer.intersects(rect) {
        found.append(SectionElement(kind: .footer, section: index, item: nil, frame: footer))
      }
      start = footerStart + section.footerHeight
    }
    return found
  }
}
