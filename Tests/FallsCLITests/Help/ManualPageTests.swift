import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

@Suite(.tags(.process)) struct ManualPageTests {
  @Test("Every flag of the table is in the manual, with its one-letter form and placeholder")
  func everyFlag() {
    let page = ManualPage.text
    for flag in LayoutFlag.all {
      let names =
        (flag.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB\\-\\-"
        + ManualPage.escaped(flag.name.rawValue) + "\\fR"
      #expect(page.contains(".TP\n" + names), "--\(flag.name) is missing")
      if let value = flag.value { #expect(page.contains("\\fI\(ManualPage.escaped(value))\\fR")) }
    }
    for key in ViewerKey.all { #expect(page.contains(ManualPage.escaped(key.help))) }
    #expect(page.hasPrefix(".TH FALLS 1 "))
  }

  @Test(
    "Text for roff: hyphens and backslashes escaped, other characters named, no request",
    arguments: [
      ("--max-bytes", "\\-\\-max\\-bytes"), ("a\\b", "a\\eb"), (".hidden", "\\&.hidden"),
      ("'quoted'", "\\&'quoted'"), ("N − 1 ↓", "N \\[u2212] 1 \\[u2193]"),
    ])
  func escaping(text: String, expected: String) {
    #expect(ManualPage.escaped(text) == expected)
  }

  @Test("falls manual prints the page; groff reads it without a warning")
  func groff() async throws {
    let result = await runCLI(["manual"])
    #expect(result.code == .success && result.standardOutput == ManualPage.text)
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-\(UInt64.random(in: 0 ... .max)).1")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(result.standardOutput.utf8).write(to: file)
    let run = try await shell("groff -man -Tutf8 -ww -z \(shellQuoted(file.path))")
    #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
  }
}
