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

  @Test("No suggestion for a name far from every flag")
  func noSuggestion() {
    #expect(HelpText.suggestion(for: "zzzzzzzzzz") == "")
  }
}
