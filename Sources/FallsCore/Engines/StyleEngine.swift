// The engines behind ``WaterfallLayout``: one per style family, each in a file of its own
// (ColumnsEngine.swift, QuiltEngine.swift, RingEngine.swift), chosen here by an exhaustive switch
// over the styles.

/// What a family of styles does for a ``WaterfallLayout``: it places items, and says how long
/// the content is.
protocol StyleEngine: Sendable {
  /// Places `items` after `elements` and adds them to the rect query's `index`.
  ///
  /// All or nothing: on an error, `elements`, `index` and the engine are as they were.
  mutating func append(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError)

  /// The extent of the content along the scroll axis, with `elements` placed.
  func contentExtent(elements: [LayoutElement]) -> Double

  /// The stored bottom of each column, or `nil` for an empty one; empty for engines without
  /// columns.
  var columnBottoms: [Double?] { get }

  /// The 3D transform and the centre of each element, for engines that give them.
  var transforms: [Transform3D] { get }
  var centers: [Point] { get }

  /// Brings the column ends of the last batch to one line where the distortion bound allows
  /// (``WaterfallLayout/flattenEnd()``); nothing for engines without columns.
  /// How many of the last elements may still move: the next append places them again
  /// (``WaterfallLayout/heldBackCount``).
  var heldBackCount: Int { get }
  /// Marks the end of the feed: nothing is held back any more.
  mutating func finish()
  mutating func flattenEnd(_ elements: inout [LayoutElement], index: inout BlockIndex)

  /// Whether ``WaterfallLayout/elements(in:)`` may use the block index: false where elements
  /// overlap by design and move on every append, which are scanned.
  var isIndexed: Bool { get }
}

/// An engine that reads a batch's items once, in order, whatever holds them: the grid and the
/// ring styles, which use only the items' count and that their sizes are sizes.
protocol SequentialEngine: StyleEngine {
  /// Places `items` after `elements`, as ``StyleEngine/append(_:to:index:)`` does.
  mutating func append<Items: Sequence<LayoutItem>>(
    items: Items, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError)
}

extension SequentialEngine {
  mutating func append(
    _ items: PageItems, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    switch items {
    case .array(let items): try append(items: items, to: &elements, index: &index)
    case .generated(let items): try append(items: items, to: &elements, index: &index)
    }
  }
}

extension StyleEngine {
  /// Nothing: only the columnar engine has a flat end.
  mutating func flattenEnd(_ elements: inout [LayoutElement], index: inout BlockIndex) {}
  var heldBackCount: Int { 0 }
  mutating func finish() {}
}

/// The engine of `configuration`'s style.
///
/// - Precondition: `configuration` is valid.
func makeEngine(for configuration: LayoutConfiguration) -> any StyleEngine {
  switch configuration.style {
  case .irregular: ColumnsEngine(configuration, enlargesAndAligns: true)
  case .waterfall: ColumnsEngine(configuration, enlargesAndAligns: false)
  case .grid: QuiltEngine(configuration)
  case .circle: RingEngine(configuration, shape: .circle)
  case .cube: RingEngine(configuration, shape: .cube)
  case .sphere: RingEngine(configuration, shape: .sphere)
  }
}

/// Appends a batch's elements to `elements`, taking the batch's array as it is when nothing is
/// there and the room reserved holds no more than the batch (one feed laid out at once): room
/// reserved and never written costs no memory, where a copy into it would cost the batch twice.
/// Room reserved for more batches is kept, and filled.
func append(_ placed: [LayoutElement], to elements: inout [LayoutElement]) {
  if elements.isEmpty, elements.capacity <= placed.capacity {
    elements = placed
    return
  }
  let needed = elements.count + placed.count
  if needed > elements.capacity { reserve(&elements, max(needed, elements.capacity * 2)) }
  elements += placed
}

/// Makes room for `capacity` elements, in huge pages when the storage is large (see
/// ``HugePages``).
func reserve(_ elements: inout [LayoutElement], _ capacity: Int) {
  guard capacity > elements.capacity else { return }
  elements.reserveCapacity(capacity)
  HugePages.advise(&elements)
}
