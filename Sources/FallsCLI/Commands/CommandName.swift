/// The commands that read a feed and take flags of the table (``LayoutFlag/commands``).
enum CommandName: String, CaseIterable, Hashable, Sendable {
  case layout, view, probe, check
}
