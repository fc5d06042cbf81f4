/// Why a page of a feed gave no feed: the answer of the server that sent it was not one (a
/// fetch failure, as a non-2xx answer is), or the bytes read from a file or a pipe are not a
/// feed.
public enum FeedReadError: Error, Sendable {
  /// A URL's body that is not JSON: the server answered wrong.
  case fetch(FetchError)
  /// Bytes of a file, standard input or a URL that break the feed's rules.
  case feed(FeedError)
}
