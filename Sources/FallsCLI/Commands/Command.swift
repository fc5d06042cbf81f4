import FallsBase

/// One command of falls: what `falls --help`, the completion scripts and the manual say of it,
/// its help, and its run. The table of them (``all``) is the one list of commands; the flags
/// each takes are the flag table's (``LayoutFlag/commands``).
struct Command: Sendable {
  let name: CommandName
  /// A line for the completion scripts.
  let line: String
  /// What `falls --help` says of it.
  let summary: String
  /// The arguments it takes that are not flags, in order; a feed command's `FEED` is the flag
  /// table's (``LayoutFlag/positional``).
  let operands: [Operand]
  /// Its help, as `falls NAME --help` and `falls help NAME` print it.
  let help: @Sendable () -> String
  /// Reads the arguments after the name into a run; throws a usage error, or the help.
  let parse:
    @Sendable (_ arguments: [String], _ environment: CLIEnvironment) throws(CLIError) -> Run

  /// An argument that is not a flag: `OLD`, a shell.
  struct Operand: Sendable {
    var name: String
    /// Whether it is a file's path, which shells complete.
    var isPath = false
    /// The values it takes, when it takes one of a few.
    var choices: [String] = []
    /// Whether it may be left out (a feed command's `FEED`: the built-in feed, or standard
    /// input).
    var isOptional = false
  }

  /// The usage line: `falls NAME`, its operands (one that may be left out in brackets, one of
  /// a few values as them joined by `|`), and `[options]` when it takes flags besides the
  /// help and the version.
  var usage: String {
    var words = ["falls", name.rawValue]
    for operand in operands {
      words.append(
        !operand.choices.isEmpty
          ? operand.choices.joined(separator: "|")
          : operand.isOptional ? "[\(operand.name)]" : operand.name)
    }
    let takesOptions = LayoutFlag.all.contains { flag in
      flag.commands.contains(name) && flag.name != .help && flag.name != .version
    }
    return (words + (takesOptions ? ["[options]"] : [])).joined(separator: " ")
  }

  /// Whether it reads a feed: its operands are the flag table's `FEED`.
  var takesFeed: Bool { operands.contains { $0.isOptional } }

  /// A command's arguments read, ready to run.
  struct Run {
    /// Where the report goes: the `--output` file, or standard output when `nil`.
    var output: String?
    /// The format it is written in (`--format`).
    var format = OutputFormat.table
    /// Whether the run writes a report at all (the viewer draws on the terminal instead).
    var writesReport = true
    /// The work: returns the report, or `nil` for a run that writes none.
    var work: () async throws(CLIError) -> (any FormattedReport)?
  }

  /// The command called `name`, if there is one.
  static func named(_ name: String) -> Command? {
    CommandName(rawValue: name).map { self[$0] }
  }

  /// The command `name`.
  static subscript(_ name: CommandName) -> Command {
    all[CommandName.allCases.firstIndex(of: name) ?? 0]
  }

  /// Every command, in the order of `falls --help`: each name once, the compiler checking that
  /// none is missing.
  static let all: [Command] = CommandName.allCases.map(entry)

  /// The operands of the feed commands: `FEED`, from the flag table.
  private static var feed: [Operand] {
    LayoutFlag.all.compactMap { flag in
      flag.positional.map { Operand(name: $0, isPath: flag.isPath, isOptional: true) }
    }
  }

  /// The parse step of a feed command that writes a report: its options read by `parse`
  /// (told whether standard input holds the feed), the report made by `run`.
  private static func reporting<Report: FormattedReport>(
    _ parse: @escaping @Sendable ([String], Bool) throws(CLIError) -> LayoutOptions,
    _ run: @escaping @Sendable (LayoutOptions, CLIEnvironment) async throws(CLIError) -> Report
  ) -> @Sendable ([String], CLIEnvironment) throws(CLIError) -> Run {
    { (arguments, environment) throws(CLIError) in
      let options = try parse(arguments, environment.standardInputKind.holdsFeed)
      return Run(output: options.output, format: options.format) { () throws(CLIError) in
        try await run(options, environment)
      }
    }
  }

  private static func entry(_ name: CommandName) -> Command {
    switch name {
    case .layout:
      Command(
        name: name, line: "Lay out a feed and print every item's frame",
        summary: "Lay out a finderlist feed and print every item's frame (table, json, jsonl), or "
          + "draw it (svg, html).",
        operands: feed, help: { HelpText.layout },
        parse: reporting(
          { (arguments, holdsFeed) throws(CLIError) in
            try LayoutCommand.parse(arguments, standardInputIsFeed: holdsFeed)
          },
          PagedLayout.run))
    case .view:
      Command(
        name: name, line: "Show the layout in the terminal and scroll through it",
        summary: "Show the layout in the terminal and scroll through it, loading pages.",
        operands: feed, help: { ViewCommand.help },
        parse: { (arguments, environment) throws(CLIError) in
          let options = try ViewCommand.parse(
            arguments, standardInputIsFeed: environment.standardInputKind.holdsFeed)
          return Run(writesReport: name.writesReport) { () throws(CLIError) in
            try await ViewCommand.run(options, environment: environment)
            return nil
          }
        })
    case .probe:
      Command(
        name: name, line: "Read every item's image and report its size beside the feed's",
        summary: "Read the first bytes of every item's image and report its real size beside "
          + "the feed's (table, json, jsonl).",
        operands: feed, help: { ProbeCommand.help },
        parse: reporting(
          { (arguments, holdsFeed) throws(CLIError) in
            try ProbeCommand.parse(arguments, standardInputIsFeed: holdsFeed)
          },
          ProbeCommand.run))
    case .check:
      Command(
        name: name, line: "Lay out a feed and check the layout's rules and limits, for CI",
        summary: "Lay out a feed and check its rules, --limit figures and --images; exit 1 when "
          + "a check fails (table, json).",
        operands: feed, help: { CheckCommand.help },
        parse: reporting(
          { (arguments, holdsFeed) throws(CLIError) in
            try CheckCommand.parse(arguments, standardInputIsFeed: holdsFeed)
          },
          CheckCommand.run))
    case .diff:
      Command(
        name: name, line: "Compare two layouts item by item",
        summary: "Compare two layouts (falls layout -f json or jsonl) item by item; exit 1 when "
          + "they differ (table, json).",
        operands: [Operand(name: "OLD", isPath: true), Operand(name: "NEW", isPath: true)],
        help: { DiffCommand.help },
        parse: { (arguments, environment) throws(CLIError) in
          let options = try DiffCommand.parse(arguments)
          return Run(output: options.output, format: options.format) { () throws(CLIError) in
            try DiffCommand.run(options, environment: environment)
          }
        })
    case .completions:
      Command(
        name: name, line: "Print a completion script for bash, zsh or fish",
        summary: "Print a completion script for bash, zsh or fish.",
        operands: [
          Operand(name: "SHELL", choices: ShellCompletions.Shell.allCases.map(\.rawValue))
        ],
        help: { ShellCompletions.help },
        parse: { (arguments, _) throws(CLIError) in
          let script = try ShellCompletions.run(arguments)
          return Run { TextReport(text: script) }
        })
    case .manual:
      Command(
        name: name, line: "Print the manual page, falls(1)",
        summary: "Print the manual page, falls(1), in roff.", operands: [],
        help: { ManualPage.help },
        parse: { (arguments, _) throws(CLIError) in
          let page = try ManualPage.run(arguments)
          return Run { TextReport(text: page) }
        })
    }
  }
}
