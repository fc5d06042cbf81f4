import FallsCore
import FallsFeed

/// One flag of `falls layout` (and of `falls view`): the one description of it, from which its
/// parsing, the help, suggestions, which styles take it and the messages that name it all come.
struct LayoutFlag: Sendable {
  /// The name, without dashes.
  var name: FlagName
  /// The one-letter form, for the flags used most: `-c 4` or `-c4` for `--columns 4`.
  var short: Character?
  /// The placeholder of the value in help, unless the flag takes one of ``choices``; `nil` for
  /// a flag that takes none.
  var argument: String?
  /// The values the flag takes, when it takes one of a few (matched in any case).
  var choices: [String] = []
  /// Whether the value is a file's path, which shells complete.
  var isPath = false
  /// The placeholder of the argument that gives the flag's value without the flag (`FEED` for
  /// `--feed`), or `nil` when it has none.
  var positional: String?
  var help: String
  /// The setting of the layout it gives, whose styles take it (``LayoutStyle/options``); `nil`
  /// for a flag that every style takes.
  var option: LayoutOption?
  /// The configuration values it sets, so that the layout's own checks of them name the flag.
  var parameters: [LayoutParameter] = []
  /// The feeds it applies to; a flag given with another feed is refused, as a style refuses
  /// a flag of other styles.
  var feeds: Set<FeedKind> = Set(FeedKind.allCases)
  /// The commands that take it: `falls layout` and `falls view` (which prints nothing, and
  /// fetches as it scrolls) unless said; `falls probe` takes the flags of feeds and output.
  var commands: Set<CommandName> = [.layout, .view, .check]
  /// What the flag does in `falls probe`, where that differs from ``help``.
  var probeHelp: String?
  /// The placeholder of its value in `falls probe`, where that differs from ``argument``.
  var probeArgument: String?
  /// Why the flag would change nothing given the other flags, beyond its style (``option``)
  /// and its feeds (``feeds``), or `nil` where it has an effect: `--seed` with a layout that
  /// draws nothing at random, `--max-distortion` with nothing it bounds. The reason is said
  /// after "--name " and names what the flag is for.
  var isIdle: @Sendable (LayoutOptions) -> String? = { _ in nil }
  /// Reads the flag's value (empty for a flag that takes none) into what is being parsed;
  /// throws only ``CLIError``.
  var read: @Sendable (inout LayoutReading, FlagValue) throws -> Void

  /// The placeholder of the value in help: the argument, or the choices joined by `|`; `nil`
  /// for a flag that takes none.
  var value: String? { argument ?? (choices.isEmpty ? nil : choices.joined(separator: "|")) }

  /// The help in `command`, and the feeds it is for when not all: what the help and the
  /// manual say.
  func fullHelp(for command: CommandName = .layout) -> String {
    let words = help(for: command)
    return feeds.count < FeedKind.allCases.count
      ? words + " For \(feeds.description) only." : words
  }

  /// What the flag does in `command`: for `--format` the formats the command writes, in
  /// `falls probe` its ``probeHelp`` where it has one.
  func help(for command: CommandName) -> String {
    if name == .format { return command.formatHelp }
    return command == .probe ? probeHelp ?? help : help
  }

  /// The placeholder of the value in the help and messages of `command`: for `--format` the
  /// formats the command writes (``CommandName/formats``).
  func value(for command: CommandName) -> String? {
    if command == .probe, let probeArgument { return probeArgument }
    let offered = choices(for: command)
    return argument ?? (offered.isEmpty ? nil : offered.joined(separator: "|"))
  }

  /// The values the flag takes in `command`, as help and completions offer them: for
  /// `--format` the formats the command writes.
  func choices(for command: CommandName) -> [String] {
    name == .format ? command.formats.map(\.rawValue) : choices
  }

  /// Whether `falls view` takes it.
  var isForView: Bool { commands.contains(.view) }

  /// The flag as typed: `--name`, then `-x` when it has a one-letter form.
  var spellings: [String] {
    ["--\(name)"] + (short.map { ["-\($0)"] } ?? [])
  }

  /// The flag called `name` (without dashes), if there is one.
  static func named(_ name: String) -> LayoutFlag? {
    FlagName(rawValue: name).map { self[$0] }
  }

  /// The flag whose one-letter form is `letter`, if there is one.
  static func named(short letter: Character) -> LayoutFlag? {
    all.first { $0.short == letter }
  }
}
