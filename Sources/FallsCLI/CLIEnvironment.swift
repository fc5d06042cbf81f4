import FallsBase
import FallsFeed
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's surroundings as the CLI sees them: its input, its two output streams, whether
/// standard error is a terminal, and the network.
public struct CLIEnvironment {
  /// Reads all of standard input, or `nil` as soon as it gives more than the limit it is passed.
  public var readStandardInput: (_ maxBytes: Int) throws(SystemError) -> Data?
  /// Standard output: results only.
  public var standardOutput: any ByteSink
  /// Standard error: messages, notes, errors and progress.
  public var standardError: any ByteSink
  /// Whether standard error is a terminal, where progress is shown.
  public var standardErrorIsTerminal: Bool
  /// The network, for feeds given as URLs.
  public var transport: any HTTPTransport
  /// The first backoff delay between retries, in seconds.
  public var backoff: Double

  /// Creates an environment from its parts.
  public init(
    readStandardInput: @escaping (_ maxBytes: Int) throws(SystemError) -> Data?,
    standardOutput: any ByteSink,
    standardError: any ByteSink,
    standardErrorIsTerminal: Bool = false,
    transport: any HTTPTransport = URLSessionTransport(),
    backoff: Double = FetchPolicy().backoff
  ) {
    self.readStandardInput = readStandardInput
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.standardErrorIsTerminal = standardErrorIsTerminal
    self.transport = transport
    self.backoff = backoff
  }

  /// The real process: file descriptors 0, 1 and 2, and URLSession.
  public static func process() -> CLIEnvironment {
    CLIEnvironment(
      readStandardInput: { (limit) throws(SystemError) in try readAll(0, maxBytes: limit) },
      standardOutput: FileDescriptorSink(descriptor: 1),
      standardError: FileDescriptorSink(descriptor: 2),
      standardErrorIsTerminal: isatty(2) == 1)
  }
}
