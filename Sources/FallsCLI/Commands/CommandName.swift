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
}
