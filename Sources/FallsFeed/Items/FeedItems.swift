import FallsBase
import FallsCore
import FallsMemory

/// A feed's valid items, stored field by field: every image URL's bytes in one array, sizes and
/// spans in arrays of their own, and feed indices only where they are not consecutive.
///
/// A million items take about 28 bytes each plus their URLs, where an array of ``FeedItem``
/// would take 48 bytes each plus a string object of about 80. Reading an element makes its
/// ``FeedItem`` (and its `img` string); the field accessors and ``withImage(at:_:)`` do not.
///
/// Two values holding the same items are equal: the storage is kept in one canonical form.
public struct FeedItems: RandomAccessCollection, Hashable, Sendable {
  /// The UTF-8 bytes of every `img`, one after another.
  @usableFromInline var imageBytes: [UInt8] = []
  /// Where each item's `img` ends in `imageBytes`; it starts where the one before ends.
  @usableFromInline var imageEnds: [Int] = []
  private var widths: [Double] = []
  private var heights: [Double] = []
  /// Spans in 32 bits: ``LayoutItem/fullSpan`` as −1, others clamped (a feed's spans are below
  /// 10^9).
  private var spans: [Int32] = []
  /// The feed index of the first item; the others follow it one by one unless `feedIndices`
  /// lists them (only when they do not: after skipped or removed items). 0 when empty.
  private var firstIndex = 0
  private var feedIndices: [Int]?
  /// How many `img` values hold a byte that a JSON string must escape (a quote, a backslash, a
  /// control character); see ``imagesNeedingJSONEscapes``.
  private var escapingImages = 0

  /// No items.
  public init() {}

  /// The items of `items`, in order.
  public init(_ items: some Sequence<FeedItem>) {
    for item in items { append(item) }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { imageEnds.count }

  /// The item at `position`, with its `img` made into a string.
  public subscript(position: Int) -> FeedItem {
    FeedItem(
      index: feedIndex(at: position),
      img: withImage(at: position) { String(decoding: $0, as: UTF8.self) },
      width: widths[position], height: heights[position], span: span(at: position))
  }

  /// How many items' `img` hold a byte that a JSON string must escape: when none do, a writer
  /// may copy every URL as it is, without looking at its bytes.
  ///
  /// Kept as items come and go; items read by the feed parser from strings without escapes are
  /// known to need none without a look.
  public var imagesNeedingJSONEscapes: Int { escapingImages }

  /// Gives the item at `position` the size `width` × `height` (its image's, read).
  public mutating func setSize(at position: Int, width: Double, height: Double) {
    widths[position] = width
    heights[position] = height
  }

  /// The feed index of the item at `position`.
  public func feedIndex(at position: Int) -> Int {
    precondition(indices.contains(position), "position out of range")
    return feedIndices?[position] ?? firstIndex + position
  }

  /// The span of the item at `position`.
  public func span(at position: Int) -> Int {
    spans[position] < 0 ? LayoutItem.fullSpan : Int(spans[position])
  }

  /// The size and span the layout core needs, for the item at `position`.
  public func layoutItem(at position: Int) -> LayoutItem {
    LayoutItem(width: widths[position], height: heights[position], span: span(at: position))
  }

  /// The layout items of the items at `positions`.
  public func layoutItems(_ positions: Range<Int>) -> [LayoutItem] {
    positions.map(layoutItem(at:))
  }

  /// Calls `body` with the UTF-8 bytes of the `img` of the item at `position`, without making a
  /// string of them.
  @inlinable  // specialised where it is called: the writers call it for every item
  package func withImage<Result>(
    at position: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    let start = position == 0 ? 0 : imageEnds[position - 1]
    return try imageBytes.withUnsafeBufferPointer { bytes in
      try body(UnsafeBufferPointer(rebasing: bytes[start..<imageEnds[position]]))
    }
  }

  /// Calls `body` with the items' URLs and feed indices as memory it reads in place: for a
  /// writer that visits many items, one look at the arrays for all of them, where
  /// ``withImage(at:_:)`` and ``feedIndex(at:)`` make one for each.
  ///
  /// The ``Contents`` must not outlive the call.
  package func withContents<Result, Failure: Error>(
    _ body: (Contents) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try imageBytes.withUnsafeBufferPointer { (bytes) throws(Failure) in
      try imageEnds.withUnsafeBufferPointer { (ends) throws(Failure) in
        guard let feedIndices else {
          return try body(Contents(bytes: bytes, ends: ends, indices: nil, firstIndex: firstIndex))
        }
        return try feedIndices.withUnsafeBufferPointer { (indices) throws(Failure) in
          try body(Contents(bytes: bytes, ends: ends, indices: indices, firstIndex: firstIndex))
        }
      }
    }
  }

  /// The items' URLs and feed indices, as ``withContents(_:)`` lends them.
  package struct Contents {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let ends: UnsafeBufferPointer<Int>
    @usableFromInline let indices: UnsafeBufferPointer<Int>?
    @usableFromInline let firstIndex: Int

    @usableFromInline init(
      bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>,
      indices: UnsafeBufferPointer<Int>?, firstIndex: Int
    ) {
      self.bytes = bytes
      self.ends = ends
      self.indices = indices
      self.firstIndex = firstIndex
    }

    /// The UTF-8 bytes of the `img` of the item at `position`.
    @inlinable
    package func image(at position: Int) -> UnsafeBufferPointer<UInt8> {
      let start = position == 0 ? 0 : ends[position - 1]
      return UnsafeBufferPointer(rebasing: bytes[start..<ends[position]])
    }

    /// The feed index of the item at `position`.
    @inlinable
    package func feedIndex(at position: Int) -> Int {
      precondition(position >= 0 && position < ends.count, "position out of range")
      return indices?[position] ?? firstIndex + position
    }
  }

  /// Makes room for `count` items with `imageByteCount` bytes of URLs in all.
  public mutating func reserveCapacity(_ count: Int, imageByteCount: Int = 0) {
    imageBytes.reserveCapacity(imageByteCount)
    imageEnds.reserveCapacity(count)
    widths.reserveCapacity(count)
    heights.reserveCapacity(count)
    spans.reserveCapacity(count)
  }

  /// Gives back the room reserved beyond the items, one field at a time (so that at most one
  /// field is copied at once).
  ///
  /// - Complexity: O(*n*) for *n* items and their URLs.
  public mutating func trimCapacity() {
    func trimmed<Element>(_ array: [Element]) -> [Element] {
      guard array.capacity > array.count else { return array }
      guard !array.isEmpty else { return [] }
      return [Element](ownStorageFor: array.count) { buffer, count in
        _ = buffer.initialize(from: array)
        count = array.count
      }
    }
    imageBytes = trimmed(imageBytes)
    imageEnds = trimmed(imageEnds)
    widths = trimmed(widths)
    heights = trimmed(heights)
    spans = trimmed(spans)
  }

  /// Adds `item` after the others.
  public mutating func append(_ item: FeedItem) {
    var img = item.img
    img.withUTF8 {
      append(index: item.index, image: $0, width: item.width, height: item.height, span: item.span)
    }
  }

  /// Adds an item whose `img` is the UTF-8 text `image`, without making a string of it;
  /// `isPlain` says that the caller knows it holds no byte a JSON string must escape.
  mutating func append(
    index: Int, image: UnsafeBufferPointer<UInt8>, width: Double, height: Double, span: Int,
    isPlain: Bool = false
  ) {
    imageBytes.append(contentsOf: image)
    if !isPlain, needsJSONEscaping(image) { escapingImages += 1 }
    appendFields(index: index, width: width, height: height, span: span)
  }

  private mutating func appendFields(index: Int, width: Double, height: Double, span: Int) {
    if isEmpty {
      firstIndex = index
    } else if feedIndices == nil, index != firstIndex + count {
      feedIndices = (0..<count).map { firstIndex + $0 }
    }
    feedIndices?.append(index)
    imageEnds.append(imageBytes.count)
    widths.append(width)
    heights.append(height)
    spans.append(span == LayoutItem.fullSpan ? -1 : Int32(clamping: span))
  }

  /// The items of `first` then those of `second`, in storage of exactly their size, built one
  /// field at a time and each field of the parts let go as soon as it is copied (so that a
  /// million items are never held three times over).
  static func joined(_ first: consuming FeedItems, _ second: consuming FeedItems) -> FeedItems {
    func join<Element>(_ a: inout [Element], _ b: inout [Element]) -> [Element] {
      let joined = [Element](ownStorageFor: a.count + b.count) { buffer, count in
        _ = buffer.initialize(fromContentsOf: a)
        _ = UnsafeMutableBufferPointer(rebasing: buffer[a.count...]).initialize(fromContentsOf: b)
        count = a.count + b.count
      }
      a = []
      b = []
      return joined
    }
    guard !first.isEmpty else { return second }
    guard !second.isEmpty else { return first }
    let shift = first.imageBytes.count
    for position in second.imageEnds.indices { second.imageEnds[position] += shift }
    var result = FeedItems()
    result.feedIndices = indices(of: first, then: second)
    result.firstIndex = first.firstIndex
    result.imageBytes = join(&first.imageBytes, &second.imageBytes)
    result.imageEnds = join(&first.imageEnds, &second.imageEnds)
    result.widths = join(&first.widths, &second.widths)
    result.heights = join(&first.heights, &second.heights)
    result.spans = join(&first.spans, &second.spans)
    result.escapingImages = first.escapingImages + second.escapingImages
    return result
  }

  /// Every item's feed index, listed out.
  private var listedIndices: [Int] {
    feedIndices ?? (0..<count).map { firstIndex + $0 }
  }

  /// The feed indices of the non-empty `first` followed by `second`, listed out, or `nil` when
  /// they follow one another (the compact form).
  private static func indices(of first: FeedItems, then second: FeedItems) -> [Int]? {
    if first.feedIndices == nil, second.feedIndices == nil,
      second.firstIndex == first.firstIndex + first.count
    {
      return nil
    }
    return first.listedIndices + second.listedIndices
  }

  /// Adds the items of `other` after these.
  ///
  /// - Complexity: O(*m*) amortised for *m* items of `other` and their URLs, once the indices
  ///   are listed (they are listed once, when they first stop following one another).
  public mutating func append(contentsOf other: FeedItems) {
    guard !other.isEmpty else { return }
    guard !isEmpty else {
      self = other
      return
    }
    if var listed = feedIndices {
      feedIndices = nil
      listed.append(contentsOf: other.listedIndices)
      feedIndices = listed
    } else {
      feedIndices = Self.indices(of: self, then: other)
    }
    let shift = imageBytes.count
    imageBytes.append(contentsOf: other.imageBytes)
    imageEnds.append(contentsOf: other.imageEnds.lazy.map { $0 + shift })
    widths.append(contentsOf: other.widths)
    heights.append(contentsOf: other.heights)
    spans.append(contentsOf: other.spans)
    escapingImages += other.escapingImages
  }

  /// Removes the item at `position`.
  ///
  /// - Complexity: O(*n*) for *n* items and their URLs.
  public mutating func remove(at position: Int) {
    var listed = listedIndices
    listed.remove(at: position)
    if withImage(at: position, needsJSONEscaping) { escapingImages -= 1 }
    let start = position == 0 ? 0 : imageEnds[position - 1]
    let length = imageEnds[position] - start
    imageBytes.removeSubrange(start..<imageEnds[position])
    imageEnds.remove(at: position)
    for later in position..<imageEnds.count { imageEnds[later] -= length }
    widths.remove(at: position)
    heights.remove(at: position)
    spans.remove(at: position)
    // Back to the compact form when what is left is consecutive.
    firstIndex = listed.first ?? 0
    let consecutive = listed.indices.allSatisfy { listed[$0] == firstIndex + $0 }
    feedIndices = consecutive ? nil : listed
  }

  /// Adds `offset` to every item's feed index (the items of a later page).
  public mutating func offsetIndices(by offset: Int) {
    guard !isEmpty else { return }
    firstIndex += offset
    if var listed = feedIndices {
      for position in listed.indices { listed[position] += offset }
      feedIndices = listed
    }
  }
}
