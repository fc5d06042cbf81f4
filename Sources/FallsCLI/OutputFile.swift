import FallsFeed
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why `--output FILE` could not be written.
enum OutputFileFailure: Error, Equatable {
  /// The file (or the temporary file beside it) could not be created, or renamed into place.
  case create(SystemError)
  /// The path is a directory.
  case isDirectory
  /// Writing failed part-way; `keptFile` tells that the output was a regular file, left as it
  /// was.
  case write(SystemError, keptFile: Bool)
}

/// Where `--output` sends the output.
enum OutputTarget: Equatable {
  /// A descriptor the process already has open: `-`, `/dev/stdout`, `/dev/stderr`,
  /// `/dev/fd/N`, `/proc/self/fd/N`.
  case descriptor(Int32)
  /// A device, FIFO or socket: opened and written as it is (it cannot be replaced).
  case special(String)
  /// A regular file, or none yet: written to a temporary file in the same folder and renamed
  /// over it, so that a failure never leaves it half-written. Symbolic links are followed to
  /// their target, which is what gets replaced; the links stay.
  case replaced(String)
}

/// `--output FILE`: writes the output where the user asked, never half a file.
enum OutputFile {
  /// Where `path` sends the output.
  static func target(for path: String) throws(OutputFileFailure) -> OutputTarget {
    try target(for: path, links: 0)
  }

  private static func target(for path: String, links: Int) throws(OutputFileFailure)
    -> OutputTarget
  {
    switch path {
    case "-", "/dev/stdout": return .descriptor(1)
    case "/dev/stderr": return .descriptor(2)
    default: break
    }
    // A descriptor given by number is written as it is (its link may name a pipe, not a file).
    for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
      if let number = Int32(path.dropFirst(prefix.count)), fcntl(number, F_GETFD) != -1 {
        return .descriptor(number)
      }
    }
    var status = stat()
    guard lstat(path, &status) == 0 else {
      guard errno == ENOENT else { throw .create(SystemError(code: errno)) }
      return .replaced(path)
    }
    switch status.st_mode & S_IFMT {
    case S_IFLNK:
      guard links < 40 else { throw .create(SystemError(code: ELOOP)) }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(path, &buffer, buffer.count - 1)
      guard length >= 0 else { throw .create(SystemError(code: errno)) }
      let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let resolved =
        link.hasPrefix("/") ? link : (directory(of: path) as NSString).appendingPathComponent(link)
      return try target(for: resolved, links: links + 1)
    case S_IFDIR:
      throw .isDirectory
    case S_IFREG:
      return .replaced(path)
    default:
      return .special(path)
    }
  }

  /// Calls `body` with a sink for `path` and completes the file: for a regular file, renamed
  /// into place only when everything was written. Standard output and error are `streams`.
  ///
  /// - Throws: What went wrong; a regular file is then left as it was, and no temporary file is
  ///   left behind.
  static func write(
    to path: String, streams: (output: any ByteSink, error: any ByteSink),
    _ body: (any ByteSink) throws(SystemError) -> Void
  ) throws(OutputFileFailure) {
    switch try target(for: path) {
    case .descriptor(let descriptor):
      let sink: any ByteSink =
        switch descriptor {
        case 1: streams.output
        case 2: streams.error
        default: FileDescriptorSink(descriptor: descriptor)
        }
      do { try body(sink) } catch { throw .write(error, keptFile: false) }
    case .special(let path):
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw .create(SystemError(code: errno)) }
      defer { close(descriptor) }
      do { try body(FileDescriptorSink(descriptor: descriptor)) } catch {
        throw .write(error, keptFile: false)
      }
    case .replaced(let path):
      try replace(path, body)
    }
  }

  private static func replace(
    _ path: String, _ body: (any ByteSink) throws(SystemError) -> Void
  ) throws(OutputFileFailure) {
    let name = (path as NSString).lastPathComponent
    let temporary = (directory(of: path) as NSString).appendingPathComponent(
      ".\(name).falls-\(getpid())-\(UInt32.random(in: 0 ... .max)).tmp")
    // A file replaced keeps its permissions; a new one gets 0666 less the umask, as `>` does.
    var existing = stat()
    let keptMode: mode_t? = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o666))
    guard descriptor >= 0 else { throw .create(SystemError(code: errno)) }
    var failure: OutputFileFailure?
    do throws(SystemError) {
      try body(FileDescriptorSink(descriptor: descriptor))
      if let keptMode, fchmod(descriptor, keptMode) != 0 { throw SystemError(code: errno) }
      if fsync(descriptor) != 0 { throw SystemError(code: errno) }
    } catch {
      failure = .write(error, keptFile: true)
    }
    close(descriptor)
    if failure == nil, rename(temporary, path) != 0 {
      failure = .create(SystemError(code: errno))
    }
    if let failure {
      unlink(temporary)
      throw failure
    }
  }

  /// The folder holding `path` (`.` for a bare name).
  private static func directory(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}
