import FallsBase
import FallsMemory

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal `falls view` draws on: raw mode on the terminal it reads keys from (standard
/// input, or `/dev/tty` when standard input holds a feed), the alternate screen on standard
/// output, both restored by ``restore()``, at exit, and on SIGTERM, SIGINT or SIGHUP (from a
/// signal handler, with async-signal-safe calls only).
public final class Terminal {
  /// The descriptor keys are read from.
  public let keys: Int32
  /// Whether ``keys`` was opened here (`/dev/tty`), and is closed with the terminal.
  private let ownsKeys: Bool
  /// The mode to put back, in memory that the terminal owns: a signal handler reaches it
  /// through `modeToRestore` while the terminal is raw. (A global `termios` of its own would be
  /// simpler, but the compiler emits such a global a few bytes short of the struct, and every
  /// store into it writes past its end.)
  private let savedMode = OwnedMemory(repeating: termios(), count: 1)
  private var saved: UnsafeMutablePointer<termios> { savedMode.pointer }
  private var isRaw = false

  /// Whether standard input and standard output are both terminals.
  public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// A terminal reading keys from standard input.
  public init() {
    keys = 0
    ownsKeys = false
  }

  /// A terminal reading keys from the process's controlling terminal, `/dev/tty`, as `less` and
  /// `fzf` do when standard input holds what they show; `nil` when there is none.
  public init?(controlling: Void) {
    let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    guard isatty(descriptor) == 1 else {
      close(descriptor)
      return nil
    }
    keys = descriptor
    ownsKeys = true
  }

  /// The size of the terminal on standard output, if it has one.
  public static func size() -> TerminalSize? {
    var window = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
      return nil
    }
    return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
  }

  /// Switches to raw mode and the alternate screen, hiding the cursor.
  ///
  /// - Throws: The `errno` of a failed `tcgetattr` or `tcsetattr`.
  public func enter() throws(TerminalError) {
    guard !isRaw else { return }
    guard tcgetattr(keys, saved) == 0 else { throw TerminalError(code: errno) }
    var raw = saved.pointee
    cfmakeraw(&raw)
    // Keep output processing, so that "\n" still returns to the first column.
    raw.c_oflag |= tcflag_t(OPOST)
    guard tcsetattr(keys, TCSAFLUSH, &raw) == 0 else { throw TerminalError(code: errno) }
    isRaw = true
    installRestoreHandlers(saved, keys: keys)
    write(ANSI.alternateScreen + ANSI.hideCursor)
  }

  /// Leaves the alternate screen, shows the cursor and restores the saved mode.
  public func restore() {
    guard isRaw else { return }
    write(ANSI.reset + ANSI.showCursor + ANSI.mainScreen)
    _ = tcsetattr(keys, TCSAFLUSH, saved)
    isRaw = false
    uninstallRestoreHandlers()
  }

  deinit {
    restore()
    if ownsKeys { close(keys) }
  }

  /// Writes `text` to standard output whole.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(1, base + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}

/// The saved mode of the terminal that is raw, for the signal handler; `nil` when none is. It
/// points into the ``Terminal``'s own memory, and is cleared (and the handlers uninstalled)
/// before that memory is freed.
nonisolated(unsafe) private var modeToRestore: UnsafeMutablePointer<termios>?
/// The descriptor whose mode the handler puts back.
nonisolated(unsafe) private var keysToRestore: Int32 = 0

private func installRestoreHandlers(_ mode: UnsafeMutablePointer<termios>, keys: Int32) {
  keysToRestore = keys
  modeToRestore = mode
  for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
    signal(signalNumber, restoreAndExit)
  }
}

private func uninstallRestoreHandlers() {
  for signalNumber in [SIGTERM, SIGINT, SIGHUP] { signal(signalNumber, SIG_DFL) }
  modeToRestore = nil
}

/// The handler of SIGTERM, SIGINT and SIGHUP while the terminal is raw: put it back and exit
/// with 128 + the signal, as the signal itself would have.
private func restoreAndExit(_ signalNumber: Int32) {
  if let mode = modeToRestore {
    let sequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    _ = Glibc.write(1, sequence.utf8Start, sequence.utf8CodeUnitCount)
    _ = tcsetattr(keysToRestore, TCSAFLUSH, mode)
  }
  _exit(128 + signalNumber)
}
