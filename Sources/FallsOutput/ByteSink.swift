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
  func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError)
}

extension ByteSink {
  /// Writes a string as UTF-8.
  public func write(_ text: String) throws(SystemError) {
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
