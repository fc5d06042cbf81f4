/// Generated items whose heights are drawn between a minimum and a maximum, as the seed's
/// simple waterfall drew them (100 to 250 points by default): for demos, tests and benchmarks.
public enum SyntheticFeed {
  /// The default smallest height, in points.
  public static let defaultMinimumHeight = 100.0
  /// The default largest height, in points.
  public static let defaultMaximumHeight = 250.0

  /// `count` items for columns of width `columnWidth`, whose natural heights in such a column
  /// lie in `minimumHeight...maximumHeight` points exactly, drawn uniformly from `seed`: the
  /// first `count` of ``Generator``'s items.
  ///
  /// - Precondition: `0 < minimumHeight <= maximumHeight`, both finite; `columnWidth > 0`.
  /// - Complexity: O(*count*).
  public static func items(
    count: Int, seed: UInt64, minimumHeight: Double = defaultMinimumHeight,
    maximumHeight: Double = defaultMaximumHeight, columnWidth: Double
  ) -> [LayoutItem] {
    var generator = Generator(
      seed: seed, minimumHeight: minimumHeight, maximumHeight: maximumHeight,
      columnWidth: columnWidth)
    return generator.items(count: count)
  }

  /// The first `count` items of a ``Generator``, each made when it is read rather than held: a
  /// layout of a million of them, appended as one page, never holds the million
  /// (``WaterfallLayout/append(_:)-(SyntheticFeed.Items)``).
  ///
  /// Item *i* is made from the generator's *i*-th draw, which SplitMix64 reaches at once (its
  /// state after *i* steps is the state plus *i* times its increment): reading the items in any
  /// order, or again, gives the items the generator gives in turn.
  public struct Items: RandomAccessCollection, Sendable {
    private let generator: Generator

    public let startIndex = 0
    public let endIndex: Int

    /// The next `count` items of `generator`.
    public init(_ generator: Generator, count: Int) {
      self.generator = generator
      endIndex = Swift.max(count, 0)
    }

    /// Item `position`.
    ///
    /// - Complexity: O(1).
    public subscript(position: Int) -> LayoutItem {
      precondition(indices.contains(position), "position out of range")
      return generator.item(at: position)
    }
  }

  /// The endless stream of generated items, for feeds too long to hold at once: taken a batch
  /// at a time, they are exactly the items of ``items(count:seed:minimumHeight:maximumHeight:columnWidth:)``.
  ///
  /// Each item is `columnWidth` wide and as tall as its drawn height, so the layout's
  /// `w · height / width` gives back the height; where that rounds outside the range by an ulp,
  /// the height is nudged back in. The heights come from their own SplitMix64 stream
  /// (`seed ^ 0x5EED_F00D`), so they do not disturb the layout's enlargement draws.
  public struct Generator: IteratorProtocol, Sendable {
    private var random: SplitMix64
    private let minimumHeight: Double
    private let maximumHeight: Double
    private let columnWidth: Double
    private let axis: LayoutAxis

    /// A stream of items for columns of width `columnWidth` across `axis`: each item is that
    /// wide across the axis, and its drawn height long along it (for a horizontal axis, the
    /// rows' height and the drawn width).
    ///
    /// - Precondition: `0 < minimumHeight <= maximumHeight`, both finite; `columnWidth > 0`.
    public init(
      seed: UInt64, minimumHeight: Double, maximumHeight: Double, columnWidth: Double,
      axis: LayoutAxis = .vertical
    ) {
      precondition(minimumHeight > 0 && minimumHeight <= maximumHeight && maximumHeight.isFinite)
      precondition(columnWidth > 0 && columnWidth.isFinite)
      random = SplitMix64(seed: seed ^ 0x5EED_F00D)
      self.minimumHeight = minimumHeight
      self.maximumHeight = maximumHeight
      self.columnWidth = columnWidth
      self.axis = axis
    }

    /// The next item; the stream never ends.
    public mutating func next() -> LayoutItem? {
      nextItem()
    }

    /// The item `position` places from here: what `position + 1` calls of ``next()`` end with,
    /// made at once.
    ///
    /// - Complexity: O(1).
    func item(at position: Int) -> LayoutItem {
      var jumped = self
      jumped.random = SplitMix64(seed: random.state &+ SplitMix64.increment &* UInt64(position))
      return jumped.nextItem()
    }

    /// The next `count` items.
    ///
    /// - Complexity: O(*count*).
    public mutating func items(count: Int) -> [LayoutItem] {
      var items: [LayoutItem] = []
      items.reserveCapacity(max(count, 0))
      for _ in 0..<max(count, 0) { items.append(nextItem()) }
      return items
    }

    private mutating func nextItem() -> LayoutItem {
      let drawn = minimumHeight + random.nextUnit() * (maximumHeight - minimumHeight)
      var height = min(max(drawn, minimumHeight), maximumHeight)
      for _ in 0..<8 {
        let laidOut = columnWidth * height / columnWidth
        if laidOut < minimumHeight {
          height = height.nextUp
        } else if laidOut > maximumHeight {
          height = height.nextDown
        } else {
          break
        }
      }
      return axis == .vertical
        ? LayoutItem(width: columnWidth, height: height)
        : LayoutItem(width: height, height: columnWidth)
    }
  }
}
