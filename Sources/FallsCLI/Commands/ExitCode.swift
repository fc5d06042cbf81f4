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

/// The exit statuses of `falls`, after BSD's sysexits.h.
public enum ExitCode: Int32, CaseIterable, Sendable {
  /// Success.
  case success = 0
  /// A verdict: a check failed, the layouts differ, an image is not ok.
  case failure = 1
  /// Bad usage: an unknown flag, a missing or invalid value (EX_USAGE).
  case usage = 64
  /// Bad feed data: not JSON, no `data` array, an invalid item (EX_DATAERR).
  case dataError = 65
  /// A feed file that cannot be read (EX_NOINPUT).
  case noInput = 66
  /// A feed URL that could not be fetched: network failure, non-2xx answer, a body too large or
  /// not JSON (EX_UNAVAILABLE).
  case unavailable = 69
  /// The `--output` file could not be created or put in place (EX_CANTCREAT).
  case cannotCreate = 73
  /// Output could not be written (EX_IOERR).
  case ioError = 74
  /// Ctrl-C ended `falls view` (128 + SIGINT, as a shell reports a process that SIGINT
  /// ended); nothing is printed.
  case interrupted = 130
  /// The reader of standard output went away (128 + SIGPIPE, as a shell reports a process that
  /// SIGPIPE ended); nothing is printed.
  case brokenPipe = 141
}

extension ExitCode {
  /// The statuses the help and the manual list, in order.
  static var documented: [ExitCode] { allCases }

  /// What the status means, in the help's few words: `64 bad usage`.
  var summary: String {
    switch self {
    case .success: "success"
    case .failure: "a verdict: a check failed, layouts differ, an image not ok"
    case .usage: "bad usage"
    case .dataError: "bad feed data"
    case .noInput: "feed file unreadable"
    case .unavailable: "feed URL not fetched (network, HTTP status, too large, not JSON)"
    case .cannotCreate: "--output file not creatable"
    case .ioError: "output not writable"
    case .interrupted: "interrupted (Ctrl-C in falls view)"
    case .brokenPipe: "standard output closed by its reader"
    }
  }

  /// What the status means, in the manual's and docs/cli.md's words (docs/cli.md's table of exit
  /// statuses is this, which `ExitCodeTests` holds it to); `code` in backquotes.
  var explanation: String {
    switch self {
    case .success:
      "success"
    case .failure:
      "a verdict, not an error: `falls check` found a check failing, `falls diff` found the "
        + "layouts differ, `falls probe` found an image not ok (the report, written whole, says "
        + "which; standard error has the verdict in one line, `falls: 1 of 6 checks failed: "
        + "items`, without `error:`, and diff's is quiet)"
    case .usage:
      "bad usage: an unknown flag, a missing or invalid value (columns < 1, negative "
        + "spacing, NaN, a chance outside 0…1, insets or spacing that leave no room for a "
        + "column), a flag of another style or feed, two feeds, a URL placeholder other than "
        + "`{page}` and `{size}`; the message names the flag and the value"
    case .dataError:
      "bad feed data: not JSON (the message gives line and column), no `data` array (or "
        + "nothing at the `--items` path, saying where it stops), or an item with a missing, "
        + "non-numeric, zero, negative or non-finite width or height, or a height too tall "
        + "(past 10^300 points) or too short (lost in rounding) to lay out (the message gives "
        + "the item index, the field and the value); with `--sizes`, an item's image that is "
        + "not an image or is refused; for `falls diff`, an input that is not a "
        + "`falls.layout/1` document or holds a value falls would not write"
    case .noInput:
      "the feed file (or a layout of `falls diff`) cannot be read (a directory, standard "
        + "input included), is larger than a given `--max-bytes`, changed while it was read, or "
        + "is a FIFO that no writer opened within `--timeout`; standard input, a pipe or a "
        + "device that is not a regular file gave more than `--max-bytes`"
    case .unavailable:
      "the feed URL could not be fetched: no connection, a timeout, a non-2xx answer, a "
        + "redirect loop, a body cut short, over `--max-bytes` or not JSON (after the retries); "
        + "with `--sizes`, an item's image that cannot be had"
    case .cannotCreate:
      "the `--output` file cannot be created: its folder is missing or not writable, it is "
        + "a directory, it is a file the user may not write, or a symbolic link another user "
        + "planted in a shared folder"
    case .ioError:
      "the output cannot be written (a full disk), or standard output was closed when falls "
        + "started (`falls layout >&-`, refused before any work unless `--output` takes the "
        + "result); an `--output` file that existed is left as it was"
    case .interrupted:
      "`falls view` was ended by Ctrl-C, as a shell reports a process that SIGINT ended"
    case .brokenPipe:
      "standard output was closed by its reader (`falls … | head -1`): falls stops quietly, "
        + "as a process ended by SIGPIPE would"
    }
  }

  /// The help's EXIT STATUS lines: each status and its summary.
  static var helpLines: String {
    helpLines(documented.map { ([$0], $0.summary) })
  }

  /// The statuses of a feed that cannot be read or laid out, as a command that reads one
  /// ends with them.
  static let feedFailures: [ExitCode] = [.usage, .dataError, .noInput, .unavailable]

  /// EXIT STATUS lines, each of statuses (their numbers from the codes) and what they mean.
  static func helpLines(_ rows: [(codes: [ExitCode], meaning: String)]) -> String {
    rows.map { codes, meaning in
      let numbers = codes.map { String($0.rawValue) }.joined(separator: ", ")
      // A column of 5 for one status; a list of them stands apart by 3 spaces.
      let gap = numbers.count < 5 ? 5 - numbers.count : 3
      return "  " + numbers + String(repeating: " ", count: gap) + meaning + "\n"
    }.joined()
  }
}
