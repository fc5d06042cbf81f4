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

/// Everything that ends a CLI run early; ``outcome(of:)`` turns each into a message and a status.
enum CLIError: Error {
  /// The user asked for help or the version: `text` goes to standard output with status 0.
  case informational(String)
  /// Bad usage: what was wrong, and the command whose help to point to.
  case usage(String, command: String?)
  /// Bad usage said in one line that already says what to do instead.
  case refused(String)
  /// The feed could not be read or decoded.
  case feed(FeedError)
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

/// How an error ends the run: the message (without the `falls: error: ` that standard error's
/// messages start with), whether it goes to standard output, and the exit status.
struct Outcome: Equatable {
  var message: String
  var toStandardOutput: Bool
  var code: ExitCode

  /// A failure: `message` on standard error, ending with `code`.
  static func failure(_ code: ExitCode, _ message: String) -> Outcome {
    Outcome(message: message, toStandardOutput: false, code: code)
  }
}

/// The one place that decides message, stream and exit status for every error.
func outcome(of error: CLIError) -> Outcome {
  switch error {
  case .informational(let text):
    return Outcome(message: text, toStandardOutput: true, code: .success)
  case .usage(let message, let command):
    let help = command.map { "falls \($0) --help" } ?? "falls --help"
    return .failure(.usage, "\(message)\nSee '\(help)' for usage.")
  case .refused(let message):
    return .failure(.usage, message)
  case .feed(let error):
    return .failure(code(of: error), describe(error))
  case .fetch(let error):
    return .failure(.unavailable, error.message)
  case .page(let page, let error):
    var inner = outcome(of: error)
    inner.message = "page \(page): " + inner.message
    return inner
  case .outputFile(let path, let failure):
    return outcome(ofOutputFile: path, failure)
  case .interrupted:
    return .failure(.interrupted, "")
  case .output(let error):
    guard error.code != EPIPE else { return .failure(.brokenPipe, "") }
    guard error.code != EBADF else {
      return .failure(
        .ioError,
        "standard output is closed: nothing falls prints can go anywhere; open it (drop '>&-'), "
          + "or give --output FILE")
    }
    return .failure(.ioError, "cannot write the output: \(error.message)")
  }
}

private func outcome(ofOutputFile path: String, _ failure: OutputFileFailure) -> Outcome {
  let shown = "--output '\(shownInMessage(path))'"
  switch failure {
  case .create(let error):
    return .failure(.cannotCreate, "cannot create \(shown): \(error.message)")
  case .untrustedLink(let owner):
    return .failure(
      .cannotCreate,
      "refusing to follow \(shown): it is a symbolic link of user \(owner) in a folder "
        + "that anyone may write to; remove it, or give the path it points to")
  case .isDirectory:
    return .failure(.cannotCreate, "cannot write \(shown): it is a directory; give a file name")
  case .write(let error, let keptFile):
    guard error.code != EPIPE else { return .failure(.brokenPipe, "") }
    let kept = keptFile ? "; the file there is left as it was" : ""
    return .failure(.ioError, "cannot write \(shown): \(error.message)\(kept)")
  }
}

private func code(of error: FeedError) -> ExitCode {
  switch error {
  case .notJSON, .noDataArray, .invalidItems: .dataError
  case .unreadable, .tooLarge: .noInput
  }
}

private func describe(_ error: FeedError) -> String {
  switch error {
  case .notJSON(let detail):
    return "the feed is not valid JSON: \(detail)"
  case .noDataArray(let found):
    return
      "the feed has no \"data\" array (\(found)); expected {\"data\": [{\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}]}"
  case .invalidItems(let problems):
    guard let first = problems.first else { return "the feed has invalid items" }
    let more =
      problems.count > 1
      ? " (and \(problems.count - 1) more invalid item\(problems.count == 2 ? "" : "s"))" : ""
    return "feed \(first.message)\(more); use --skip-invalid to lay out the valid items"
  case .tooLarge(let path, let limit):
    let what =
      path == "-" ? "standard input holds" : "the feed file '\(shownInMessage(path))' is"
    return
      "\(what) more than --max-bytes \(limit) bytes; give a larger --max-bytes to read it"
  case .unreadable(let path, let reason):
    return "cannot read the feed file '\(shownInMessage(path))': \(reason)"
  }
}
