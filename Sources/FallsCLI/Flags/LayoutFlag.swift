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
  /// The commands that take it: those that lay a feed out (``CommandName/makesLayout``)
  /// unless said; the flags of feeds are every feed reader's (`.feedReaders`), those of a
  /// report's output every reporter's.
  var commands: Set<CommandName> = .layoutMakers
  /// What the flag says, shows and offers in a command where that differs from ``help``,
  /// ``argument`` and ``choices``: probe reads `--tolerance` as a ratio, and each command's
  /// `--format` offers the formats it writes.
  var inCommands: [CommandName: Words] = [:]

  /// A flag's words in one command; `nil` where they are the flag's own.
  struct Words: Sendable {
    var help: String?
    var argument: String?
    var choices: [String]?
  }
  /// Why the flag would change nothing given the other flags, beyond its style (``option``)
  /// and its feeds (``feeds``), or `nil` where it has an effect: `--seed` with a layout that
  /// draws nothing at random, `--max-distortion` with nothing it bounds. The reason is said
  /// after "--name " and names what the flag is for.
  var isIdle: @Sendable (LayoutOptions) -> String? = { _ in nil }
  /// Reads the flag's value (empty for a flag that takes none) into what is being parsed;
  /// throws only ``CLIError``.
  var read: @Sendable (inout LayoutReading, FlagValue) throws -> Void

  /// The placeholder of the value in layout's help and the manual (``value(for:)``).
  var value: String? { value(for: .layout) }

  /// The help in `command`, and the feeds it is for when not all: what the help and the
  /// manual say.
  func fullHelp(for command: CommandName = .layout) -> String {
    let words = help(for: command)
    return command.readsFeed && feeds.count < FeedKind.allCases.count
      ? words + " For \(feeds.description) only." : words
  }

  /// What the flag does in `command` (``inCommands``, or ``help``).
  func help(for command: CommandName) -> String {
    inCommands[command]?.help ?? help
  }

  /// The placeholder of the value in the help and messages of `command`: its argument, or the
  /// choices it offers there joined by `|`; `nil` for a flag that takes none.
  func value(for command: CommandName) -> String? {
    let offered = choices(for: command)
    return inCommands[command]?.argument ?? argument
      ?? (offered.isEmpty ? nil : offered.joined(separator: "|"))
  }

  /// The values the flag takes in `command`, as help and completions offer them.
  func choices(for command: CommandName) -> [String] {
    inCommands[command]?.choices ?? choices
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
