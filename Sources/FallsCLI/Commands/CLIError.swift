import FallsBase
import FallsCore
import FallsFeed
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything that ends a CLI run early; ``outcome(of:)`` turns each into a message and a status.
enum CLIError: Error, Sendable {
  /// The user asked for help or the version: `text` goes to standard output with status 0.
  case informational(String)
  /// Bad usage: what was wrong, and the command whose help to point to.
  case usage(String, command: String?)
  /// Bad usage said in one line that already says what to do instead.
  case refused(String)
  /// The feed could not be read or decoded.
  case feed(FeedError)
  /// An item's image, read for its size (`--sizes`), could not be read.
  case image(FeedItemProblem)
  /// `--skip-invalid` left no item: every one of the `skipped` items of the run's pages was
  /// skipped, the first for `first`.
  case noValidItem(skipped: Int, first: FeedItemProblem)
  /// `falls probe` found items that are not ok, `falls check` failed checks; the message says
  /// how many.
  case notAllPassed(String)
  /// `falls diff` found the layouts different, as its report on standard output says: status 1,
  /// and no message.
  case layoutsDiffer
  /// An input of `falls diff` (a path, or `-` for standard input) is not a layout document.
  case notALayout(input: String, LayoutDocument.Failure)
  /// An input of `falls diff` (a path, or `-`) cannot be read, or holds more than
  /// `--max-bytes`.
  case unreadableLayout(input: String, FeedError)
  /// A feed URL could not be fetched.
  case fetch(FetchError)
  /// Page `page` of a paged run failed; the message says which page.
  indirect case page(Int, CLIError)
  /// Standard output could not be written.
  case output(SystemError)
  /// The `--output` file at `path` could not be written.
  case outputFile(path: String, OutputFileFailure)
  /// The user pressed Ctrl-C in `falls view`.
  case interrupted
}
