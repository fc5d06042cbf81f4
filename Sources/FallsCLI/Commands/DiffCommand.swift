import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// `falls diff OLD NEW`: compares two `falls.layout/1` documents, item by item.
enum DiffCommand {
  static let name = "diff"

  /// The formats `falls diff` writes.
  static let formats: [OutputFormat] = [.table, .json]

  /// What each of ``formats`` is for, as the help says it.
  static func summary(of format: OutputFormat) -> String {
    format == .json
      ? "for one document (schema \(DiffReport.schema))"
      : "for people: a summary line, then a line an item"
  }

  /// What `falls diff` was asked to do.
  struct Options: Sendable {
    var old = ""
    var new = ""
    /// How far a frame's edge may move, in points, and be the same.
    var tolerance = 0.0
    var format = OutputFormat.table
    var output: String?
    /// The most bytes read of an input that is not a regular file (`--max-bytes`); as
    /// `falls layout` reads a feed.
    var maxBytes = FetchPolicy().maxBytes
    /// Whether a regular file is held to ``maxBytes`` too: when `--max-bytes` is given.
    var limitsRegularFile = false
  }

  static var help: String {
    let about =
      "OLD and NEW are \(LayoutDocument.schema) documents, json or jsonl in any mix; - is "
      + "standard input (once). Items are matched by their index. An item only in OLD is "
      + "removed, only in NEW added; one whose frame (x, y, width, height) moved by more than "
      + "--tolerance, or whose column, span or enlargement changed, is changed. The content "
      + "heights are compared when both documents give them (json does). Each value compared "
      + "must be one falls writes: an index, column or span a whole number in range, a frame "
      + "or content height a finite number (width and height at least 0), enlarged true or "
      + "false; a key given twice counts last."
    return HelpText.page(
      .diff,
      overview: "Compare two layouts of falls layout -f json or -f jsonl, item by item.",
      about: about,
      exitStatus: ExitCode.helpLines([
        ([.success], "the layouts are the same within the tolerance"),
        ([.failure], "they differ (the report says how)"), ([.usage], ExitCode.usage.summary),
        ([.dataError], "an input is not a layout (the message says which and why)"),
        ([.noInput], "an input cannot be read, or is larger than --max-bytes"),
      ]))
  }

  /// A usage error of `falls diff`.
  static func usage(_ message: String) -> CLIError { .usage(message, command: name) }

  /// Parses the arguments after `diff`: two inputs and the flags of the flag table that diff
  /// takes.
  static func parse(_ arguments: [String]) throws(CLIError) -> Options {
    let parsed = try LayoutCommand.parse(arguments, for: .diff)
    let inputs = parsed.operands
    guard inputs.count == 2 else {
      throw usage(
        "give two layouts, OLD and NEW; \(inputs.count) \(inputs.count == 1 ? "is" : "are") given")
    }
    guard !(inputs[0] == "-" && inputs[1] == "-") else {
      throw usage("standard input (-) can be only one of the two layouts")
    }
    var options = Options(old: inputs[0], new: inputs[1], format: parsed.format)
    options.output = parsed.output
    if parsed.given[.tolerance] != nil { options.tolerance = parsed.configuration.tolerance }
    options.maxBytes = parsed.fetchPolicy.maxBytes
    options.limitsRegularFile = parsed.given[.maxBytes] != nil
    return options
  }

  /// Reads both layouts and compares them.
  static func run(_ options: Options, environment: CLIEnvironment) throws(CLIError) -> DiffReport {
    let paths = [options.old, options.new]
    let inputs = [
      try bytes(paths[0], options: options, environment: environment),
      try bytes(paths[1], options: options, environment: environment),
    ]
    // Both read at once, each on a processor of its own; the old one's failure is said first.
    let results = Locked([Result<LayoutDocument, CLIError>?](repeating: nil, count: 2))
    DispatchQueue.concurrentPerform(iterations: 2) { which in
      let read = Result { () throws(CLIError) in
        do throws(LayoutDocument.Failure) {
          return try LayoutDocument.read(inputs[which])
        } catch {
          throw .notALayout(input: paths[which], error)
        }
      }
      results.withLock { $0[which] = read }
    }
    let (old, new) = results.withLock { ($0[0], $0[1]) }
    guard let old, let new else { preconditionFailure("both layouts were read") }
    return DiffReport(old: try old.get(), new: try new.get(), tolerance: options.tolerance)
  }

  /// The bytes at `path`, or of standard input for `-`, within `--max-bytes` as `falls layout`
  /// reads a feed: a regular file whatever its size (mapped, not copied, when large), anything
  /// else at most `--max-bytes`.
  private static func bytes(_ path: String, options: Options, environment: CLIEnvironment)
    throws(CLIError) -> FeedBytes
  {
    do throws(FeedError) {
      return path == "-"
        ? try environment.standardInput(
          atMost: options.maxBytes, limitsRegularFile: options.limitsRegularFile)
        : try FeedReader.load(
          path: path, maxBytes: options.maxBytes, limitsRegularFile: options.limitsRegularFile,
          writerTimeout: FetchPolicy().timeout)
    } catch {
      throw .unreadableLayout(input: path, error)
    }
  }
}
