import FallsCore
import FallsFeed

/// A page's items laid out after the pages before, in batches: the sizes are never all copied
/// out at once, and a batch goes in whole or not at all.
enum PageBatches {
  /// Items per batch appended to the layout: the sizes are never all copied out at once.
  static let batchSize = 1 << 14

  /// The batch size for a layout of `configuration`: a whole page where each append is a page
  /// (``LayoutConfiguration/appendsArePages``), so that the layout is the library's.
  static func batchSize(for configuration: LayoutConfiguration) -> Int {
    configuration.appendsArePages ? Int.max : batchSize
  }

  /// Numbers page `page`'s items (and problems) after the `firstIndex` items of the pages before,
  /// lays out the valid ones after `layout`'s, and adds them to `placed`. An invalid item (one
  /// too tall to lay out included) is an error without `skipInvalid`, and then neither `layout`
  /// nor `placed` changes; with it, it is left in `feed.problems`.
  static func add(
    _ feed: inout Feed, page: Int, firstIndex: Int, skipInvalid: Bool,
    shape: FeedShape = .finderlist, to layout: inout WaterfallLayout,
    placed: inout PlacedItems
  ) throws(CLIError) {
    number(&feed, from: firstIndex)
    if !feed.problems.isEmpty, !skipInvalid { throw .feed(.invalidItems(feed.problems)) }
    // A page of several batches may fail after some of them went in: keep the layout as it was
    // (a copy costs nothing until the layout changes, and then once per long page).
    let before = feed.items.count > batchSize(for: layout.configuration) ? layout : nil
    do {
      try append(&feed, to: &layout, skipInvalid: skipInvalid, shape: shape)
    } catch {
      if let before { layout = before }
      throw error
    }
    placed.append(feed.items, page: page, location: feed.location)
  }

  /// Appends a page's items; an item too tall to lay out is a feed problem like any other.
  private static func append(
    _ feed: inout Feed, to layout: inout WaterfallLayout, skipInvalid: Bool, shape: FeedShape
  )
    throws(CLIError)
  {
    // In batches; a batch is appended whole or not at all. Where an append is a page, the page
    // is one batch.
    layout.reserveCapacity(layout.elements.count + feed.items.count)
    let size = batchSize(for: layout.configuration)
    var next = 0
    while next < feed.items.count {
      let batch = next..<min(next + size, feed.items.count)
      do {
        try layout.append(feed.items.layoutItems(batch))
        next = batch.upperBound
      } catch {
        let position: Int
        let reason: FeedItemProblem.Reason
        switch error {
        case .heightOverflow(let index): (position, reason) = (index, .tooTall)
        case .heightUnderflow(let index): (position, reason) = (index, .tooShort)
        case .invalidItemSize, .invalidColumnCount, .invalidValue, .noRoomForColumns,
          .patternWidth, .notApplicable:
          preconditionFailure("a feed's checked item or a checked layout was refused: \(error)")
        }
        // Nothing of the batch was appended, so the position counts from the layout's end.
        let local = next + position - layout.elements.count
        let item = feed.items[local]
        let problem = FeedItemProblem(
          index: item.index, field: .height, value: formatNumber(item.height), reason: reason,
          key: shape.key(of: .height))
        guard skipInvalid else { throw .feed(.invalidItems([problem])) }
        feed.items.remove(at: local)
        feed.problems.append(problem)
        feed.problems.sort { $0.index < $1.index }
      }
    }
  }

  /// Numbers a page's items (and problems) after the `firstIndex` items of the pages before.
  static func number(_ feed: inout Feed, from firstIndex: Int) {
    guard firstIndex > 0 else { return }
    feed.items.offsetIndices(by: firstIndex)
    for position in feed.problems.indices { feed.problems[position].index += firstIndex }
    for position in feed.sizeProblems.indices { feed.sizeProblems[position].index += firstIndex }
  }
}
