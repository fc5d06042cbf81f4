import FallsBase

/// The help of `falls layout`, written from the flag table, and the suggestion of a flag for a
/// misspelt one.
enum HelpText {
  /// The columns a help fits in: 80, so that an 80-column terminal breaks no word of it and a
  /// help in a file or a pipe is the same on every machine; on a terminal, its width
  /// (``width(forTerminal:)``), for the run (`CLI.run`).
  @TaskLocal static var width = 80

  /// The width of help on standard output that is a terminal of `columns`, or not a terminal
  /// (`nil`): a wider terminal's, up to 100 columns (longer lines are hard to read); 80 on a
  /// narrower one, as its examples and tables are written for 80, and elsewhere.
  static func width(forTerminal columns: Int?) -> Int {
    columns.map { min(max($0, 80), 100) } ?? 80
  }

  /// `text` after `label` (`USAGE: `), wrapped to ``width``, its later lines under the text's
  /// start; a bracketed group (`[-f table|json]`) is kept on one line.
  static func labelled(_ label: String, _ text: String) -> String {
    var depth = 0
    let joined = String(
      text.map { character -> Character in
        if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
        return depth > 0 && character == " " ? "\u{00A0}" : character
      })
    let wrapped = wrap(joined, indent: label.count, width: width).dropFirst(label.count)
    return label + wrapped.replacingOccurrences(of: "\u{00A0}", with: " ")
  }

  /// A paragraph of prose, wrapped to ``width``.
  static func prose(_ text: String) -> String { wrap(text, indent: 0, width: width) }

  /// An option's or a command's line and its words wrapped under a column at `column`:
  /// `  name    words…`, or the words on the next line where the name reaches the column.
  static func row(_ name: String, _ words: String, column: Int) -> String {
    let body = wrap(words, indent: column, width: width)
    guard name.count + 1 < column else { return name + "\n" + body }
    return name + body.dropFirst(name.count)
  }

  /// A command's help, its sections in one order, each from what the command gives: OVERVIEW,
  /// USAGE, what it does, KEYS (the viewer's), ARGUMENTS (a feed command's), OPTIONS (the flag
  /// table's), EXAMPLES and EXIT STATUS (``ExitCode/helpLines(_:)``).
  static func page(
    _ command: CommandName, overview: String, about: String, keys: [String] = [],
    examples: [String] = [], exitStatus: String? = nil
  ) -> String {
    var text =
      labelled("OVERVIEW: ", overview) + "\n\nUSAGE: \(Command[command].usage)\n\n"
      + prose(about) + "\n"
    if !keys.isEmpty { text += "\nKEYS:\n" + keys.map { "  " + $0 + "\n" }.joined() }
    if Command[command].takesFeed { text += "\n" + arguments }
    text += "\nOPTIONS:\n" + options(of: command)
    if !examples.isEmpty {
      text += "\nEXAMPLES:\n" + examples.map { "  " + $0 + "\n" }.joined()
    }
    if let exitStatus { text += "\nEXIT STATUS:\n" + exitStatus }
    return text
  }

  /// `falls layout --help`: the overview, then every flag of the table in its order, wrapped.
  static var layout: String {
    page(
      .layout, overview: "Lay out an image feed as a waterfall and print every item's frame.",
      about: "Frames are in points, origin at the top left, y growing downward.",
      examples: [
        "falls layout", "falls layout -c 4 -f json | jq '.items[] | select(.enlarged)'",
        "falls layout Tests/Fixtures/xr-waterfall.json --style waterfall -s 4",
        "falls layout -c 4 -f html -o feed.html",
        "falls layout 'https://example.com/list?page={page}&size={size}' --pages 3",
        "curl -s https://example.com/finderlist | falls layout - -f jsonl",
      ], exitStatus: ExitCode.helpLines)
  }

  /// The help's ARGUMENTS: each argument that stands for a flag (FEED), with what it is.
  static var arguments: String {
    var text = "ARGUMENTS:\n"
    for flag in LayoutFlag.all {
      guard let positional = flag.positional else { continue }
      text += "  \(positional)\n" + wrap(positionalHelp(of: flag), indent: 6, width: width) + "\n"
    }
    return text
  }

  /// What the help says of the argument that stands for `flag`: "The feed, as with --feed: "
  /// and what the flag's help says after its first colon.
  static func positionalHelp(of flag: LayoutFlag) -> String {
    let what = flag.help.range(of: ": ").map { String(flag.help[$0.upperBound...]) } ?? flag.help
    return "The \(flag.name), as with --\(flag.name): " + what
  }

  /// A flag's line in the help of `command`: `  -c, --columns N`, or `  --feed URL|PATH|-`.
  static func heading(of flag: LayoutFlag, for command: CommandName = .layout) -> String {
    "  " + (flag.short.map { "-\($0), " } ?? "") + "--\(flag.name)"
      + (flag.value(for: command).map { " \($0)" } ?? "")
  }

  /// The help's OPTIONS of `command`: each flag of the table it takes, in the table's order,
  /// with its words there.
  static func options(of command: CommandName) -> String {
    LayoutFlag.all.filter { $0.commands.contains(command) }.map { flag in
      heading(of: flag, for: command) + "\n"
        + wrap(flag.fullHelp(for: command), indent: 6, width: width) + "\n"
    }.joined()
  }

  /// "; did you mean '--name'?" for the flag of `command` nearest to `name` (at most three
  /// edits away), or nothing.
  static func suggestion(for name: String, in command: CommandName) -> String {
    let names = LayoutFlag.all.filter { $0.commands.contains(command) }.map(\.name.rawValue)
    return closest(to: name, among: names).map { "; did you mean '--\($0)'?" } ?? ""
  }

  /// The one of `names` that `name` begins (at least three letters of it, and only one), or
  /// else the nearest by edit distance within a third of `name`'s letters (two at least, three
  /// at most): `--tol` is `--tolerance`, `--limt` nothing of probe's `--quiet`.
  static func closest(to name: String, among names: [String]) -> String? {
    let begun = names.filter { name.count >= 3 && $0.hasPrefix(name) }
    if begun.count == 1 { return begun[0] }
    let candidates = names.map { ($0, editDistance($0, name)) }
    let most = min(max(name.count / 3, 2), 3)
    guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= most else { return nil }
    return best.0
  }
}

/// The Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  var previous = Array(0...b.count)
  for (i, characterA) in a.enumerated() {
    var current = [i + 1] + Array(repeating: 0, count: b.count)
    for (j, characterB) in b.enumerated() {
      let substitution = previous[j] + (characterA == characterB ? 0 : 1)
      current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, substitution)
    }
    previous = current
  }
  return previous[b.count]
}
