import FallsFixtures
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The fault-injecting finderlist server of `Tests/Server/feed_server.py`, running in its own
/// python3 process on 127.0.0.1 at an ephemeral port, for one test.
///
/// The server stops when this object is released (its standard input closes) or on `stop()`.
///
/// `@unchecked Sendable`: Process and Pipe are not Sendable; every property is a constant, and
/// `stop()` closes the pipe and ends the process, each of which may be done from any thread.
public final class TestServer: @unchecked Sendable {
  /// The server's port on 127.0.0.1.
  public let port: Int
  private let process: Process
  private let input: Pipe

  public struct StartFailure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Starts a server and waits until it listens, on a thread of its own: a test that blocked
  /// one of Swift's cooperative threads (one per core) while python starts would hold up every
  /// other test's tasks, and their deadlines with them.
  public convenience init() async throws {
    let launched = try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try Self.start() }) }.start()
    }
    self.init(process: launched.process, input: launched.input, port: launched.port)
  }

  private init(process: Process, input: Pipe, port: Int) {
    self.process = process
    self.input = input
    self.port = port
  }

  /// Starts the server's process and reads its port.
  private static func start() throws -> (process: Process, input: Pipe, port: Int) {
    let script = Fixtures.directory.deletingLastPathComponent()
      .appendingPathComponent("Server/feed_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, Fixtures.directory.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try launch(process)
    // The first line is "PORT <n>", awaited for at most 30 s. It is read with read(2), which
    // a signal may interrupt: FileHandle.availableData stops the process on EINTR, and the
    // SIGCHLD of another test's server ending arrives at any time.
    var line = Data()
    let descriptor = output.fileHandleForReading.fileDescriptor
    let deadline = ContinuousClock.now + .seconds(30)
    while !line.contains(UInt8(ascii: "\n")), ContinuousClock.now < deadline {
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 1000) >= 0 || errno == EINTR else { break }
      guard ready.revents != 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 256)
      let count = read(descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      line.append(contentsOf: chunk[..<count])
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
      process.terminate()
      throw StartFailure(description: "the test server did not start: \(text)")
    }
    return (process, input, port)
  }

  deinit {
    stop()
  }

  /// The server's address with `path`, such as `http://127.0.0.1:41234/feed/mj-shop-1.json`.
  public func url(_ path: String) -> String {
    "http://127.0.0.1:\(port)\(path)"
  }

  /// The requests the server has seen, one JSON object per line.
  public func log() throws -> [[String: String]] {
    let data = try loopbackBody(port: port, path: "/log")
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
    }
  }

  /// Stops the server.
  public func stop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }
}

/// A port on 127.0.0.1 where nothing listens: bound, never listened on and never closed, so that
/// a connection to it is refused for as long as the tests run and no server of another test can
/// be given it (a port bound and closed again could be).
public func refusedPort() -> Int { reservedRefusedPort }

private let reservedRefusedPort: Int = {
  // Close-on-exec: the programs the tests start have no need of it.
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
      bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
    }
  }
  precondition(bound, "no port on 127.0.0.1 could be bound: \(errno)")
  return Int(UInt16(bigEndian: address.sin_port))
}()

/// The body of `GET path` from the server on 127.0.0.1 at `port`, read over a socket of its own
/// (HTTP/1.0, so that the server closes the connection at the end of the body): independent of
/// falls's transport, which the tests test.
public func loopbackBody(port: Int, path: String) throws -> Data {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw Failure(description: "no socket") }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = UInt16(port).bigEndian
  let connected = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
  guard connected else { throw Failure(description: "cannot connect to port \(port)") }
  let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
  guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count
  else { throw Failure(description: "cannot send to port \(port)") }
  var answer = [UInt8]()
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else { break }
    answer += chunk[..<count]
  }
  let separator = Array("\r\n\r\n".utf8)
  guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else {
    throw Failure(description: "no HTTP answer from port \(port)")
  }
  return Data(answer[(end + separator.count)...])
}
