import FallsFeed
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the CLI writes bytes: standard output and standard error, or buffers in tests.
public protocol ByteSink: AnyObject {
  /// Writes all of `bytes`.
  ///
  /// - Throws: The `errno` of a failed write (`EPIPE` when the reader has gone).
  func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError)
}

extension ByteSink {
  /// Writes a string as UTF-8.
  func write(_ text: String) throws(SystemError) {
    var text = text
    let failure = text.withUTF8 { buffer -> SystemError? in
      do throws(SystemError) { try write(UnsafeRawBufferPointer(buffer)) } catch { return error }
      return nil
    }
    if let failure { throw failure }
  }
}

/// A sink that writes to a file descriptor with `write(2)`, retrying short writes.
public final class FileDescriptorSink: ByteSink {
  private let descriptor: Int32

  /// Creates a sink for `descriptor`; the sink never closes it.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Writes all of `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw SystemError(code: errno)
      }
      offset += written
    }
  }
}

private func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, base, count)
}

/// A sink that keeps what is written, for tests and for output assembled before it is sent.
public final class BufferSink: ByteSink {
  /// Everything written so far.
  public private(set) var bytes: [UInt8] = []

  /// Creates an empty buffer.
  public init() {}

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    self.bytes.append(contentsOf: bytes)
  }

  /// What was written, decoded as UTF-8.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

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
      readStandardInput: { (limit) throws(SystemError) in
        try FeedReader.readAll(0, maxBytes: limit)
      },
      standardOutput: FileDescriptorSink(descriptor: 1),
      standardError: FileDescriptorSink(descriptor: 2),
      standardErrorIsTerminal: isatty(2) == 1)
  }
}
