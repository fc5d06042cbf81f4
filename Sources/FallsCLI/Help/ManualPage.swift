import FallsFeed

/// `falls manual`: the manual page falls(1) in roff, written from the flag table, the viewer's
/// keys and the exit statuses, as `make install` puts it in `share/man/man1/falls.1`.
enum ManualPage {
  static let name = "manual"

  static var help: String {
    "OVERVIEW: Print the manual page, falls(1), in roff.\n\nUSAGE: \(Command[.manual].usage)\n"
  }

  /// Parses the arguments after `manual` and returns the page.
  static func run(_ arguments: [String]) throws(CLIError) -> String {
    guard try LayoutCommand.parse(arguments, for: .manual).operands.isEmpty else {
      throw .usage("falls manual takes no argument; see 'man ./falls.1'", command: name)
    }
    return text
  }

  static var text: String {
    var page = """
      .TH FALLS 1 "" "falls \(CLI.version)" "User Commands"
      .SH NAME
      falls \\- lay out image feeds as waterfalls (masonry) and print the frames
      .SH SYNOPSIS
      \(synopsis)
      .SH DESCRIPTION
      .B falls layout
      reads a finderlist feed, a JSON object whose "data" array holds items with an "img" URL,
      a "width" and a "height", lays it out and prints every item's frame as a table, JSON or
      JSON Lines, or draws it as SVG or HTML.
      .B falls view
      shows the layout in the terminal and loads the next page at the bottom.
      .B falls probe
      reads the first bytes of every item's image (\(ImageFormat.listed), a JPEG with its EXIF
      orientation) and reports its size as shown beside the feed's: ok, mismatch, missing,
      unreachable, notAnImage or refused; it exits 1 when any item is not ok.
      .B falls check
      lays a feed out as falls layout does and checks the layout's rules on its frames, each
      \\-\\-limit, and with \\-\\-images every image; it exits 1 when a check fails.
      .B falls diff
      compares two falls.layout/1 documents (json or jsonl) and reports the items added,
      removed and changed; it exits 1 when they differ, 65 when an input holds a value falls
      would not write, and 66 when standard input, a pipe or a device passes
      \\-\\-max\\-bytes (a regular file only when the flag is given).
      FEED is an http or https URL, a file, or \\- for standard input; without one, falls lays out
      the feed built into it.
      Frames are in points, origin at the top left, y growing downward.
      .SH OPTIONS

      """
    for flag in LayoutFlag.all {
      let names =
        (flag.short.map { "\\fB\\-\($0)\\fR, " } ?? "")
        + "\\fB\\-\\-\(escaped(flag.name.rawValue))\\fR"
      let value = flag.value.map { " \\fI\(escaped($0))\\fR" } ?? ""
      page += ".TP\n\(names)\(value)\n\(escaped(help(of: flag)))\n"
    }
    page += ".SH VIEW KEYS\n"
    for key in ViewerKey.all {
      page += ".TP\n\\fB\(escaped(key.names))\\fR\n\(escaped(key.help))\n"
    }
    page += """
      .SH EXIT STATUS
      \(exitStatuses)
      .SH EXAMPLES
      .nf
      falls layout \\-c 4 \\-f json | jq '.items[] | select(.enlarged)'
      falls layout \\-c 4 \\-f html \\-o feed.html
      falls layout 'https://example.com/list?page={page}&size={size}' \\-\\-pages 3
      curl \\-s https://example.com/finderlist | falls layout \\- \\-f jsonl
      falls view \\-\\-style waterfall \\-c 2
      .fi
      .SH SEE ALSO
      .BR jq (1)

      """
    return page
  }

  /// The SYNOPSIS: each command's usage line, from the one list of commands, the command in
  /// bold and its operands in italics.
  private static var synopsis: String {
    Command.all.map { command in
      let words = command.usage.split(separator: " ").dropFirst(2).map { word in
        word.hasPrefix("[")
          ? "[\\fI\(escaped(String(word.dropFirst().dropLast())))\\fR]"
          : word.contains("|")
            ? word.split(separator: "|").map { "\\fB\($0)\\fR" }.joined(separator: "|")
            : "\\fI\(escaped(String(word)))\\fR"
      }
      return ".B falls \(command.name)" + (words.isEmpty ? "" : "\n" + words.joined(separator: " "))
    }.joined(separator: "\n.br\n")
  }

  /// What the manual says of a flag: its help in falls layout (or in the first command that
  /// takes it), the commands it is for when not layout's, and its words in each other command
  /// where they differ.
  private static func help(of flag: LayoutFlag) -> String {
    let commands = CommandName.allCases.filter(flag.commands.contains)
    let first = commands.first ?? .layout
    var text = flag.fullHelp(for: first)
    if first != .layout {
      text += " Only for \(commands.map { "falls \($0)" }.listed)."
    } else if flag.commands.contains(.layout), !flag.isForView {
      text += " Not for falls view."
    }
    for command in commands.dropFirst() where flag.help(for: command) != flag.help(for: first) {
      text += " In falls \(command): " + flag.fullHelp(for: command)
    }
    return text
  }

  /// The EXIT STATUS section's paragraphs, each status and what it means, a line apart.
  private static var exitStatuses: String {
    ExitCode.documented.map { ".TP\n\($0.rawValue)\n\(withCode($0.explanation))" }
      .joined(separator: "\n")
  }

  /// `text` for roff (``escaped(_:)``), its spans in backquotes (`falls check`) in bold.
  static func withCode(_ text: String) -> String {
    let parts = text.split(separator: "`", omittingEmptySubsequences: false)
    let body = parts.enumerated().map { number, part in
      let plain = escaped(String(part)).replacingOccurrences(of: "\\&", with: "")
      return number % 2 == 1 ? "\\fB" + plain + "\\fR" : plain
    }.joined()
    return body.first == "." || body.first == "'" ? "\\&" + body : body
  }

  /// `text` for roff: backslashes and hyphens escaped, characters beyond ASCII named
  /// (`\[u2212]`), and no line starting with a dot or a quote, which roff would read as a
  /// request.
  static func escaped(_ text: String) -> String {
    var body = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": body += "\\e"
      case "-": body += "\\-"
      case _ where scalar.isASCII: body.unicodeScalars.append(scalar)
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        body += "\\[u" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex + "]"
      }
    }
    return body.first == "." || body.first == "'" ? "\\&" + body : body
  }
}
