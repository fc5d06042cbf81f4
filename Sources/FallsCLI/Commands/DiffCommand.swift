import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// `falls diff OLD NEW`: compares two `falls.layout/1` documents, item by item.
enum DiffCommand {
  static let name = "diff"

  /// The formats `falls diff` writes.
  static let formats: [OutputFormat] = [.table, .json]

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
      "OLD and NEW are \(LayoutDocument.schema) documents, json or jsonl in any mix; - is standard input "
      + "(once). Items are matched by their index. An item only in OLD is removed, only in NEW "
      + "added; one whose frame (x, y, width, height) moved by more than --tolerance, or whose "
      + "column, span or enlargement changed, is changed. The content heights are compared when "
      + "both documents give them (json does). Each value compared must be one falls writes: an "
      + "index, column or span a whole number in range, a frame or content height a finite "
      + "number (width and height at least 0), enlarged true or false; a key given twice counts "
      + "last."
    let maxBytes = Options().maxBytes
    let options: [(String, String)] = [
      (
        "--tolerance PT",
        "How far, in points, a frame's x, y, width or height may move and be the same. Default: 0: exactly the same."
      ),
      (
        "--max-bytes N",
        "Largest input read, in bytes: standard input, a pipe or a device is read no further "
          + "(\(ExitCode.noInput.rawValue)); given, a larger regular file is refused before it is read. Default: "
          + "\(maxBytes) (\(maxBytes >> 20) MiB), and no limit for a regular file, whose size is "
          + "known."
      ),
      (
        "-f, --format table|json",
        "table for people: a summary line, then a line an item; json for one document (schema "
          + "\(DiffReport.schema)). Default: table."
      ),
      (
        "-o, --output FILE",
        "Write the report to FILE, written beside it and renamed into place. Without --format, "
          + "FILE's extension names it: .json for json, any other a table (.jsonl, .svg and "
          + ".html are refused)."
      ),
      ("-h, --help", "Show this help."),
    ]
    return "OVERVIEW: Compare two layouts of falls layout -f json or -f jsonl, item by item.\n\n"
      + HelpText.labelled(
        "USAGE: ", "falls diff OLD NEW [--tolerance PT] [--max-bytes N] [-f table|json] [-o FILE]")
      + "\n\n" + HelpText.prose(about) + "\n\nOPTIONS:\n"
      + options.map { "  \($0)\n" + wrap($1, indent: 6, width: HelpText.width) + "\n" }.joined()
      + "\nEXIT STATUS:\n"
      + ExitCode.helpLines([
        ([.success], "the layouts are the same within the tolerance"),
        ([.failure], "they differ (the report says how)"), ([.usage], ExitCode.usage.summary),
        ([.dataError], "an input is not a layout (the message says which and why)"),
        ([.noInput], "an input cannot be read, or is larger than --max-bytes"),
      ])
  }

  /// The flags `falls diff` takes, as the unknown-option message and the completion scripts
  /// name them.
  static let flagNames = ["--tolerance", "--max-bytes", "--format", "--output", "--help"]

  /// A usage error of `falls diff`.
  static func usage(_ message: String) -> CLIError { .usage(message, command: name) }

  /// Parses the arguments after `diff`: two inputs and the flags of the help.
  static func parse(_ arguments: [String]) throws(CLIError) -> Options {
    var options = Options()
    var inputs: [String] = []
    var remaining = arguments[...]
    var isOptionsEnd = false
    var formatGiven = false
    while let argument = remaining.popFirst() {
      guard !isOptionsEnd, argument.count > 1, argument.hasPrefix("-") else {
        inputs.append(argument)
        continue
      }
      if argument == "--" {
        isOptionsEnd = true
        continue
      }
      if argument == "-h" || argument == "--help" { throw .informational(help) }
      if argument == "--version" { throw .informational(CLI.versionText) }
      let (flag, inline) =
        argument.split(separator: "=", maxSplits: 1).map(String.init).first
        .map { name in
          (name, argument.contains("=") ? String(argument.dropFirst(name.count + 1)) : nil)
        }
        ?? (argument, nil)
      func value() throws(CLIError) -> FlagValue {
        let text: String
        if let inline {
          text = inline
        } else if let next = remaining.popFirst() {
          text = next
        } else {
          throw usage("missing value for '\(flag)'")
        }
        return FlagValue(flag: flag.drop { $0 == "-" }.description, text: text)
      }
      switch flag {
      case "--tolerance":
        let text = try value()
        options.tolerance = try reading {
          try text.number(in: LayoutConfiguration.lengths, example: "0.5")
        }
      case "--max-bytes":
        // Read by layout's own entry: the same range, the same words.
        let text = try value()
        options.maxBytes = try reading {
          var reading = LayoutReading()
          try LayoutFlag[.maxBytes].read(&reading, text)
          return reading.options.fetchPolicy.maxBytes
        }
        options.limitsRegularFile = true
      case "-f", "--format":
        let format = try value().choice(OutputFormat.self)
        guard formats.contains(format) else {
          throw usage(
            "--format \(format.rawValue) is for falls layout; falls diff writes "
              + formats.map(\.rawValue).alternatives)
        }
        options.format = format
        formatGiven = true
      case "-o", "--output":
        options.output = try value().text
      default:
        throw usage(
          "unknown option '\(shownInMessage(flag))'; falls diff takes "
            + flagNames.joined(separator: ", "))
      }
    }
    // Without --format, the output file's extension names the format, as for falls layout.
    if !formatGiven, let output = options.output,
      let format = try OutputFormat.named(
        byOutput: output, command: name, writes: formats, usage: { usage($0) })
    {
      options.format = format
    }
    guard inputs.count == 2 else {
      throw usage(
        "give two layouts, OLD and NEW; \(inputs.count) \(inputs.count == 1 ? "is" : "are") given")
    }
    guard !(inputs[0] == "-" && inputs[1] == "-") else {
      throw usage("standard input (-) can be only one of the two layouts")
    }
    (options.old, options.new) = (inputs[0], inputs[1])
    return options
  }

  /// A flag's value read by `read`, whose usage error points to diff's help: the readers of
  /// ``FlagValue`` are layout's, and name its help.
  private static func reading<Value>(_ read: () throws -> Value) throws(CLIError) -> Value {
    do {
      return try read()
    } catch .usage(let message, _) as CLIError {
      throw usage(message)
    } catch let error as CLIError {
      throw error
    } catch {
      preconditionFailure("a flag's reader throws only CLIError: \(error)")
    }
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
