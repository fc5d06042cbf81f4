import FallsBase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// A key the viewer reacts to, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
  case character(Character)
  case up, down, pageUp, pageDown, home, end
  /// Ctrl-C: in raw mode it arrives as a byte, not as SIGINT.
  case interrupt
}

/// Turns the bytes read from a terminal into keys: printable characters, Ctrl-C, and the escape
/// sequences of the arrow, page and home/end keys (`ESC [ A`, `ESC [ 5 ~`, `ESC O H`, …).
/// Bytes of sequences it does not know are dropped whole.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// The keys completed by `bytes`; an incomplete escape sequence waits for more.
  public mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    while let first = pending.first {
      if first == 0x1B {
        guard pending.count >= 2 else { break }
        guard pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") else {
          // A lone escape followed by something else: drop the escape.
          pending.removeFirst()
          continue
        }
        // A sequence ends at its first byte in 0x40…0x7E after the introducer.
        guard let end = pending.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) })
        else { break }
        let body = String(decoding: pending[2..<end], as: UTF8.self)
        switch (body, pending[end]) {
        case ("", UInt8(ascii: "A")): keys.append(.up)
        case ("", UInt8(ascii: "B")): keys.append(.down)
        case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")):
          keys.append(.home)
        case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")):
          keys.append(.end)
        case ("5", UInt8(ascii: "~")): keys.append(.pageUp)
        case ("6", UInt8(ascii: "~")): keys.append(.pageDown)
        default: break
        }
        pending.removeFirst(end + 1)
        continue
      }
      pending.removeFirst()
      if first == 0x03 {
        keys.append(.interrupt)
      } else if first == 0x0D || first == 0x0A {
        keys.append(.character("\n"))
      } else if (0x20..<0x7F).contains(first) {
        keys.append(.character(Character(Unicode.Scalar(first))))
      }
    }
    return keys
  }
}

/// The escape sequences the viewer writes.
public enum ANSI {
  public static let alternateScreen = "\u{1B}[?1049h"
  public static let mainScreen = "\u{1B}[?1049l"
  public static let hideCursor = "\u{1B}[?25l"
  public static let showCursor = "\u{1B}[?25h"
  public static let home = "\u{1B}[H"
  public static let clearLine = "\u{1B}[K"
  public static let inverse = "\u{1B}[7m"
  public static let reset = "\u{1B}[0m"

  /// Moves the cursor to `row`, `column` (from 1).
  public static func move(row: Int, column: Int) -> String { "\u{1B}[\(row);\(column)H" }
}

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

/// A failed terminal call's `errno`.
public struct TerminalError: Error, Hashable, Sendable {
  public var code: Int32
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

/// What ended a wait for input.
public enum TerminalInput: Sendable {
  /// Bytes typed.
  case bytes([UInt8])
  /// The terminal changed size (SIGWINCH).
  case resized
  /// Standard input ended or failed.
  case closed
  /// The time given to wait passed without input.
  case timedOut
}

/// Written by the SIGWINCH handler, read by ``Terminal/nextInput()``: a self-pipe, so that a
/// resize wakes the wait for keys.
nonisolated(unsafe) private var resizePipe: (read: Int32, write: Int32) = (-1, -1)

private func noteResize(_ signalNumber: Int32) {
  var byte: UInt8 = 1
  _ = Glibc.write(resizePipe.write, &byte, 1)
}

extension Terminal {
  /// Starts reporting resizes through ``nextInput()``.
  public func watchResizes() {
    guard resizePipe.read < 0 else { return }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    resizePipe = (ends[0], ends[1])
    _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    signal(SIGWINCH, noteResize)
  }

  /// Waits for keys or a resize, for at most `milliseconds` when given.
  public func nextInput(waitingAtMost milliseconds: Int32? = nil) -> TerminalInput {
    var watched = [
      pollfd(fd: keys, events: Int16(POLLIN), revents: 0),
      pollfd(fd: resizePipe.read, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let ready = poll(&watched, resizePipe.read >= 0 ? 2 : 1, milliseconds ?? -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .closed
      }
      if ready == 0 { return .timedOut }
      if watched[1].revents & Int16(POLLIN) != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        _ = read(resizePipe.read, &drained, drained.count)
        return .resized
      }
      if watched[0].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(keys, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return .closed }
        return .bytes(Array(buffer[..<count]))
      }
    }
  }
}
