/// How a columnar layout looks, in six figures, each a share or a ratio (0.1 is 10%).
///
/// An item's *natural height* is the height the rules give it before any correction: `w ·
/// height / width` in a column of width `w` (across its columns for an item with a span), and
/// for an enlarged item twice its one-column natural height plus the row spacing (two rows'
/// worth: the enlargement rule). Its *distortion* is |height − natural| / natural. On a pixel
/// grid (``LayoutConfiguration/scale``) a height within one grid step of the natural one counts
/// as natural: that is the grid's rounding, not a correction. For a horizontal axis, "height"
/// is the extent along the rows.
public struct LayoutQuality: Hashable, Sendable {
  /// Enlarged items / items.
  public var enlargedShare: Double
  /// Items whose height differs from their natural height / items.
  public var correctedShare: Double
  /// The mean distortion of the corrected items; 0 when none is.
  public var meanDistortion: Double
  /// The largest distortion of any item.
  public var maxDistortion: Double
  /// (lowest column bottom − highest column bottom) / the mean item height: how far from one
  /// line the columns end, in items. Columns without items are left out.
  public var raggedEnd: Double
  /// The area of the items / the area of the content rectangle inside the insets.
  public var coverage: Double

  /// The figures' names, as the JSON output and `falls layout --quality` spell them, in order.
  public static let names = [
    "enlargedShare", "correctedShare", "meanDistortion", "maxDistortion", "raggedEnd", "coverage",
  ]

  /// The relative difference from the natural extent, a billionth, at or below which an extent
  /// is natural: floating-point noise (sums of tops, a height made to land on a line), not a
  /// correction. The spread alignment makes no correction this small (``SpreadAlignment``).
  static let noise = 1e-9

  /// The figures in the order of ``names``.
  public var values: [Double] {
    [enlargedShare, correctedShare, meanDistortion, maxDistortion, raggedEnd, coverage]
  }

  /// The figures of `layout`, which placed `items` in order; `nil` for a style that is not
  /// columnar (`grid` and the ring styles do not use image sizes).
  ///
  /// - Precondition: `items` holds at least as many items as the layout has elements.
  /// - Complexity: O(*n*) for *n* elements.
  public init?(of layout: WaterfallLayout, items: some Sequence<LayoutItem>) {
    let configuration = layout.configuration
    guard let measure = DistortionMeasure(configuration) else { return nil }
    let isVertical = configuration.axis == .vertical
    var iterator = items.makeIterator()
    var (enlarged, corrected, distortionSum, maxDistortion) = (0, 0, 0.0, 0.0)
    // The area is summed in units of the content rectangle's size, rounded down to powers of
    // two: scaling by a power of two is exact, so the coverage is the plain ratio of areas to
    // the last bit, and no sum of products can overflow however far down the items reach.
    let insets = configuration.insets
    let size = layout.contentSize
    let inside = (
      width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom
    )
    let unit = (
      width: Self.powerOfTwo(atMost: inside.width), height: Self.powerOfTwo(atMost: inside.height)
    )
    var (extentSum, area) = (0.0, 0.0)
    for element in layout.elements {
      guard let item = iterator.next() else { preconditionFailure("fewer items than elements") }
      let frame = element.frame
      let extent = isVertical ? frame.height : frame.width
      if element.isEnlarged { enlarged += 1 }
      let distortion = measure.distortion(of: element, item: item)
      if distortion > 0 {
        corrected += 1
        distortionSum += distortion
        maxDistortion = max(maxDistortion, distortion)
      }
      extentSum += extent
      area += (frame.width / unit.width) * (frame.height / unit.height)
    }
    let count = Double(layout.elements.count)
    enlargedShare = count > 0 ? Double(enlarged) / count : 0
    correctedShare = count > 0 ? Double(corrected) / count : 0
    meanDistortion = corrected > 0 ? distortionSum / Double(corrected) : 0
    self.maxDistortion = maxDistortion
    let bottoms = layout.columnBottoms.compactMap { $0 }
    let meanExtent = count > 0 ? extentSum / count : 0
    raggedEnd =
      meanExtent > 0 ? ((bottoms.max() ?? 0) - (bottoms.min() ?? 0)) / meanExtent : 0
    let insideArea = (inside.width / unit.width) * (inside.height / unit.height)
    coverage = insideArea > 0 ? area / insideArea : 0
  }

  /// The largest power of two at or below `value`, or 1 for a value that is not positive and
  /// finite: a unit that divides exactly.
  static func powerOfTwo(atMost value: Double) -> Double {
    guard value.isFinite, value >= .leastNormalMagnitude else { return 1 }
    return Double(sign: .plus, exponent: value.exponent, significand: 1)
  }

  /// The distortion of each element of `layout`, which placed `items` in order (0 for an item
  /// at its natural height); `nil` for a style that is not columnar.
  ///
  /// - Complexity: O(*n*) for *n* elements.
  public static func distortions(of layout: WaterfallLayout, items: some Sequence<LayoutItem>)
    -> [Double]?
  {
    guard let measure = DistortionMeasure(layout.configuration) else { return nil }
    return zip(layout.elements, items).map { measure.distortion(of: $0, item: $1) }
  }
}
