import CFileSystem
import FallsBase
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads feed bytes from a file descriptor or a path, within a size limit, with the system's
/// reason on failure.
public enum FeedReader {
  /// The bytes of the file at `path`, at most `maxBytes` of them.
  ///
  /// A regular file is read whatever its size unless `limitsRegularFile` (its size is known, and
  /// it can be neither endless nor a bomb); with it, one larger than `maxBytes` is refused before
  /// anything is read. A large regular file (1 MiB or more) is mapped into memory rather than
  /// copied: its pages are read as they are touched, and the decoder gives back those it has
  /// read. Should the file be cut short while it is mapped, the pages past its new end read as
  /// zeros instead of ending the process with SIGBUS, and ``FeedDecoder`` reports that the file
  /// changed. Anything else (a pipe, a device, standard input) is read until its end or until it
  /// gives more than `maxBytes`, whichever comes first.
  ///
  /// A FIFO blocks until a writer opens it, as `cat` does; with `writerTimeout`, no writer
  /// within that many seconds is an error.
  ///
  /// - Throws: ``FeedError/unreadable(path:reason:)`` when the file cannot be opened or read, or
  ///   is a directory; ``FeedError/tooLarge(path:limit:)`` past `maxBytes`.
  public static func load(
    path: String, maxBytes: Int = .max, limitsRegularFile: Bool = true,
    writerTimeout: Double? = nil
  ) throws(FeedError) -> FeedBytes {
    var status = stat()
    let isFIFO = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    let descriptor =
      isFIFO && writerTimeout != nil
      ? try openFIFO(path, timeout: writerTimeout ?? 0)
      : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: SystemError.last.message) }
    defer { close(descriptor) }
    return try load(
      descriptor: descriptor, path: path, maxBytes: maxBytes,
      limitsRegularFile: limitsRegularFile)
  }

  /// The bytes of the open `descriptor` (standard input, say) from where it stands, by the
  /// rules of ``load(path:maxBytes:limitsRegularFile:writerTimeout:)``; `path` names it in
  /// messages (`-` for standard input). The descriptor stays open.
  ///
  /// - Throws: ``FeedError/unreadable(path:reason:)`` or ``FeedError/tooLarge(path:limit:)``.
  public static func load(
    descriptor: Int32, path: String, maxBytes: Int, limitsRegularFile: Bool
  ) throws(FeedError) -> FeedBytes {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path: path, reason: SystemError.last.message)
    }
    var limit = maxBytes
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      throw .unreadable(path: path, reason: "it is a directory")
    case S_IFREG:
      // A file of /proc or /sys is no feed: its length says nothing of what it gives, which
      // may never end (/proc/self/pagemap) or never come (/proc/kmsg).
      if let system = pseudoFileSystem(descriptor) {
        throw .unreadable(
          path: path, reason: "it is a file of \(system), a view of the system, not a feed file")
      }
      // What is left from where the descriptor stands (standard input may be part read).
      let start = lseek(descriptor, 0, SEEK_CUR)
      let size = Int(status.st_size) - max(Int(start), 0)
      // A file that says it is empty is read as a stream is, held to the limit: what it gives,
      // if anything, is not what its length says.
      guard size > 0 else { break }
      if limitsRegularFile {
        guard size <= maxBytes else { throw .tooLarge(path: path, limit: maxBytes) }
      } else {
        limit = .max
      }
      if start == 0, size >= 1 << 20,
        let mapping = FileMapping(descriptor: descriptor, count: size, path: path)
      {
        return FeedBytes(mapping: mapping)
      }
    default:
      break
    }
    do {
      guard let data = try readAll(descriptor, maxBytes: limit) else {
        throw FeedError.tooLarge(path: path, limit: limit)
      }
      return FeedBytes(data: data)
    } catch let error as FeedError {
      throw error
    } catch {
      throw .unreadable(
        path: path, reason: ((error as? SystemError) ?? SystemError(code: EIO)).message)
    }
  }

  /// Opens a FIFO for reading, waiting at most `timeout` seconds for a writer.
  private static func openFIFO(_ path: String, timeout: Double) throws(FeedError) -> Int32 {
    // Opened without blocking, the FIFO becomes readable (or hung up) once a writer arrives.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: SystemError.last.message) }
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else {
        close(descriptor)
        throw .unreadable(
          path: path,
          reason: "no writer opened the FIFO within \(formatSeconds(timeout)) s (--timeout)")
      }
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
      let result = poll(&ready, 1, milliseconds)
      if result < 0, errno != EINTR {
        let code = errno
        close(descriptor)
        throw .unreadable(path: path, reason: SystemError(code: code).message)
      }
      if result > 0 { break }
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return descriptor
  }

  /// The name of the pseudo file system the open `descriptor` is on, if it is on one.
  static func pseudoFileSystem(_ descriptor: Int32) -> String? {
    // linux/magic.h
    switch falls_file_system_type(descriptor) {
    case 0x9fa0: return "/proc"
    case 0x6265_6572: return "/sys"
    case 0x6462_6720: return "debugfs"
    case 0x7363_6673: return "securityfs"
    case 0x0027_e0eb, 0x6367_7270: return "cgroup"
    case 0x7472_6163: return "tracefs"
    default: return nil
    }
  }
}
