import FallsBase
import Testing

@testable import FallsCLI

@Suite struct HelpTextTests {
  @Test(
    "Edit distance counts single-character edits",
    arguments: [
      ("columns", "colums", 1), ("seed", "seed", 0), ("", "abc", 3), ("width", "with", 1),
      ("format", "fromat", 2),
    ])
  func distance(a: String, b: String, expected: Int) {
    #expect(editDistance(a, b) == expected)
  }

  @Test(
    "Each command's help offers the formats it writes, and the placeholder of what it reads",
    arguments: [
      (["layout", "--help"], "-f, --format table|json|jsonl|svg|html", "--tolerance PT"),
      (["probe", "--help"], "-f, --format table|json|jsonl\n", "--tolerance R\n"),
      (["check", "--help"], "-f, --format table|json\n", "--tolerance PT\n"),
    ])
  func commandHelp(arguments: [String], format: String, tolerance: String) async {
    let help = await runCLI(arguments).standardOutput
    #expect(help.contains(format))
    #expect(help.contains(tolerance))
    // The --format paragraph names only the formats the command writes.
    let command = CommandName(rawValue: arguments[0]) ?? .layout
    let heading = "-f, --format \(command.formats.map(\.rawValue).joined(separator: "|"))\n"
    let after = help.components(separatedBy: heading).dropFirst().first ?? ""
    let sentence = (after.components(separatedBy: "Default:").first ?? "")
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for format in OutputFormat.allCases {
      #expect(
        (" " + sentence).contains(" \(format.rawValue) ") == command.formats.contains(format),
        "\(command) \(format)")
    }
  }

  @Test(
    "The name meant: the one begun, or the nearest within a third of the letters typed",
    arguments: [
      ("tol", ["help", "tolerance", "max-bytes"], "tolerance"),
      ("limt", ["quiet", "jobs", "help"], nil), ("limt", ["limit", "quiet"], "limit"),
      ("ma", ["max-time", "max-bytes"], nil), ("max", ["max-time", "max-bytes"], nil),
      ("layot", ["layout", "view"], "layout"), ("colums", ["columns"], "columns"),
    ] as [(String, [String], String?)])
  func closest(typed: String, names: [String], meant: String?) {
    #expect(HelpText.closest(to: typed, among: names) == meant)
  }

  @Test("No suggestion for a name far from every flag")
  func noSuggestion() {
    #expect(HelpText.suggestion(for: "zzzzzzzzzz", in: .layout) == "")
  }

  @Test(
    "Every help fits 80 columns: no line of it is wider",
    arguments: [
      ["--help"], ["layout", "--help"], ["view", "--help"], ["probe", "--help"],
      ["check", "--help"], ["diff", "--help"], ["completions", "--help"], ["manual", "--help"],
      ["help", "check"],
    ])
  func width(arguments: [String]) async {
    let result = await runCLI(arguments)
    #expect(result.code == .success && !result.standardOutput.isEmpty)
    for line in result.standardOutput.split(separator: "\n") {
      #expect(displayWidth(line) <= 80, "\(arguments): \(displayWidth(line)) columns: \(line)")
    }
  }

  @Test(
    "On a terminal, help fills its width from 80 up to 100 columns; elsewhere 80",
    arguments: [(nil, 80), (80, 80), (92, 92), (100, 100), (120, 100), (60, 80)] as [(Int?, Int)])
  func terminalWidth(columns: Int?, width: Int) async {
    #expect(HelpText.width(forTerminal: columns) == width)
    for arguments in [["layout", "--help"], ["--help"], ["diff", "--help"]] {
      let result = await runCLI(arguments) { $0.standardOutputColumns = columns }
      let widths = result.standardOutput.split(separator: "\n").map { displayWidth($0) }
      // Filled to the width, and no wider (a word longer than the width stands alone).
      #expect(
        widths.max() == width || arguments == ["--help"] && widths.max()! <= width,
        "\(arguments) at \(columns ?? 0): \(widths.max() ?? 0)")
    }
    // The same words at every width.
    let narrow = await runCLI(["layout", "--help"]) { $0.standardOutputColumns = 80 }
    let wide = await runCLI(["layout", "--help"]) { $0.standardOutputColumns = 100 }
    #expect(
      narrow.standardOutput.split(whereSeparator: \.isWhitespace)
        == wide.standardOutput.split(whereSeparator: \.isWhitespace))
  }

  @Test(
    "A row's words wrap under their column; a name past the column puts them on the next line",
    arguments: [
      ("  a", "one two", 6, "  a   one two"),
      ("  a-long-name", "one", 6, "  a-long-name\n      one"),
      ("  b", String(repeating: "word ", count: 20), 6, ""),
    ])
  func row(name: String, words: String, column: Int, expected: String) {
    let row = HelpText.row(name, words, column: column)
    if !expected.isEmpty { #expect(row == expected) }
    let lines = row.split(separator: "\n")
    #expect(lines.allSatisfy { displayWidth($0) <= HelpText.width })
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: column)) })
    // The words, all there, in order.
    #expect(
      Array(row.split { $0 == " " || $0 == "\n" }.dropFirst()) == words.split(separator: " "))
  }

  @Test("A usage wraps under its start, a bracketed group kept whole on one line")
  func labelled() {
    let usage = HelpText.labelled(
      "USAGE: ", "falls diff OLD NEW [--tolerance PT] [--max-bytes N] [-f table|json] [-o FILE]")
    #expect(
      usage == "USAGE: falls diff OLD NEW [--tolerance PT] [--max-bytes N] [-f table|json]\n"
        + "       [-o FILE]")
    #expect(HelpText.labelled("USAGE: ", "falls view [FEED]") == "USAGE: falls view [FEED]")
  }
}
