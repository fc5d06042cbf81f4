import FallsBase
import FallsCore

/// A decoded feed: its valid items, and a problem for every item that is not valid.
public struct Feed: Hashable, Sendable {
  /// The valid items, in feed order.
  public var items: FeedItems
  /// One entry per invalid item, in feed order.
  public var problems: [FeedItemProblem]
  /// Read with missing sizes allowed (``FeedDecoder``): one entry per valid item whose declared
  /// size was refused, in feed order. Such an item is kept without a size, for its image to
  /// give it.
  public var sizeProblems: [FeedItemProblem] = []
  /// Where the feed came from, which its items' images are read against (``ImageSource``).
  public var location: FeedLocation

  /// Creates a feed.
  public init(
    items: FeedItems, problems: [FeedItemProblem] = [], location: FeedLocation = .currentFolder
  ) {
    self.items = items
    self.problems = problems
    self.location = location
  }

  /// Creates a feed from an array of items.
  public init(
    items: [FeedItem], problems: [FeedItemProblem] = [], location: FeedLocation = .currentFolder
  ) {
    self.init(items: FeedItems(items), problems: problems, location: location)
  }
}
