import FallsBase
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where output goes: standard output and standard error, a file, or a buffer.
public protocol ByteSink: AnyObject {
  /// Writes all of `bytes`.
  ///
  /// - Throws: The `errno` of a failed write (`EPIPE` when the reader has gone).
  func write(_ bytes: RawSpan) throws(SystemError)
}

extension ByteSink {
  /// Writes a string as UTF-8.
  public func write(_ text: String) throws(SystemError) {
    var text = text
    text.makeContiguousUTF8()
    try write(text.utf8.span.bytes)
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
  public func write(_ bytes: RawSpan) throws(SystemError) {
    let failure = bytes.withUnsafeBytes { bytes -> SystemError? in
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return SystemError(code: errno)
        }
        offset += written
      }
      return nil
    }
    if let failure { throw failure }
  }
}

private func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, base, count)
}

/// The sink of a stream that was closed when falls started: every write fails with `EBADF`,
/// which the CLI reports as "standard output is closed" (74).
public final class ClosedSink: ByteSink {
  /// Creates the sink.
  public init() {}

  public func write(_ bytes: RawSpan) throws(SystemError) {
    throw SystemError(code: EBADF)
  }
}

/// A sink that keeps what is written, for tests and for output assembled before it is sent.
public final class BufferSink: ByteSink {
  /// Everything written so far.
  public private(set) var bytes: [UInt8] = []

  /// Creates an empty buffer.
  public init() {}

  /// Appends `bytes`.
  public func write(_ bytes: RawSpan) throws(SystemError) {
    bytes.withUnsafeBytes { self.bytes.append(contentsOf: $0) }
  }

  /// What was written, decoded as UTF-8.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}
