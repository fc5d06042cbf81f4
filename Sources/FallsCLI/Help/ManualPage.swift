import FallsFeed

/// `falls manual`: the manual page falls(1) in roff, written from the flag table, the viewer's
/// keys and the exit statuses, as `make install` puts it in `share/man/man1/falls.1`.
enum ManualPage {
  static let name = "manual"

  static let help = "OVERVIEW: Print the manual page, falls(1), in roff.\n\nUSAGE: falls manual\n"

  /// Parses the arguments after `manual` and returns the page.
  static func run(_ arguments: [String]) throws(CLIError) -> String {
    if arguments.contains("--help") || arguments.contains("-h") { throw .informational(help) }
    guard arguments.isEmpty else {
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
      .B falls layout
      [\\fIFEED\\fR] [\\fIoptions\\fR]
      .br
      .B falls view
      [\\fIFEED\\fR] [\\fIoptions\\fR]
      .br
      .B falls probe
      [\\fIFEED\\fR] [\\fIoptions\\fR]
      .br
      .B falls check
      [\\fIFEED\\fR] [\\fIoptions\\fR] [\\fB\\-\\-limit\\fR \\fIEXPR\\fR]...
      .br
      .B falls diff
      \\fIOLD\\fR \\fINEW\\fR [\\fIoptions\\fR]
      .br
      .B falls completions
      .BR bash | zsh | fish
      .br
      .B falls manual
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
      let only = CommandName.allCases.filter(flag.commands.contains).map { "falls \($0)" }
      let help =
        flag.fullHelp()
        + (!flag.commands.contains(.layout)
          ? " Only for \(only.listed)." : flag.isForView ? "" : " Not for falls view.")
        + (flag.commands.contains(.probe)
          ? " Also for falls probe"
            + (flag.help(for: .probe) != flag.help ? ": " + flag.help(for: .probe) : ".") : "")
      page += ".TP\n\(names)\(value)\n\(escaped(help))\n"
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

  /// The EXIT STATUS section's paragraphs, each status and what it means, a line apart.
  private static var exitStatuses: String {
    ExitCode.documented.map { ".TP\n\($0.rawValue)\n\(escaped($0.explanation))" }
      .joined(separator: "\n")
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
