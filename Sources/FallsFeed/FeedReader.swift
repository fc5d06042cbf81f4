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
    try load(path: path).data
  }

  /// The bytes of the file at `path`: a large regular file is mapped into memory rather than
  /// copied (its pages are read as they are touched, and ``FeedBytes/isFileMapping`` lets the
  /// decoder give back the pages it has read); anything else is read.
  ///
  /// - Throws: ``FeedError/unreadable(path:reason:)`` when the file cannot be opened or read, or
  ///   is a directory.
  public static func load(path: String) throws(FeedError) -> FeedBytes {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: systemError(errno)) }
    defer { close(descriptor) }
    var status = stat()
    let isRegular = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw .unreadable(path: path, reason: "it is a directory")
    }
    if isRegular, status.st_size >= 1 << 20,
      let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    {
      return FeedBytes(
        data: Data(bytesNoCopy: address, count: Int(status.st_size), deallocator: .unmap),
        isFileMapping: true)
    }
    do {
      return FeedBytes(data: try readAll(descriptor), isFileMapping: false)
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

/// A feed's bytes, and whether they are a private mapping of a file, whose pages can be given
/// back once read (they are read from the file again if touched again).
public struct FeedBytes: Sendable {
  /// The bytes.
  public var data: Data
  /// Whether `data` maps a file, read-only.
  public var isFileMapping: Bool

  /// Bytes in memory of their own.
  public init(data: Data, isFileMapping: Bool = false) {
    self.data = data
    self.isFileMapping = isFileMapping
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
