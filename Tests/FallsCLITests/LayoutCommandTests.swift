import FallsCore
import Testing

@testable import FallsCLI

private func parse(_ arguments: [String]) throws -> LayoutOptions {
  try LayoutCommand.parse(arguments)
}

@Suite struct LayoutCommandTests {
  @Test("No flags give the seeds' defaults and the embedded feed")
  func defaults() throws {
    let options = try parse([])
    #expect(options.configuration == LayoutConfiguration())
    #expect(options.feed == .embedded)
    #expect(options.format == .table)
    #expect(!options.skipInvalid)
  }

  @Test(
    "A value may follow the flag or an equals sign",
    arguments: [["--columns", "4"], ["--columns=4"]])
  func valueForms(arguments: [String]) throws {
    #expect(try parse(arguments).configuration.columns == 4)
  }

  @Test(
    "--spacing sets both gaps; the specific flags win in any order",
    arguments: [
      (["--spacing", "5"], 5.0, 5.0),
      (["--spacing", "5", "--row-spacing", "2"], 5, 2),
      (["--row-spacing", "2", "--spacing", "5"], 5, 2),
      (["--column-spacing", "0", "--spacing", "5"], 0, 5),
    ])
  func spacing(arguments: [String], column: Double, row: Double) throws {
    let configuration = try parse(arguments).configuration
    #expect(configuration.columnSpacing == column)
    #expect(configuration.rowSpacing == row)
  }

  @Test(
    "Insets take one value or four",
    arguments: [
      ("7", EdgeInsets(all: 7)),
      ("1,2,3,4", EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)),
      ("0,0.5,0,1e1", EdgeInsets(top: 0, left: 0.5, bottom: 0, right: 10)),
      ("10, 20, 30, 40", EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)),
    ])
  func insets(text: String, expected: EdgeInsets) throws {
    #expect(try parse(["--insets", text]).configuration.insets == expected)
  }

  @Test("A repeated flag takes its last value")
  func lastWins() throws {
    #expect(try parse(["--columns", "2", "--columns", "5"]).configuration.columns == 5)
  }

  @Test(
    "--feed - reads standard input; other values are paths",
    arguments: [
      ("-", FeedSource.standardInput), ("feed.json", .file("feed.json")), ("./-", .file("./-")),
    ])
  func feedSources(text: String, source: FeedSource) throws {
    #expect(try parse(["--feed", text]).feed == source)
  }

  @Test("Every style, format and the seed's full range are accepted")
  func enumerations() throws {
    for style in LayoutStyle.allCases {
      #expect(try parse(["--style", style.rawValue]).configuration.style == style)
    }
    for format in OutputFormat.allCases {
      #expect(try parse(["--format", format.rawValue]).format == format)
    }
    #expect(try parse(["--seed", "18446744073709551615"]).configuration.seed == .max)
    #expect(try parse(["--skip-invalid"]).skipInvalid)
  }

  @Test("A negative number is taken as a value, not as a flag")
  func negativeValue() {
    #expect {
      try parse(["--spacing", "-3"])
    } throws: { error in
      guard case .usage(let message, _) = error as? CLIError else { return false }
      return message.contains("invalid value '-3' for '--spacing'")
    }
  }

  @Test(
    "Edit distance counts single-character edits",
    arguments: [
      ("columns", "colums", 1), ("seed", "seed", 0), ("", "abc", 3), ("width", "with", 1),
      ("format", "fromat", 2),
    ])
  func distance(a: String, b: String, expected: Int) {
    #expect(editDistance(a, b) == expected)
  }

  @Test("Help text wraps at the width without breaking words")
  func wrapping() {
    let text = wrap("one two three four five six", indent: 2, width: 12)
    #expect(text == "  one two\n  three four\n  five six")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 12 })
  }
}
