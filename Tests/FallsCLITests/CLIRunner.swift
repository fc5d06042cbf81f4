import FallsBase
import FallsCLI
import FallsFeed
import Foundation

/// What one in-process run of the CLI produced.
struct CLIResult {
  var code: ExitCode
  var standardOutput: String
  var standardError: String
}

/// A sink whose every write fails with `code`, as a closed pipe or a full disk would.
final class FailingSink: ByteSink {
  private let code: Int32
  private(set) var attempts = 0

  init(code: Int32) { self.code = code }

  func write(_ bytes: RawSpan) throws(SystemError) {
    attempts += 1
    throw SystemError(code: code)
  }
}

/// Runs `falls` in-process with `input` as standard input and buffers for output.
func runCLI(
  _ arguments: [String], input: String = "",
  environment configure: (inout CLIEnvironment) -> Void = { _ in }
) async -> CLIResult {
  let output = BufferSink()
  let error = BufferSink()
  var environment = CLIEnvironment(
    readStandardInput: { _, _ in FeedBytes(data: Data(input.utf8)) },
    standardOutput: output, standardError: error)
  configure(&environment)
  let code = await CLI.run(arguments, environment: environment)
  return CLIResult(code: code, standardOutput: output.text, standardError: error.text)
}
