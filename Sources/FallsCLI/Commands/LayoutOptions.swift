import FallsBase
import FallsCore
import FallsFeed

/// What a command was asked to do: its flags and operands read (``LayoutCommand/parse(_:for:standardInputIsFeed:)``).
struct LayoutOptions: Sendable {
  /// The command the options are for.
  var command = CommandName.layout
  /// Where the items' sizes come from (`--sizes`).
  var sizes = SizeSource.feed
  /// How many images are read at once (`--jobs`), by falls probe and by `--sizes`.
  var jobs = 8
  /// The figures `falls check` holds the layout to (`--limit`, given once a limit).
  var limits: [CheckLimit] = []
  /// Whether `falls check` reads every item's image too (`--images`).
  var checksImages = false
  /// Whether a remote feed's images may be local files (`--allow-local-images`).
  var allowsLocalImages = false
  var feed = FeedSource.embedded
  var configuration = LayoutConfiguration()
  var format = OutputFormat.table
  var skipInvalid = false
  /// Where the feed keeps its items and their fields (`--items`, `--keys`).
  var shape = FeedShape.finderlist
  /// How many pages to load (URLs only).
  var pages = 1
  /// The `{size}` of a paginated URL.
  var pageSize = 20
  /// Whether to print the pages that arrived when a later one fails.
  var keepPartial = false
  /// Whether to hide the progress display.
  var quiet = false
  /// Deadline, retries and size limit for URLs.
  var fetchPolicy = FetchPolicy(userAgent: "falls/\(CLI.version)")
  /// The flags given, by name without dashes, with the text of the last of each.
  var given: [FlagName: String] = [:]
  /// Header and footer extents and the least content extent (one section).
  var headerHeight = 0.0
  var footerHeight = 0.0
  var minimumContentHeight = 0.0
  /// Print only the elements intersecting this rectangle.
  var rect: Rect?
  /// Write only these fields (`--fields`), or every field of the format.
  var fields: [String]?
  /// Write the output to this file instead of standard output.
  var output: String?
  /// Print only the quality figures (`--quality`).
  var quality = false
  /// The arguments that are not flags, of a command that reads no feed (diff's two layouts,
  /// the shell of completions); a feed command's is ``feed``.
  var operands: [String] = []

  /// The fetcher of the feed's pages and images, by `--timeout`, `--retries`, `--max-time` and
  /// `--max-bytes`; each retry told by `progress`, if given.
  func fetcher(environment: CLIEnvironment, progress: Progress? = nil) -> FeedFetcher {
    var policy = fetchPolicy
    policy.backoff = environment.backoff
    var fetcher = FeedFetcher(transport: environment.transport, policy: policy)
    if let progress {
      let attempts = policy.retries + 1
      fetcher.onRetry = { wait, cause, attempt in
        progress.retrying(in: wait, after: cause, attempt: attempt, of: attempts)
      }
    }
    return fetcher
  }

  /// The images read `--jobs` at a time over `fetcher`, local files only as
  /// `--allow-local-images` says.
  func images(over fetcher: FeedFetcher) -> ImageBatch {
    ImageBatch(
      prober: ImageProber(fetcher: fetcher, allowingLocalImages: allowsLocalImages), jobs: jobs)
  }
}

/// The options while the flags are read, and the values that only make sense once all are.
struct LayoutReading {
  var options = LayoutOptions()
  /// The flag and text that set each configuration value, to name them in the layout's errors.
  var sources: [LayoutParameter: FlagValue] = [:]
  var spacing: (value: FlagValue, spacing: Double)?
  var pattern: FlagValue?
  var minimumColumnWidth: Double?
  var offsetHasX = false
  var synthetic: Int?
  var minimumHeight = SyntheticFeed.defaultMinimumHeight
  var maximumHeight = SyntheticFeed.defaultMaximumHeight
}

/// Where a layout's item sizes come from (`--sizes`).
enum SizeSource: String, CaseIterable, Hashable, Sendable {
  /// The sizes the feed gives, as ever.
  case feed
  /// Every item's image, read for its displayed size.
  case images
  /// The feed's, and the images' of the items whose size the feed does not give.
  case fill
}
