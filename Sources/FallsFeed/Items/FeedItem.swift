import FallsBase
import FallsCore

/// One valid item of a finderlist feed.
public struct FeedItem: Hashable, Sendable {
  /// The item's position in the feed's `data` array, from 0; kept when invalid items are skipped.
  public var index: Int
  /// The image URL, as the feed gave it.
  public var img: String
  /// The image width; finite and positive, or 0 when the feed gives no size (read with
  /// missing sizes allowed, ``FeedDecoder``).
  public var width: Double
  /// The image height; finite and positive, or 0 with the width.
  public var height: Double
  /// How many columns the item asks to cover (the optional `"span"`: a whole number, or
  /// `"full"` for ``LayoutItem/fullSpan``); 1 when the feed gives none.
  public var span: Int

  /// Creates an item.
  public init(index: Int, img: String, width: Double, height: Double, span: Int = 1) {
    self.index = index
    self.img = img
    self.width = width
    self.height = height
    self.span = span
  }

  /// Whether the feed gives the item's size.
  public var hasSize: Bool { width > 0 && height > 0 }

  /// The size and span the layout core needs.
  public var layoutItem: LayoutItem { LayoutItem(width: width, height: height, span: span) }
}
