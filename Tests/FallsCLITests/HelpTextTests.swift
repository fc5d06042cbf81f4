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

  @Test("Help text wraps at the width without breaking words")
  func wrapping() {
    let text = wrap("one two three four five six", indent: 2, width: 12)
    #expect(text == "  one two\n  three four\n  five six")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 12 })
  }

  @Test("A word longer than a line is broken where the line ends")
  func longWord() {
    #expect(
      wrap("see http://127.0.0.1:8080/a/b/c ok", indent: 0, width: 10)
        == "see\nhttp://127\n.0.0.1:808\n0/a/b/c ok")
    #expect(wrap("abcdefgh", indent: 2, width: 5) == "  abc\n  def\n  gh")
  }

  @Test("No suggestion for a name far from every flag")
  func noSuggestion() {
    #expect(HelpText.suggestion(for: "zzzzzzzzzz") == "")
  }
}
