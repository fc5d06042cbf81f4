import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call's `errno`.
public struct SystemError: Error, Hashable, Sendable {
  /// The `errno` value.
  public var code: Int32

  /// Creates an error from an `errno` value.
  public init(code: Int32) { self.code = code }

  /// The error of the last failed system call on this thread.
  public static var last: SystemError { SystemError(code: errno) }

  /// The system's text for the error, such as "No such file or directory".
  public var message: String { String(cString: strerror(code)) }
}

/// Reads from `descriptor` until its end, or returns `nil` as soon as more than `maxBytes`
/// arrive (no more than `maxBytes` + 64 KiB is ever read): standard input, a pipe, a device.
///
/// - Throws: The error of a failed read.
public func readAll(_ descriptor: Int32, maxBytes: Int = .max) throws(SystemError) -> Data? {
  var data = Data()
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
    if count == 0 { return data }
    if count < 0 {
      if errno == EINTR { continue }
      throw .last
    }
    guard data.count + count <= maxBytes else { return nil }
    data.append(contentsOf: chunk[..<count])
  }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
