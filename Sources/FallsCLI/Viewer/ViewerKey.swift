import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation

/// What a key of `falls view` does.
enum ViewerAction {
  case lineDown, lineUp, screenDown, screenUp, top, bottom, moreColumns, fewerColumns, refresh
  case showKeys, quit, interrupt
}

/// One key of `falls view`: the one description of it, from which the help's KEYS, the `?` box,
/// the manual and what a key press does all come.
struct ViewerKey {
  /// The keys as a person reads them: `j ↓`.
  let names: String
  let keys: [Key]
  let action: ViewerAction
  let help: String

  static let all = [
    ViewerKey(
      names: "j ↓", keys: [.character("j"), .down], action: .lineDown, help: "down a line"),
    ViewerKey(names: "k ↑", keys: [.character("k"), .up], action: .lineUp, help: "up a line"),
    ViewerKey(
      names: "space PgDn", keys: [.character(" "), .pageDown], action: .screenDown,
      help: "down a screen"),
    ViewerKey(
      names: "b PgUp", keys: [.character("b"), .pageUp], action: .screenUp, help: "up a screen"),
    ViewerKey(names: "g Home", keys: [.character("g"), .home], action: .top, help: "top"),
    ViewerKey(
      names: "G End", keys: [.character("G"), .end], action: .bottom,
      help: "bottom (loads the next page)"),
    ViewerKey(
      names: "+", keys: [.character("+"), .character("=")], action: .moreColumns,
      help: "one column more, laid out again"),
    ViewerKey(
      names: "-", keys: [.character("-")], action: .fewerColumns,
      help: "one column fewer, laid out again"),
    ViewerKey(
      names: "r", keys: [.character("r")], action: .refresh,
      help: "refresh: load page 1 again and start over"),
    ViewerKey(names: "?", keys: [.character("?")], action: .showKeys, help: "show the keys"),
    ViewerKey(
      names: "q", keys: [.character("q")], action: .quit, help: "quit, also while a page loads"),
    ViewerKey(
      names: "Ctrl-C", keys: [.interrupt], action: .interrupt,
      help: "quit with status 130, as a shell expects"),
  ]

  /// One line a key, its names in a column of their own: for the help and the `?` box.
  static var lines: [String] {
    let width = (all.map(\.names.count).max() ?? 0) + 2
    return all.map { $0.names + String(repeating: " ", count: width - $0.names.count) + $0.help }
  }
}
