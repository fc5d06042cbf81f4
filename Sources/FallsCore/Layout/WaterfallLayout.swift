/// A waterfall (瀑布流) layout: items placed in order, each into the shortest column.
///
/// A layout is a value: it holds its configuration, the elements placed so far and the state of
/// each column. `append(_:)` places more items below them without moving any already placed (a
/// page loaded when the user pulls up), continuing the random stream where it stopped, so that
/// appending pages one by one gives exactly the layout of their concatenation; `reset()` starts
/// over (a pull-down refresh). It does no I/O and may be used from any thread; like any value, a
/// copy is independent.
///
/// The rules, for column width `w` (see ``LayoutConfiguration/columnWidth``):
/// - An item's natural height is `w · height / width`.
/// - Each item goes into the column whose bottom is highest on screen (the smallest y); ties go to
///   the leftmost. A column's first item has `y = top`; a later one sits exactly `rowSpacing`
///   below the bottom of the item above it.
/// - `.irregular` only: some items are enlarged across two columns whose bottoms meet, and a
///   one-column item whose bottom lands near a neighbour column's takes that bottom; the two
///   rules, each stated once, are in `Enlargement.swift` and `Alignment.swift`.
///
/// Every frame's `y + height` is its column's stored bottom exactly, so a reader of the frames
/// alone sees the numbers the layout compares; the one exception is an aligned item for which no
/// Double height makes `y + height` land on the target (a rounding tie), whose `y + height` is
/// then one ulp away.
///
///     var layout = try WaterfallLayout(LayoutConfiguration(style: .waterfall, columns: 2))
///     try layout.append([LayoutItem(width: 200, height: 300)])
///     layout.elements[0].frame  // x 10, y 10, width 172.5, height 258.75
///
/// The other styles of the family: `.grid` fills a repeating ``QuiltPattern`` block by block;
/// `.circle`, `.cube` and `.sphere` place every item by its index and the item count (see
/// ``LayoutStyle``), so appending to them places every item again, and they carry a
/// ``Transform3D`` and a centre per item in ``transforms`` and ``centers``.
///
/// Beyond the seeds, the columnar styles take what the well-known masonry engines offer: items
/// that span several columns (``LayoutItem/span``), a placement ``PlacementOrder`` and a flow
/// ``LayoutConfiguration/tolerance``, right-to-left columns, pixel alignment
/// (``LayoutConfiguration/scale``) and a horizontal ``LayoutAxis``. ``elements(in:)`` answers
/// which elements intersect a rectangle without scanning them all.
///
/// - Complexity: Placing one item costs O(*c*) for *c* columns in the columnar styles (O(*c* ·
///   *s*) for a span of *s*), O(1) in `.grid`; appending *k* items to a ring style costs
///   O(*n* + *k*) for the *n* already there.
public struct WaterfallLayout: Sendable {
  /// The configuration the layout was made with; it never changes.
  public let configuration: LayoutConfiguration
  /// Every element placed so far, in the order the items were given.
  public internal(set) var elements: [LayoutElement] = []
  /// The engine of the style's family, which places the items.
  var engine: any StyleEngine
  /// The rect query's index of the elements.
  var blockIndex = BlockIndex()

  /// Creates an empty layout.
  ///
  /// - Throws: What ``LayoutConfiguration/validate()`` throws.
  /// - Complexity: O(*c*) for *c* columns.
  public init(_ configuration: LayoutConfiguration) throws(LayoutError) {
    try configuration.validate()
    self.configuration = configuration
    engine = makeEngine(for: configuration)
  }

  /// Creates a layout of `items`.
  ///
  /// - Throws: What ``init(_:)`` and ``append(_:)-(Sequence<LayoutItem>)`` throw.
  /// - Complexity: O(*n* · *c*) for *n* items and *c* columns.
  @inlinable
  public init(_ configuration: LayoutConfiguration, items: some Sequence<LayoutItem>)
    throws(LayoutError)
  {
    try self.init(configuration)
    try append(Array(items))
  }

  /// The 3D transform of each element in a ring style (`circle`, `cube`, `sphere`); empty in the
  /// others.
  public var transforms: [Transform3D] { engine.transforms }

  /// The centre of each element in a ring style, as computed (not rounded through the frame);
  /// empty in the others.
  public var centers: [Point] { engine.centers }

  /// The extent of the content along the scroll axis: the lowest column bottom plus the bottom
  /// inset, or `top + bottom` when there are no items (for a horizontal axis: the rightmost
  /// row end plus the right inset).
  ///
  /// A ring style's content is the viewport: `viewportHeight` for `.circle`, and one viewport
  /// per item (at least one) for `.cube` and `.sphere`, which turn as they scroll.
  public var contentExtent: Double { engine.contentExtent(elements: elements) }

  /// The size of the content: the container width by ``contentExtent`` for a vertical axis,
  /// ``contentExtent`` by the viewport height for a horizontal one.
  public var contentSize: Size {
    configuration.axis == .vertical
      ? Size(width: configuration.width, height: contentExtent)
      : Size(width: contentExtent, height: configuration.viewportHeight)
  }

  /// The height of the content; see ``contentSize``.
  public var contentHeight: Double { contentSize.height }

  /// The stored bottom of each column, or `nil` for a column without items (along the scroll
  /// axis, in the engine's coordinates); empty for the grid and ring styles.
  public var columnBottoms: [Double?] { engine.columnBottoms }

  /// The element of the item at `index`, if there is one.
  ///
  /// - Complexity: O(1).
  public func element(at index: Int) -> LayoutElement? {
    elements.indices.contains(index) ? elements[index] : nil
  }

  /// Removes every element and starts over, as a pull-down refresh does; the random stream
  /// starts again from the seed, so appending the same items gives the same layout as a fresh
  /// one.
  ///
  /// - Complexity: O(*c*) for *c* columns, plus releasing the elements.
  public mutating func reset() {
    elements.removeAll()
    engine = makeEngine(for: configuration)
    blockIndex = BlockIndex()
  }

  /// Makes room for `count` elements in all, for a caller that will append that many in several
  /// batches (each batch otherwise grows the storage as it needs, up to twice what it holds).
  /// Room beyond what is held grows at least twofold, so that reserving before every small page
  /// stays cheap.
  ///
  /// - Complexity: O(*n*) for the *n* elements already placed, when the storage moves.
  public mutating func reserveCapacity(_ count: Int) {
    guard count > elements.capacity else { return }
    let capacity = elements.isEmpty ? count : max(count, elements.capacity * 2)
    reserve(&elements, capacity)
    blockIndex.reserveCapacity(capacity)
  }

  /// Places `items` below those already laid out.
  ///
  /// On error nothing is appended and the layout is unchanged. No items change nothing either:
  /// the elements held back stay held (``heldBackCount``), and ``flattenEnd()`` still flattens
  /// the last page that brought items.
  /// - Throws: ``LayoutError/invalidItemSize(index:width:height:)`` for an item whose size is
  ///   not finite and positive or whose span is below 1, ``LayoutError/heightOverflow(index:)``
  ///   for one whose height or bottom is too large to represent,
  ///   ``LayoutError/heightUnderflow(index:)`` for one whose height is lost in rounding.
  /// - Complexity: O(*k* · *c*) for *k* new items and *c* columns, plus O(*c*) to keep a snapshot
  ///   for the all-or-nothing promise; independent of the items already laid out (ring styles
  ///   excepted, see the type's discussion).
  @inlinable
  public mutating func append(_ items: some Sequence<LayoutItem>) throws(LayoutError) {
    try append(Array(items))
  }

  /// Brings the column bottoms to one line where that is possible within
  /// ``LayoutConfiguration/maxDistortion``, by moving only the items of the last append (the last
  /// page): each column's free run (its items since its last fixed edge; see
  /// ``AlignmentStrategy/spread``) is scaled by one factor towards a common line and stacked
  /// again. The line is the one that asks the least distortion of the runs, between the bottoms
  /// of the columns whose end is fixed, if any; a run that cannot reach it within the bound
  /// moves as far as the bound allows. ``LayoutQuality/raggedEnd`` says how near the ends are.
  ///
  /// Under spread alignment the last page is placed again first, from the state before it, with
  /// its last 0, 1, 2, … (at most 20) rows left free of spread's own corrections (the seed's
  /// one-item correction is still made), until a try ends flat; the flattest try with the
  /// fewest free rows stands.
  ///
  /// Does nothing unless the configuration is `irregular` with ``LayoutConfiguration/flatEnd``,
  /// or when no column can move; the moved ends are fixed edges.
  /// - Complexity: O(*n* + *r* · *k*) for *n* elements, *k* on the last page and *r* tries (the
  ///   rect query's index is made again).
  public mutating func flattenEnd() {
    engine.flattenEnd(&elements, index: &blockIndex)
  }

  /// How many of the last elements may still move: under ``AlignmentStrategy/planned`` (without
  /// a flat end), the last items of the last append, at most ``PlannedAlignment/window``, which
  /// the next append's levellings may move, now that the look-ahead sees its items; 0 after
  /// ``finish()`` and under every other alignment.
  ///
  /// The elements before them are final: no later append moves them. An app that shows a feed
  /// as its pages arrive draws the held-back elements too, where they stand, and draws them
  /// again after the next append (or lays out the final ones only); a consumer that keeps what
  /// it was handed, a stream of frames, takes the first `elements.count - heldBackCount`.
  ///
  /// With ``LayoutConfiguration/flatEnd`` it is 0, as no later append moves an element; but
  /// ``flattenEnd()`` moves the last page's, so a consumer that will flatten the end holds the
  /// last page back itself until then.
  public var heldBackCount: Int { engine.heldBackCount }

  /// Marks the end of the feed: the elements held back (``heldBackCount``) are final as they
  /// stand, and a later append places its items below them without moving them.
  public mutating func finish() { engine.finish() }

  /// Places `items` below those already laid out; see ``append(_:)-(Sequence<LayoutItem>)``.
  ///
  /// This overload is not generic, so the placement loops are compiled for arrays once.
  public mutating func append(_ items: [LayoutItem]) throws(LayoutError) {
    try engine.append(.array(items), to: &elements, index: &blockIndex)
  }

  /// Places generated `items` below those already laid out, as one append (one page), made
  /// as they are placed: the items are never held, whatever their number.
  ///
  /// The same as appending them in an array; see ``append(_:)-(Sequence<LayoutItem>)``.
  public mutating func append(_ items: SyntheticFeed.Items) throws(LayoutError) {
    try engine.append(.generated(items), to: &elements, index: &blockIndex)
  }
}
