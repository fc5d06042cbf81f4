import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The `falls` command line, run in-process: it never exits and never touches global state, so
/// tests call it with buffers for streams.
public enum CLI {
  /// The version `falls --version` prints.
  public static let version = "0.1.0"

  /// What `--version` prints, after any command.
  static var versionText: String { "falls \(version)\n" }

  static var help: String {
    """
    OVERVIEW: falls lays out image feeds as waterfalls (瀑布流) and prints frames.

    USAGE: falls <command> [options]

    COMMANDS:
    \(commandLines)
    OPTIONS:
    \(topLevelOptions)
    EXAMPLES:
      falls layout -c 4 -f json | jq '.contentHeight'
      falls view 'https://example.com/list?page={page}&size={size}'

    """
  }

  /// The commands of `falls --help`, a row each, wrapped under their column.
  private static var commandLines: String {
    Command.all.map { HelpText.row("  \($0.name)", $0.summary, column: 15) + "\n" }.joined()
  }

  /// The options of bare `falls`, from the flag table: help (which points to layout's) and the
  /// version, a line each.
  private static var topLevelOptions: String {
    [FlagName.help, .version].map { name in
      let flag = LayoutFlag[name]
      let heading = HelpText.heading(of: flag)
      let text =
        name == .help
        ? flag.help.dropLast() + "; 'falls layout --help' shows the options of layout." : flag.help
      return HelpText.row(heading, String(text), column: 15) + "\n"
    }.joined()
  }

  /// Runs `falls` with `arguments` (without the program name) and returns the exit status.
  ///
  /// Results go to standard output only when the whole run succeeds; every message goes to
  /// standard error.
  public static func run(_ arguments: [String], environment: CLIEnvironment) async -> ExitCode {
    // Help is fitted to the terminal it is read on.
    let width = HelpText.width(forTerminal: environment.standardOutputColumns)
    let failure = await HelpText.$width.withValue(width) { () async -> CLIError? in
      do throws(CLIError) {
        try await dispatch(arguments, environment: environment)
        return nil
      } catch {
        return error
      }
    }
    guard let error = failure else { return .success }
    let result = outcome(of: error)
    let stream = result.toStandardOutput ? environment.standardOutput : environment.standardError
    if !result.message.isEmpty {
      // A verdict (status 1: a check failed, an image not ok) is said, not called an error.
      let prefix =
        result.toStandardOutput ? "" : result.code == .failure ? "falls: " : "falls: error: "
      // The parts of a message that come from outside are escaped where they are quoted, a
      // newline among them; this catches any other control character, so that nothing from a
      // feed, a server or an argument reaches a terminal raw.
      let message =
        result.toStandardOutput
        ? result.message : escapingControlCharacters(result.message, keepingNewlines: true)
      let text = prefix + message + (message.hasSuffix("\n") ? "" : "\n")
      do {
        try stream.write(text)
      } catch {
        return result.code == .success ? outcome(of: .output(error)).code : result.code
      }
    }
    return result.code
  }

  /// Writes a command's result with `body`: to standard output, or to the `--output` file
  /// `path` (written beside itself and renamed into place when complete).
  private static func write(
    _ path: String?, environment: CLIEnvironment,
    _ body: (any ByteSink) throws(SystemError) -> Void
  ) throws(CLIError) {
    guard let path else {
      do {
        try body(environment.standardOutput)
      } catch {
        throw .output(error)
      }
      return
    }
    do {
      try OutputFile.write(
        to: path, streams: (environment.standardOutput, environment.standardError), body)
    } catch {
      throw .outputFile(path: path, error)
    }
  }

  /// The whole line meant by `arguments`, whose first is no command: `falls --version` for
  /// `version`, `falls layout` before a feed (a URL, a path, a `.json` file), or a flag of the
  /// table put after the command that takes it (`falls -c 4` → `falls layout -c 4`); `nil` for
  /// anything else.
  static func meant(_ arguments: [String]) -> String? {
    guard let first = arguments.first else { return nil }
    if ["version", "-v", "-V"].contains(first) { return "falls --version" }
    let full = (["falls", CommandName.layout.rawValue] + arguments.map(shellWord))
    // A feed where the command should be: a URL, a path, or a file named as JSON.
    let lowered = first.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || first.contains("/")
      || [".json", ".jsonl", ".ndjson"].contains(where: lowered.hasSuffix)
    {
      return full.joined(separator: " ")
    }
    let flag: LayoutFlag?
    if first.hasPrefix("--") {
      flag = LayoutFlag.named(String(first.dropFirst(2).prefix { $0 != "=" }))
    } else if first.hasPrefix("-"), let letter = first.dropFirst().first {
      flag = LayoutFlag.named(short: letter)
    } else {
      flag = nil
    }
    guard let flag else { return nil }
    let command = CommandName.allCases.first(where: flag.commands.contains) ?? .layout
    return (["falls", command.rawValue] + arguments.map(shellWord)).joined(separator: " ")
  }

  private static func dispatch(_ arguments: [String], environment: CLIEnvironment)
    async throws(CLIError)
  {
    // Bare, falls says what it does, as swift-argument-parser's commands do.
    guard let name = arguments.first else { throw .informational(help) }
    let rest = Array(arguments.dropFirst())
    switch name {
    case "--help", "-h":
      throw .informational(help)
    case "help":
      guard let topic = rest.first else { throw .informational(help) }
      guard let command = Command.named(topic) else { throw unknown(topic, in: [topic]) }
      throw .informational(command.help())
    case "--version":
      throw .informational(versionText)
    default:
      break
    }
    guard let command = Command.named(name) else { throw unknown(name, in: arguments) }
    let run = try command.parse(rest, environment)
    let toStandardOutput =
      run.output.map { (try? OutputFile.target(for: $0)) == .descriptor(1) } ?? true
    // A closed standard output is refused before any work, unless a file takes the report.
    if run.writesReport, toStandardOutput, environment.standardOutputIsClosed {
      throw .output(SystemError(code: EBADF))
    }
    guard let report = try await run.work() else { return }
    try write(run.output, environment: environment) { (sink) throws(SystemError) in
      try report.write(run.format, to: sink)
    }
    guard let verdict = report.verdict else { return }
    // A verdict's summary is on standard output: the report's first line, or alone when the
    // report went to a file (falls diff), so that standard error stays quiet; not at all when
    // standard output is closed, as --output took the report.
    if !toStandardOutput, !environment.standardOutputIsClosed, let summary = report.verdictSummary {
      try write(nil, environment: environment) {
        (sink) throws(SystemError) in try sink.write(summary + "\n")
      }
    }
    throw verdict
  }

  /// The error of `name`, no command: what was meant, if it can be told, and the commands.
  private static func unknown(_ name: String, in arguments: [String]) -> CLIError {
    let shown = shownInMessage(name)
    let hint = name.hasPrefix("-") ? "unknown option '\(shown)'" : "unknown command '\(shown)'"
    let names = CommandName.allCases.map(\.rawValue)
    let list = names.joined(separator: ", ")
    let guess =
      Self.meant(arguments).map { ": " + shownInMessage($0) }
      ?? (name.hasPrefix("-") ? nil : HelpText.closest(to: name, among: names)).map { " '\($0)'" }
    return .usage(
      guess.map { "\(hint); did you mean\($0)? The commands are: \(list)" }
        ?? "\(hint); the commands are: \(list)", command: nil)
  }
}
