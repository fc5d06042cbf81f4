import FallsBase
import FallsFeed
import FallsFixtures
import Foundation
import Testing

@testable import FallsCLI

@Suite struct ExitCodeTests {
  @Test("The help and the manual list every status, each with its own words, once")
  func documented() {
    #expect(ExitCode.documented == ExitCode.allCases)
    let help = HelpText.layout
    let manual = ManualPage.text
    for code in ExitCode.documented {
      let number = String(code.rawValue)
      let line = "  " + number + String(repeating: " ", count: 5 - number.count) + code.summary
      #expect(help.components(separatedBy: "\n").filter { $0 == line }.count == 1, "\(code)")
      #expect(manual.contains(".TP\n\(number)\n\(ManualPage.withCode(code.explanation))\n"))
    }
    #expect(Set(ExitCode.documented.map(\.summary)).count == ExitCode.documented.count)
    #expect(Set(ExitCode.documented.map(\.explanation)).count == ExitCode.documented.count)
  }

  @Test(
    "docs/cli.md's table of exit statuses is the statuses' own words (FALLS_RECORD_DOCS=1 writes it)"
  )
  func readmeTable() throws {
    let readme = Documents.url("docs/cli.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let head = "| status | meaning |\n|---|---|\n"
    let start = try #require(text.range(of: head))
    // The table ends at a blank line, or at the last line of the page.
    let end =
      text[start.upperBound...].range(of: "\n\n")?.lowerBound
      ?? (text.hasSuffix("\n") ? text.index(before: text.endIndex) : text.endIndex)
    let table = ExitCode.documented.map { code in
      "| \(code.rawValue) | \(code.explanation.replacingOccurrences(of: "|", with: "\\|")) |"
    }.joined(separator: "\n")
    if ProcessInfo.processInfo.environment["FALLS_RECORD_DOCS"] == "1" {
      try Data((text[..<start.upperBound] + table + text[end...]).utf8).write(to: readme)
    } else {
      #expect(String(text[start.upperBound..<end]) == table)
    }
  }

  @Test("The statuses follow sysexits.h")
  func values() {
    #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 64, 65, 66, 69, 73, 74, 130, 141])
  }

  @Test(
    "Every error maps to its stream and status",
    arguments: [
      (CLIError.informational("help\n"), true, ExitCode.success),
      (.usage("bad", command: "layout"), false, .usage),
      (.refused("no terminal"), false, .usage),
      (.feed(.notJSON(detail: "x")), false, .dataError),
      (.feed(.noDataArray(found: "x")), false, .dataError),
      (.feed(.invalidItems([])), false, .dataError),
      (.feed(.unreadable(path: "p", reason: "r")), false, .noInput),
      (.output(SystemError(code: 28)), false, .ioError),
      (.output(SystemError(code: 32)), false, .brokenPipe),
      (.interrupted, false, .interrupted),
      (
        .fetch(FetchError(url: "u", cause: .status(500, reason: "x"), attempts: 3)), false,
        .unavailable
      ),
      (
        .page(2, .fetch(FetchError(url: "u", cause: .status(404, reason: "x"), attempts: 1))),
        false, .unavailable
      ),
      (.page(3, .feed(.notJSON(detail: "x"))), false, .dataError),
      (.outputFile(path: "f", .create(SystemError(code: 2))), false, .cannotCreate),
      (.outputFile(path: "f", .isDirectory), false, .cannotCreate),
      (.outputFile(path: "f", .write(SystemError(code: 28), keptFile: true)), false, .ioError),
      (.outputFile(path: "f", .write(SystemError(code: 32), keptFile: false)), false, .brokenPipe),
    ])
  func mapping(error: CLIError, toStandardOutput: Bool, code: ExitCode) {
    let result = outcome(of: error)
    #expect(result.toStandardOutput == toStandardOutput)
    #expect(result.code == code)
  }

  @Test("A failed page is named in front of the failure")
  func pageMessage() {
    let error = CLIError.page(
      2,
      .fetch(FetchError(url: "http://h/p", cause: .status(404, reason: "Not Found"), attempts: 1)))
    #expect(
      outcome(of: error).message
        == "page 2: GET http://h/p: HTTP 404 Not Found; expected a 2xx answer with a finderlist JSON feed"
    )
  }

  @Test("A closed pipe says nothing; usage errors point to the right help")
  func messages() {
    #expect(outcome(of: .output(SystemError(code: 32))).message.isEmpty)
    #expect(
      outcome(of: .usage("bad", command: "layout")).message
        == "bad\nSee 'falls layout --help' for usage.")
    #expect(
      outcome(of: .usage("bad", command: nil)).message
        == "bad\nSee 'falls --help' for usage.")
    #expect(
      outcome(of: .feed(.unreadable(path: "a.json", reason: "Permission denied"))).message
        == "cannot read the feed file 'a.json': Permission denied")
  }
}
