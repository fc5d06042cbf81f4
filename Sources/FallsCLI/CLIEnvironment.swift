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
  /// The width in columns of the terminal that standard output is, or `nil` when it is not one
  /// (a pipe, a file): the table is fitted to it.
  public var standardOutputColumns: Int?
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
    standardOutputColumns: Int? = nil,
    transport: any HTTPTransport = URLSessionTransport(),
    backoff: Double = FetchPolicy().backoff
  ) {
    self.readStandardInput = readStandardInput
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.standardErrorIsTerminal = standardErrorIsTerminal
    self.standardOutputColumns = standardOutputColumns
    self.transport = transport
    self.backoff = backoff
  }

  /// The real process: file descriptors 0, 1 and 2, and URLSession.
  public static func process() -> CLIEnvironment {
    CLIEnvironment(
      readStandardInput: { (limit) throws(SystemError) in try readAll(0, maxBytes: limit) },
      standardOutput: FileDescriptorSink(descriptor: 1),
      standardError: FileDescriptorSink(descriptor: 2),
      standardErrorIsTerminal: isatty(2) == 1, standardOutputColumns: terminalColumns(1))
  }
}

/// The width of the terminal that `descriptor` is, or `nil` when it is not a terminal.
private func terminalColumns(_ descriptor: Int32) -> Int? {
  guard isatty(descriptor) == 1 else { return nil }
  var window = winsize()
  guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return 80 }
  return Int(window.ws_col)
}
