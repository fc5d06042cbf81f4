/// The natural extent and the distortion of one element of a columnar layout, as the quality
/// figures count them (``LayoutQuality``): the one statement of both, for the figures and for
/// a writer of each item's.
///
///     let measure = DistortionMeasure(layout.configuration)
///     measure?.distortion(of: layout.elements[0], item: items[0])  // 0.04: 4% off
public struct DistortionMeasure: Sendable {
  private let configuration: LayoutConfiguration
  private let working: LayoutConfiguration

  /// The measure of a layout of `configuration`, or `nil` for a style that does not use item
  /// sizes (grid and the ring styles).
  public init?(_ configuration: LayoutConfiguration) {
    guard configuration.style.usesItemSizes else { return nil }
    self.configuration = configuration
    working = configuration.working
  }

  /// The extent along the scroll axis that `item`'s image ratio gives `element` before any
  /// correction: `w · height / width` across the element's columns, and for an enlarged item
  /// twice its one-column natural height plus the row spacing.
  public func naturalExtent(of element: LayoutElement, item: LayoutItem) -> Double {
    let (across, along) = item.extents(along: configuration.axis)
    if element.isEnlarged {
      return Enlargement.extent(
        ofHeight: ColumnsEngine.naturalExtent(width: working.columnWidth, across, along),
        rowSpacing: working.rowSpacing)
    }
    let width = ColumnsEngine.width(
      ofSpan: element.span, columnWidth: working.columnWidth, spacing: working.columnSpacing)
    return ColumnsEngine.naturalExtent(width: width, across, along)
  }

  /// |extent − natural| / natural for `element`, which places `item`; 0 when the difference is
  /// within a grid step of rounding (or, without a grid, floating-point noise).
  public func distortion(of element: LayoutElement, item: LayoutItem) -> Double {
    let frame = element.frame
    let extent = configuration.axis == .vertical ? frame.height : frame.width
    let natural = naturalExtent(of: element, item: item)
    let grid = configuration.scale.map { 1 / $0 } ?? 0
    let difference = abs(extent - natural)
    return difference > grid + natural * LayoutQuality.noise ? difference / natural : 0
  }
}
