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
  /// An unexpected failure.
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
