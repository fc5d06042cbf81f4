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

  /// What the status means, in the manual's sentences.
  var explanation: String {
    switch self {
    case .success: "Success."
    case .failure:
      "A verdict, not an error: falls check found a check failing, falls diff found the layouts differ, falls probe found an image not ok; the report says which."
    case .usage:
      "Bad usage: an unknown flag, a missing or invalid value, a flag of another style or feed."
    case .dataError:
      "Bad feed data: not JSON (with the line and column), no data array, an invalid item."
    case .noInput:
      "The feed file or standard input could not be read, or is larger than --max-bytes."
    case .unavailable:
      "The feed URL could not be fetched: network, HTTP status, too large, not JSON."
    case .cannotCreate: "The --output file could not be created."
    case .ioError: "The output could not be written."
    case .interrupted: "falls view was ended by Ctrl-C."
    case .brokenPipe: "Standard output was closed by its reader."
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
