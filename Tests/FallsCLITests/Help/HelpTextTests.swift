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

  @Test("No suggestion for a name far from every flag")
  func noSuggestion() {
    #expect(HelpText.suggestion(for: "zzzzzzzzzz") == "")
  }
}
