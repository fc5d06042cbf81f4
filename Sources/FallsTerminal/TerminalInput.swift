#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
