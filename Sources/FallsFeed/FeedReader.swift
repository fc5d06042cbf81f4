import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads feed bytes from a file descriptor or a path, with the system's reason on failure.
public enum FeedReader {
  /// Reads the whole file at `path`.
  ///
  /// - Throws: ``FeedError/unreadable(path:reason:)`` when the file cannot be opened or read, or
  ///   is a directory.
  /// - Complexity: O(*n*) in the size of the file.
  public static func read(path: String) throws(FeedError) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: systemError(errno)) }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw .unreadable(path: path, reason: "it is a directory")
    }
    do {
      return try readAll(descriptor)
    } catch {
      throw .unreadable(path: path, reason: systemError(error.code))
    }
  }

  /// Reads from `descriptor` until end of file.
  ///
  /// - Throws: The `errno` of a failed read.
  public static func readAll(_ descriptor: Int32) throws(SystemError) -> Data {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(code: errno)
      }
      data.append(contentsOf: chunk[..<count])
    }
  }

  /// The text of an `errno` value, such as "No such file or directory".
  public static func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// A failed system call's `errno`.
public struct SystemError: Error, Hashable, Sendable {
  /// The `errno` value.
  public var code: Int32
  /// Creates an error from an `errno` value.
  public init(code: Int32) { self.code = code }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
