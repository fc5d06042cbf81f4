import FallsBase
import FallsFixtures
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The built `falls` executable, next to the test bundle in the build directory (the sanitized
/// one when the tests are built with `--sanitize`).
public let fallsBinary: URL = {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("falls"),
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("falls"),
    Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(".build/debug/falls"),
  ]
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    ?? candidates[2]
}()

/// What a command run by ``shell(_:capture:timeout:)`` did.
public struct ShellRun {
  /// The exit status; 124 when the command ran out of time and was killed.
  public var status: Int32
  public var output: Data
  public var error: String

  /// Standard output as UTF-8.
  public var text: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `command` with `/bin/sh -c`, with `FALLS` set to the binary's path, and kills it (with
/// everything it started) after `timeout` seconds: no test waits without a bound.
///
/// Without `capture`, the command runs in bash with its streams on /dev/null and every other
/// inherited descriptor closed first: a daemon it starts (a tmux server) would otherwise keep
/// Foundation's descriptors open, and waiting for the command would wait for the daemon.
///
/// The wait happens on a thread of its own. Tests run on Swift's cooperative pool, one thread
/// per core: a test that blocked one of them for a command's whole run would starve every other
/// test's tasks (on 2 cores under a sanitizer, a 1.2 s deadline was seen to be awaited for 60 s).
public func shell(_ command: String, capture: Bool = true, timeout: Int = 120) async throws
  -> ShellRun
{
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      continuation.resume(
        with: Result { try shell(command, capture: capture, timeout: timeout) as ShellRun })
    }.start()
  }
}

/// ``shell(_:capture:timeout:)`` blocking the calling thread, for the few places that cannot
/// wait (a `defer` that stops a tmux server).
public func shell(_ command: String, capture: Bool = true, timeout: Int = 120) throws -> ShellRun {
  let process = Process()
  var environment = ProcessInfo.processInfo.environment
  environment["FALLS"] = fallsBinary.path
  process.environment = environment
  // timeout(1) runs the command in a process group of its own and signals the whole group.
  process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
  guard capture else {
    let closeInherited =
      #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; "#
    process.arguments = ["-k", "5", String(timeout), "/bin/bash", "-c", closeInherited + command]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try launch(process)
    process.waitUntilExit()
    return ShellRun(status: process.terminationStatus, output: Data(), error: "")
  }
  process.arguments = ["-k", "5", String(timeout), "/bin/sh", "-c", command]
  let output = Pipe()
  let error = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = error
  try launch(process)
  // Both pipes are read at once, so that a command filling one never waits on the other.
  let errorData = LockedData()
  let errorDone = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    errorData.value = error.fileHandleForReading.readDataToEndOfFile()
    errorDone.signal()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  errorDone.wait()
  process.waitUntilExit()
  return ShellRun(
    status: process.terminationStatus, output: outputData,
    error: String(decoding: errorData.value, as: UTF8.self))
}

private final class LockedData: Sendable {
  private let data = Locked(Data())
  var value: Data {
    get { data.withLock { $0 } }
    set { data.withLock { $0 = newValue } }
  }
}

/// Starts `process` while no other test starts one.
///
/// Foundation's Process on Linux gives each child one end of a socket pair, whose closing at the
/// child's exit is how it learns that the child ended, and closes a new child's other
/// descriptors only up to the highest open when it began: a child started at the same moment on
/// another thread can inherit another's end, and a long-lived one (a test server) then hides
/// that child's exit for good (its `waitUntilExit` never returns).
public func launch(_ process: Process) throws {
  try launching.withLock { try process.run() }
}

private let launching = NSLock()

/// Quotes `text` for a POSIX shell.
public func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// What ``measuredRun(_:timeout:)`` saw of one run of `falls`.
public struct MeasuredRun {
  public var status: Int32
  public var error: String
  /// The largest resident set of the process, in bytes.
  public var peakBytes: Int
  /// The processor time the process took, user and system, in seconds.
  public var processorSeconds: Double
  /// How long it ran, in seconds.
  public var seconds: Double
}

/// Runs the `falls` binary with `arguments` (standard output to /dev/null, or to `output`) and
/// measures its peak resident memory, as the kernel counts it for a child (`ru_maxrss`).
public func measuredRun(
  _ arguments: [String], input: String? = nil, timeout: Int = 300
) async throws -> MeasuredRun {
  // python3 waits for falls alone, so its children's maximum is falls's.
  let script = """
    import resource, subprocess, sys, time
    stdin = open(sys.argv[1], 'rb') if sys.argv[1] != '' else subprocess.DEVNULL
    start = time.monotonic()
    run = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    seconds = time.monotonic() - start
    sys.stderr.buffer.write(run.stderr)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(run.returncode, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, seconds)
    """
  let command =
    (["python3", "-c", script, input ?? "", fallsBinary.path] + arguments).map(shellQuoted)
    .joined(separator: " ")
  let run = try await shell(command, timeout: timeout)
  let fields = run.text.split(separator: " ").map {
    Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }
  guard fields.count == 4 else {
    return MeasuredRun(
      status: run.status, error: run.error, peakBytes: -1, processorSeconds: -1, seconds: -1)
  }
  return MeasuredRun(
    status: Int32(fields[0]), error: run.error, peakBytes: Int(fields[1]) * 1024,
    processorSeconds: fields[2], seconds: fields[3])
}

/// Whether the tests run under a sanitizer (`.ci/run` sets `FALLS_SANITIZER`), whose
/// allocator's overhead makes a process's memory no measure of its own.
public let isSanitized = ProcessInfo.processInfo.environment["FALLS_SANITIZER"] != nil
