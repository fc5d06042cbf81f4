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
  case .image(let problem):
    let code: ExitCode =
      if case .imageUnreachable = problem.reason { .unavailable } else { .dataError }
    return .failure(
      code, "feed \(problem.message); use --skip-invalid to lay out the other items")
  case .noValidItem(let skipped, let first):
    return .failure(
      .dataError, "no valid item: skipped \(skipped) of \(skipped); the first: \(first.message)")
  case .notAllPassed(let message):
    return .failure(.failure, message)
  case .layoutsDiffer:
    return .failure(.failure, "")
  case .notALayout(let input, .changedWhileRead):
    return .failure(
      .noInput,
      "cannot read \(layoutName(input)): \(LayoutDocument.Failure.changedWhileRead.reason)")
  case .notALayout(let input, let failure):
    let name = input == "-" ? "standard input" : "'\(shownInMessage(input))'"
    return .failure(
      .dataError, "\(name) is not a \(LayoutDocument.schema) document: \(failure.reason)")
  case .unreadableLayout(let input, .tooLarge(_, let limit)):
    let what = input == "-" ? "standard input holds" : "\(layoutName(input)) is"
    return .failure(.noInput, tooLarge(what, limit: limit))
  case .unreadableLayout(let input, .unreadable(_, let reason)):
    return .failure(.noInput, "cannot read \(layoutName(input)): \(reason)")
  case .unreadableLayout(_, let error):
    return .failure(code(of: error), describe(error))
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
  case .notJSON, .noDataArray, .noItemArray, .invalidItems: .dataError
  case .unreadable, .tooLarge: .noInput
  }
}

private func describe(_ error: FeedError) -> String {
  switch error {
  case .notJSON(let detail):
    return "the feed is not valid JSON: \(detail)"
  case .noDataArray(let found, let items?):
    return
      "the feed has no \"data\" array (\(found)); its items may be the array at "
      + "\"\(items)\": try --items \(shellWord(items))"
  case .noDataArray(let found, _):
    return
      "the feed has no \"data\" array (\(found)); expected {\"data\": [{\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}]}, an array of such items, or --items PATH to where its items are"
  case .noItemArray(let path, let found):
    return
      "the feed has no item array at --items \(path.isEmpty ? "." : shownInMessage(path)): "
      + "\(found); give --items the "
      + "path of dotted keys to the array of items"
  case .invalidItems(let problems):
    guard let first = problems.first else { return "the feed has invalid items" }
    let more =
      problems.count > 1
      ? " (and \(problems.count - 1) more invalid item\(problems.count == 2 ? "" : "s"))" : ""
    // Every item missing the same field under its name is a feed of another shape: the
    // message's --keys hint leads on, where --skip-invalid would skip every item.
    let isShape =
      (first.hint != nil || first.stop != nil)
      && problems.allSatisfy { $0.reason == .missing && $0.field == first.field }
    return "feed \(first.message)\(more)"
      + (isShape ? "" : "; use --skip-invalid to lay out the valid items")
  case .tooLarge(let path, let limit):
    let what =
      path == "-" ? "standard input holds" : "the feed file '\(shownInMessage(path))' is"
    return tooLarge(what, limit: limit)
  case .unreadable(let path, let reason):
    return "cannot read the feed file '\(shownInMessage(path))': \(reason)"
  }
}

/// What is said of an input larger than `--max-bytes` `limit`: `what` ("standard input holds",
/// "the feed file 'x' is"), the limit, and what to do.
private func tooLarge(_ what: String, limit: Int) -> String {
  "\(what) more than --max-bytes \(limit) bytes; give a larger --max-bytes to read it"
}

/// An input of `falls diff` as a message names it: "standard input", or "the layout 'a.json'".
private func layoutName(_ input: String) -> String {
  input == "-" ? "standard input" : "the layout '\(shownInMessage(input))'"
}
