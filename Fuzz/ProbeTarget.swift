// The probe fuzz target (make fuzz): a server that lies, its every answer drawn from the input,
// and an image reference from the input, read by the one rule of where an image is.
//
// - Whatever the answers (any status, a Content-Range of any numbers or none, bodies of any
//   length, retries), a probe ends within ImageProber.mostRequests requests, retries included,
//   and ImageProber.mostBytes bytes read, and never traps.
// - ImageSource never sends a remote feed's reference to a file of this machine unless local
//   images are allowed; a file's path holds no NUL; a web image is http or https with a host.

import Dispatch
import Foundation
import Synchronization

@testable import FallsFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbe(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  checkSource(bytes)
  guard let first = bytes.first else { return 0 }
  let server = LyingServer(script: Array(bytes.dropFirst()))
  var policy = FetchPolicy(timeout: 5, retries: Int(first % 11))
  policy.userAgent = "falls/fuzz"
  let prober = ImageProber(
    fetcher: FeedFetcher(transport: server, policy: policy, sleep: { _ in }))
  let done = DispatchSemaphore(value: 0)
  let result = Mutex<ImageProbe?>(nil)
  Task {
    let probe = await prober.probe("http://lying.example/image", in: .currentFolder)
    result.withLock { $0 = probe }
    done.signal()
  }
  done.wait()
  guard let probe = result.withLock({ $0 }) else { fatalError("the probe gave nothing") }
  let requests = server.requests
  guard requests <= ImageProber.mostRequests else {
    fatalError("\(requests) requests for one image: \(probe)")
  }
  guard probe.bytesRead <= ImageProber.mostBytes, probe.bytesRead >= 0 else {
    fatalError("\(probe.bytesRead) bytes read of one image")
  }
  if case .header(let header) = probe.outcome, header.width <= 0 || header.height <= 0 {
    fatalError("a header of \(header)")
  }
  return 0
}

/// The input's first line read as an `img`, in a feed from each kind of place.
private func checkSource(_ bytes: [UInt8]) {
  let line = bytes.prefix { $0 != 0x0A }
  let reference = String(decoding: line, as: UTF8.self)
  let remote = FeedLocation.web(
    URL(string: "http://feeds.example/a/b.json") ?? URL(fileURLWithPath: "/"))
  for (location, allowing) in [
    (remote, false), (remote, true), (FeedLocation.file(path: "/srv/f.json"), false),
    (.currentFolder, false),
  ] {
    switch ImageSource(reference, in: location, allowingLocal: allowing) {
    case .file(let path):
      if location.isRemote, !allowing { fatalError("\(reference) read as the file \(path)") }
      if path.utf8.contains(0) { fatalError("a path with a NUL from \(reference)") }
    case .web(let url):
      let scheme = url.scheme?.lowercased()
      guard scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
        fatalError("\(reference) read as the web image \(url)")
      }
    case .data(let text):
      guard text.lowercased().hasPrefix("data:") else { fatalError("\(text) is no data: URL") }
    case .refused:
      break
    }
  }
}

/// Answers every request from its script: a status, a Content-Range and a body, each drawn from
/// the next bytes; when the script runs out, the same answers again from its start.
private final class LyingServer: HTTPTransport {
  private let script: [UInt8]
  private let state = Mutex((position: 0, requests: 0))

  init(script: [UInt8]) {
    self.script = script.isEmpty ? [0] : script
  }

  var requests: Int { state.withLock { $0.requests } }

  func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse
  {
    let asked = Self.askedStart(headers["Range"])
    return state.withLock { state in
      state.requests += 1
      func next() -> Int {
        defer { state.position = (state.position + 1) % script.count }
        return Int(script[state.position])
      }
      let kind = next()
      // A number near what was asked, or anywhere an Int or no Int reaches.
      func number() -> String {
        switch next() % 8 {
        case 0: String(asked)
        case 1: String(asked &+ next())
        case 2: String(max(0, asked - next()))
        case 3: String(Int.max - next())
        case 4: "9223372036854775808" + String(next())
        case 5: "-" + String(Int.max - next())
        case 6: "+" + String(next())
        default: String(next() << 12)
        }
      }
      let status = [206, 206, 206, 200, 416, 503, 404, 206][kind % 8]
      var fields: [String: String] = [:]
      switch next() % 5 {
      case 0: fields["Content-Range"] = "bytes \(number())-\(number())/\(number())"
      case 1: fields["Content-Range"] = "bytes \(number())-\(number())/*"
      case 2: fields["Content-Range"] = "bytes */\(number())"
      case 3: fields["Content-Range"] = "bytes \(asked)-\(asked &+ 4095)/\(1 << 20)"
      default: break
      }
      // The body: a length from the script, its bytes the script's.
      let length = min((next() << 8 | next()) % 70_000, maxBytes)
      var body = [UInt8]()
      body.reserveCapacity(length)
      for _ in 0..<length { body.append(UInt8(next())) }
      return HTTPResponse(status: status, headers: fields, body: Data(body))
    }
  }

  /// The first byte a `Range: bytes=A-B` asks for.
  private static func askedStart(_ range: String?) -> Int {
    guard let range, range.hasPrefix("bytes=") else { return 0 }
    return Int(range.dropFirst(6).prefix { $0 != "-" }) ?? 0
  }
}
