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

/// Why `--output FILE` could not be written.
enum OutputFileFailure: Error, Equatable {
  /// The file (or the temporary file beside it) could not be created, or renamed into place.
  case create(SystemError)
  case isDirectory
  /// The path is a symbolic link owned by someone other than the user and the owner of its
  /// folder, a sticky folder that anyone may write to (such as /tmp): another user may have put
  /// it there to redirect the output, so it is not followed (as Linux's protected_symlinks does
  /// for opening).
  case untrustedLink(owner: uid_t)
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
  /// Where `path` sends the output; `links` counts the symbolic links followed to it.
  static func target(for path: String, links: Int = 0) throws(OutputFileFailure) -> OutputTarget {
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
      var folder = stat()
      if stat(directory(of: path), &folder) == 0, folder.st_mode & S_ISVTX != 0,
        folder.st_mode & S_IWOTH != 0, status.st_uid != geteuid(), status.st_uid != folder.st_uid
      {
        throw .untrustedLink(owner: status.st_uid)
      }
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
      // The shell's > would not write a file the user may not write; neither does falls, though
      // it could replace it (its folder being writable).
      guard faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 else {
        throw .create(SystemError(code: errno))
      }
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
    // A file replaced keeps its owner and permissions; a new one gets 0666 less the umask, as `>`
    // does.
    var existing = stat()
    let kept = stat(path, &existing) == 0 ? existing : nil
    // Removed if SIGINT, SIGTERM or SIGHUP ends the process before it is renamed into place.
    let cleanup = InterruptCleanup(path: temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o666))
    guard descriptor >= 0 else { throw .create(SystemError(code: errno)) }
    var failure: OutputFileFailure?
    do throws(SystemError) {
      try body(FileDescriptorSink(descriptor: descriptor))
      if let kept {
        // Another user's file stays theirs where the system allows it (as root); otherwise it
        // becomes the user's, as with sed -i. The owner first: a change of owner clears the
        // set-user-ID bits that the mode then puts back.
        if kept.st_uid != geteuid() || kept.st_gid != getegid() {
          _ = fchown(descriptor, kept.st_uid, kept.st_gid)
        }
        if fchmod(descriptor, kept.st_mode & 0o7777) != 0 { throw SystemError(code: errno) }
      }
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
      cleanup.disarm()
      throw failure
    }
    cleanup.disarm()
  }

  /// The folder holding `path` (`.` for a bare name).
  private static func directory(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}

/// While it lives, SIGINT, SIGTERM and SIGHUP remove a temporary file before they end the
/// process, so that an interrupted `--output` leaves nothing behind; the process still ends by
/// the signal (status 128 + the signal in a shell), as it would have without it.
///
/// A signal ignored when falls started (SIGINT in a background job of a script) stays ignored.
/// One temporary file is guarded at a time.
private struct InterruptCleanup: ~Copyable {
  /// The path as a C string, for the handler; owned here, freed by `deinit`.
  private let path: UnsafeMutablePointer<CChar>?
  /// The signals whose handling this replaced, and how they were handled before.
  private var replaced: [(signal: Int32, action: sigaction)] = []

  init(path: String) {
    self.path = strdup(path)
    pendingTemporaryFile = self.path
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      var previous = sigaction()
      sigaction(signalNumber, nil, &previous)
      let ignore = unsafeBitCast(SIG_IGN, to: Int.self)
      guard unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) != ignore else {
        continue
      }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = removeTemporaryAndReraise
      sigemptyset(&action.sa_mask)
      sigaction(signalNumber, &action, nil)
      replaced.append((signalNumber, previous))
    }
  }

  /// Puts the signals back as they were and forgets the file (the file is then in place, or
  /// removed).
  consuming func disarm() {}

  deinit {
    for (signalNumber, action) in replaced {
      var previous = action
      sigaction(signalNumber, &previous, nil)
    }
    pendingTemporaryFile = nil
    free(path)
  }
}

/// The temporary file the handler removes; set while an ``InterruptCleanup`` lives.
nonisolated(unsafe) private var pendingTemporaryFile: UnsafeMutablePointer<CChar>?

/// Removes the pending temporary file, then ends the process by the same signal.
private func removeTemporaryAndReraise(_ signalNumber: Int32) {
  if let path = pendingTemporaryFile { unlink(path) }
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}
