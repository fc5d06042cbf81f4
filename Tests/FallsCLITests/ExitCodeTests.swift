import FallsFeed
import Testing

@testable import FallsCLI

@Suite struct ExitCodeTests {
  @Test("The statuses follow sysexits.h")
  func values() {
    #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 64, 65, 66, 74, 141])
  }

  @Test(
    "Every error maps to its stream and status",
    arguments: [
      (CLIError.informational("help\n"), true, ExitCode.success),
      (.usage("bad", command: "layout"), false, .usage),
      (.feed(.notJSON(detail: "x")), false, .dataError),
      (.feed(.noDataArray(found: "x")), false, .dataError),
      (.feed(.invalidItems([])), false, .dataError),
      (.feed(.unreadable(path: "p", reason: "r")), false, .noInput),
      (.output(SystemError(code: 28)), false, .ioError),
      (.output(SystemError(code: 32)), false, .brokenPipe),
    ])
  func mapping(error: CLIError, toStandardOutput: Bool, code: ExitCode) {
    let result = outcome(of: error)
    #expect(result.toStandardOutput == toStandardOutput)
    #expect(result.code == code)
  }

  @Test("A closed pipe says nothing; usage errors point to the right help")
  func messages() {
    #expect(outcome(of: .output(SystemError(code: 32))).message.isEmpty)
    #expect(
      outcome(of: .usage("bad", command: "layout")).message
        == "error: bad\nSee 'falls layout --help' for usage.")
    #expect(
      outcome(of: .usage("bad", command: nil)).message
        == "error: bad\nSee 'falls --help' for usage.")
    #expect(
      outcome(of: .feed(.unreadable(path: "a.json", reason: "Permission denied"))).message
        == "error: cannot read the feed file 'a.json': Permission denied")
  }
}
