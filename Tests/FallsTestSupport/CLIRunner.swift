import FallsBase
import FallsCLI
import FallsFeed
import Foundation

/// What one in-process run of the CLI produced.
public struct CLIResult {
  public var code: ExitCode
  public var standardOutput: String
  public var standardError: String
}

/// A sink whose every write fails with `code`, as a closed pipe or a full disk would.
public final class FailingSink: ByteSink {
  private let code: Int32
  public private(set) var attempts = 0

  public init(code: Int32) { self.code = code }

  public func write(_ bytes: RawSpan) throws(SystemError) {
    attempts += 1
    throw SystemError(code: code)
  }
}

/// Runs `falls` in-process with `input` as standard input and buffers for output.
public func runCLI(
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
