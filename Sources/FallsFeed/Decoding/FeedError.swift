/// Why a feed could not be decoded or read.
public enum FeedError: Error, Hashable, Sendable {
  /// The bytes are not JSON; `detail` says where the parser stopped.
  case notJSON(detail: String)
  /// The JSON has no `data` array at its top level; `found` describes what it has instead.
  case noDataArray(found: String)
  /// An item is invalid (and invalid items are not being skipped).
  case invalidItems([FeedItemProblem])
  /// A feed file could not be read; `reason` is the system's explanation.
  case unreadable(path: String, reason: String)
  /// A feed file, or standard input (`path` `-`), holds more than `limit` bytes.
  case tooLarge(path: String, limit: Int)
}
