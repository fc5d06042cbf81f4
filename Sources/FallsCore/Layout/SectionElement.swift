/// What an element of a ``SectionedLayout`` is.
public enum ElementKind: String, CaseIterable, Hashable, Sendable {
  /// A section's header.
  case header
  /// A feed item.
  case item
  /// A section's footer.
  case footer
}

/// An element of a ``SectionedLayout``: a header, an item or a footer, with its frame in the
/// whole content.
public struct SectionElement: Hashable, Sendable {
  /// What it is.
  public var kind: ElementKind
  /// The section it belongs to, from 0.
  public var section: Int
  /// The item's element (its index within the section, column, flags), for items only.
  public var item: LayoutElement?
  /// The frame in the whole content.
  public var frame: Rect

  /// Creates an element.
  public init(kind: ElementKind, section: Int, item: LayoutElement?, frame: Rect) {
    self.kind = kind
    self.section = section
    self.item = item
    self.frame = frame
  }
}
