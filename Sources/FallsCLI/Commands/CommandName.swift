/// The commands of falls, in the order `falls --help` lists them (``Command/all``).
enum CommandName: String, CaseIterable, Hashable, Sendable {
  case layout, view, probe, check, diff, completions, manual

  /// Whether the command reads a feed: the flags of feeds and layouts are its.
  var readsFeed: Bool {
    switch self {
    case .layout, .view, .probe, .check: true
    case .diff, .completions, .manual: false
    }
  }

  /// Whether the command lays the feed out: the flags of layouts are its.
  var makesLayout: Bool {
    switch self {
    case .layout, .view, .check: true
    case .probe, .diff, .completions, .manual: false
    }
  }

  /// Whether the command writes a report, to standard output or `--output` (the viewer draws
  /// on the terminal instead).
  var writesReport: Bool { self != .view }

  /// The formats the command writes (`--format`); the viewer writes none and takes no
  /// `--format`, nor do the commands that print a text of their own.
  var formats: [OutputFormat] {
    switch self {
    case .layout, .view: OutputFormat.allCases
    case .probe: ProbeCommand.formats
    case .check: CheckCommand.formats
    case .diff: DiffCommand.formats
    case .completions, .manual: []
    }
  }

  /// What `format` is for in the command, as its `--format` help says it.
  func summary(of format: OutputFormat) -> String {
    switch self {
    case .layout, .view, .completions, .manual: format.summary
    case .probe: ProbeCommand.summary(of: format)
    case .check: CheckCommand.summary(of: format)
    case .diff: DiffCommand.summary(of: format)
    }
  }

  /// The command's `--format` help: each format it writes and what it is for, and the default.
  var formatHelp: String {
    formats.map { "\($0.rawValue) \(summary(of: $0))" }.joined(separator: ", ")
      + ". Default: \(LayoutOptions().format.rawValue), or with -o FILE the format FILE's "
      + "extension names (\(formats.filter { $0 != .table }.map { ".\($0.rawValue)" }.listed))."
  }
}

extension Set<CommandName> {
  /// The commands that read a feed: the flags of feeds are theirs.
  static var feedReaders: Self { Set(CommandName.allCases.filter(\.readsFeed)) }
  /// The commands that lay a feed out: the flags of layouts are theirs.
  static var layoutMakers: Self { Set(CommandName.allCases.filter(\.makesLayout)) }
  /// The commands that read a feed and write a report of it.
  static var feedReporters: Self { feedReaders.filter(\.writesReport) }
  /// The commands that lay a feed out and write a report of it.
  static var layoutReporters: Self { layoutMakers.filter(\.writesReport) }
}
