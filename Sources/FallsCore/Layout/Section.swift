/// One section of a ``SectionedLayout``: its own columns, spacing and insets, and a header and a
/// footer of their own (CHT's per-section settings).
public struct Section: Hashable, Sendable {
  /// How the section's items are laid out.
  public var configuration: LayoutConfiguration
  /// The header's extent along the scroll axis, above (or before) the items; 0 for none.
  public var headerHeight: Double
  /// The footer's extent along the scroll axis, below (or after) the items; 0 for none.
  public var footerHeight: Double

  /// Creates a section.
  public init(
    configuration: LayoutConfiguration, headerHeight: Double = 0, footerHeight: Double = 0
  ) {
    self.configuration = configuration
    self.headerHeight = headerHeight
    self.footerHeight = footerHeight
  }
}
