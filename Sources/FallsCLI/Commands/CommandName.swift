/// The commands that read a feed and take flags of the table (``LayoutFlag/commands``).
enum CommandName: String, CaseIterable, Hashable, Sendable {
  case layout, view, probe, check

  /// The formats the command writes (`--format`); the viewer writes none and takes no
  /// `--format`.
  var formats: [OutputFormat] {
    switch self {
    case .layout, .view: OutputFormat.allCases
    case .probe: ProbeCommand.formats
    case .check: CheckCommand.formats
    }
  }

  /// What `format` is for in the command, as its `--format` help says it.
  func summary(of format: OutputFormat) -> String {
    switch self {
    case .layout, .view: format.summary
    case .probe: ProbeCommand.summary(of: format)
    case .check: CheckCommand.summary(of: format)
    }
  }

  /// The command's `--format` help: each format it writes and what it is for, and the default.
  var formatHelp: String {
    formats.map { "\($0.rawValue) \(summary(of: $0))" }.joined(separator: ", ")
      + ". Default: \(LayoutOptions().format.rawValue), or with -o FILE the format FILE's "
      + "extension names (\(formats.filter { $0 != .table }.map { ".\($0.rawValue)" }.listed))."
  }
}
