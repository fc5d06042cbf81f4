/// Why a feed could not be decoded or read.
public enum FeedError: Error, Hashable, Sendable {
  /// The bytes are not JSON; `detail` says where the parser stopped.
  case notJSON(detail: String)
  /// The JSON has no `data` array at its top level (nor is the top level an array); `found`
  /// describes what it has instead, and `items` the path of the first array of objects up to
  /// three keys deep, where the items may be (`--items results`, `--items data.children`).
  case noDataArray(found: String, items: String? = nil)
  /// The JSON has no array at the items' path of its ``FeedShape`` (written with dots,
  /// `result.list`); `found` says where the path stops and what is there instead.
  case noItemArray(path: String, found: String)
  /// An item is invalid (and invalid items are not being skipped).
  case invalidItems([FeedItemProblem])
  /// A feed file could not be read; `reason` is the system's explanation.
  case unreadable(path: String, reason: String)
  /// A feed file, or standard input (`path` `-`), holds more than `limit` bytes.
  case tooLarge(path: String, limit: Int)
}
