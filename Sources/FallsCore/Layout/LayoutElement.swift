/// Where one item landed.
///
/// Stored in 48 bytes (the frame, three 32-bit counts and two flags), since a layout keeps one per
/// item: a million items take 48 MB, not 64.
public struct LayoutElement: Hashable, Sendable {
  // Stored in this order so that nothing is padded.
  /// The item's frame in points.
  public var frame: Rect
  private var storedIndex: Int32
  private var storedColumn: Int32
  private var storedSpan: Int32
  /// Whether the item was enlarged across two columns.
  public var isEnlarged: Bool
  /// Whether the item's height was corrected so that its bottom meets a neighbour column's.
  public var isAligned: Bool

  /// The item's position in the sequence of items the layout was given, from 0.
  public var index: Int {
    get { Int(storedIndex) }
    set { storedIndex = Int32(newValue) }
  }
  /// The leftmost column the item occupies.
  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = Int32(newValue) }
  }
  /// How many columns the item occupies: 1, 2 when enlarged, or the span the item asked for.
  public var span: Int {
    get { Int(storedSpan) }
    set { storedSpan = Int32(newValue) }
  }

  /// Creates an element.
  ///
  /// - Precondition: `index`, `column` and `span` are below 2^31.
  public init(
    index: Int, column: Int, span: Int, frame: Rect, isEnlarged: Bool, isAligned: Bool
  ) {
    storedIndex = Int32(index)
    storedColumn = Int32(column)
    storedSpan = Int32(span)
    self.frame = frame
    self.isEnlarged = isEnlarged
    self.isAligned = isAligned
  }

  /// Creates an element whose `index`, `column` and `span` the caller has checked to be below
  /// 2^31 (the placement loops check a batch's last index once).
  init(
    checkedIndex index: Int, column: Int, span: Int, frame: Rect, isEnlarged: Bool,
    isAligned: Bool
  ) {
    storedIndex = Int32(truncatingIfNeeded: index)
    storedColumn = Int32(truncatingIfNeeded: column)
    storedSpan = Int32(truncatingIfNeeded: span)
    self.frame = frame
    self.isEnlarged = isEnlarged
    self.isAligned = isAligned
  }
}
