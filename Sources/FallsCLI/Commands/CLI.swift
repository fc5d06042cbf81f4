import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The `falls` command line, run in-process: it never exits and never touches global state, so
/// tests call it with buffers for streams.
public enum CLI {
  /// The version `falls --version` prints.
  public static let version = "0.1.0"

  /// The commands: a line each for the completion scripts (`help`), and what `falls --help`
  /// says of each (`summary`).
  static let commands: [(name: String, help: String, summary: String)] = [
    (
      LayoutCommand.name, "Lay out a feed and print every item's frame",
      "Lay out a finderlist feed and print every item's frame (table, json, jsonl), or draw it "
        + "(svg, html)."
    ),
    (
      ViewCommand.name, "Show the layout in the terminal and scroll through it",
      "Show the layout in the terminal and scroll through it, loading pages."
    ),
    (
      ProbeCommand.name, "Read every item's image and report its size beside the feed's",
      "Read the first bytes of every item's image and report its real size beside the feed's "
        + "(table, json, jsonl)."
    ),
    (
      CheckCommand.name, "Lay out a feed and check the layout's rules and limits, for CI",
      "Lay out a feed and check its rules, --limit figures and --images; exit 1 when a check "
        + "fails (table, json)."
    ),
    (
      DiffCommand.name, "Compare two layouts item by item",
      "Compare two layouts (falls layout -f json or jsonl) item by item; exit 1 when they "
        + "differ (table, json)."
    ),
    (
      ShellCompletions.name, "Print a completion script for bash, zsh or fish",
      "Print a completion script for bash, zsh or fish."
    ),
    (
      ManualPage.name, "Print the manual page, falls(1)",
      "Print the manual page, falls(1), in roff."
    ),
  ]

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
    commands.map { HelpText.row("  " + $0.name, $0.summary, column: 15) + "\n" }.joined()
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
    do {
      try await dispatch(arguments, environment: environment)
      return .success
    } catch {
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

  /// Writes a text that is the command's result to standard output.
  private static func write(_ text: String, to environment: CLIEnvironment) throws(CLIError) {
    do {
      try environment.standardOutput.write(text)
    } catch {
      throw .output(error)
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
    guard let command = arguments.first else { throw .informational(help) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h":
      throw .informational(help)
    case "help":
      switch rest.first {
      case LayoutCommand.name: throw .informational(HelpText.layout)
      case ViewCommand.name: throw .informational(ViewCommand.help)
      case ProbeCommand.name: throw .informational(ProbeCommand.help)
      case CheckCommand.name: throw .informational(CheckCommand.help)
      case DiffCommand.name: throw .informational(DiffCommand.help)
      case ShellCompletions.name: throw .informational(ShellCompletions.help)
      case ManualPage.name: throw .informational(ManualPage.help)
      default: throw .informational(help)
      }
    case "--version":
      throw .informational(versionText)
    case LayoutCommand.name:
      let options = try LayoutCommand.parse(
        rest, standardInputIsFeed: environment.standardInputKind.holdsFeed)
      // A closed standard output is refused before any work, unless a file takes the output.
      if environment.standardOutputIsClosed,
        options.output.map({ (try? OutputFile.target(for: $0)) == .descriptor(1) }) ?? true
      {
        throw .output(SystemError(code: EBADF))
      }
      let report = try await PagedLayout.run(options, environment: environment)
      try write(options.output, environment: environment) { (sink) throws(SystemError) in
        try report.write(options.format, to: sink)
      }
    case ViewCommand.name:
      let options = try ViewCommand.parse(
        rest, standardInputIsFeed: environment.standardInputKind.holdsFeed)
      try await ViewCommand.run(options, environment: environment)
    case ProbeCommand.name:
      let options = try ProbeCommand.parse(
        rest, standardInputIsFeed: environment.standardInputKind.holdsFeed)
      if environment.standardOutputIsClosed,
        options.output.map({ (try? OutputFile.target(for: $0)) == .descriptor(1) }) ?? true
      {
        throw .output(SystemError(code: EBADF))
      }
      let report = try await ProbeCommand.run(options, environment: environment)
      try write(options.output, environment: environment) { (sink) throws(SystemError) in
        try report.write(options.format, to: sink)
      }
      let failing = report.items.count { $0.status != .ok }
      if failing > 0 {
        throw .notAllPassed(
          "\(failing) of \(report.items.count) image\(report.items.count == 1 ? " is" : "s are") "
            + "not ok (\(report.counts.filter { $0.0 != .ok && $0.1 > 0 }.map { "\($0.1) \($0.0.words)" }.joined(separator: ", ")))"
        )
      }
    case CheckCommand.name:
      let options = try CheckCommand.parse(
        rest, standardInputIsFeed: environment.standardInputKind.holdsFeed)
      if environment.standardOutputIsClosed,
        options.output.map({ (try? OutputFile.target(for: $0)) == .descriptor(1) }) ?? true
      {
        throw .output(SystemError(code: EBADF))
      }
      let report = try await CheckCommand.run(options, environment: environment)
      try write(options.output, environment: environment) { (sink) throws(SystemError) in
        try report.write(options.format, to: sink)
      }
      if !report.passed {
        let failed = report.failed
        throw .notAllPassed(
          "\(failed.count) of \(report.checks.count) checks failed: "
            + failed.map(\.name).joined(separator: ", "))
      }
    case DiffCommand.name:
      let options = try DiffCommand.parse(rest)
      let report = try DiffCommand.run(options, environment: environment)
      try write(options.output, environment: environment) { (sink) throws(SystemError) in
        try report.write(options.format, to: sink)
      }
      if !report.diff.isSame {
        // A difference is what diff is there to find, not an error: its summary is on standard
        // output (the table's first line, or alone when the report goes to a file), and
        // standard error stays quiet.
        if let output = options.output, (try? OutputFile.target(for: output)) != .descriptor(1) {
          try write(report.summary + "\n", to: environment)
        }
        throw .layoutsDiffer
      }
    case ShellCompletions.name:
      try write(ShellCompletions.run(rest), to: environment)
    case ManualPage.name:
      try write(ManualPage.run(rest), to: environment)
    default:
      let shown = shownInMessage(command)
      let hint =
        command.hasPrefix("-") ? "unknown option '\(shown)'" : "unknown command '\(shown)'"
      let names = commands.map(\.name)
      let list = names.joined(separator: ", ")
      let guess =
        Self.meant(arguments).map { ": " + shownInMessage($0) }
        ?? (command.hasPrefix("-") ? nil : HelpText.closest(to: command, among: names)).map {
          " '\($0)'"
        }
      throw .usage(
        guess.map { "\(hint); did you mean\($0)? The commands are: \(list)" }
          ?? "\(hint); the commands are: \(list)", command: nil)
    }
  }
}
