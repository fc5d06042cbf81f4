import CCurl
import FallsBase
import Foundation
import Synchronization

/// The real ``HTTPTransport``: libcurl's easy interface, loaded when the first transport is made,
/// each request on a thread of its own.
///
/// Every limit is enforced where the bytes arrive, in libcurl's callbacks on the request's own
/// thread, whatever else is in flight: the overall deadline (libcurl's own timer, over connecting
/// and every byte, so that a server that trickles a byte a second is cut off), the body limit (a
/// declared length past it is refused before the body; a body that grows past it, gzip included,
/// is stopped at the byte that crosses it), a body that is enough (the transfer ends there), the
/// headers' size, and cancellation. Redirects are followed here, each judged before it is
/// followed: only to http and https, at most ``mostRedirects`` of them, each `Location` resolved
/// against the URL that gave it (``URIReference``). HTTP error statuses are returned as answers.
/// Gzip, deflate and brotli bodies arrive decoded.
///
/// The easy handles are kept between requests with their open connections, so that a request to
/// a host already asked reuses its connection (keep-alive); waiting on a connection, new or
/// reused, costs no processor time.
public final class CurlTransport: HTTPTransport {
  private let pool: CurlPool

  /// The most redirects followed for one request, as browsers allow.
  public static let mostRedirects = 20
  /// The most bytes of header lines accepted in one answer.
  public static let mostHeaderBytes = 1 << 20

  /// Creates a transport; libcurl is loaded now, and a transport without it fails each request
  /// saying why.
  public init() {
    pool = CurlPool()
  }

  /// Fetches `url` once; see ``HTTPTransport/get(_:headers:timeout:maxBytes:)``.
  public func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse
  {
    try await fetch(url, headers: headers, timeout: timeout, limit: .refusing(maxBytes))
  }

  /// Fetches `url` once, ending the request once the body is enough; see
  /// ``HTTPTransport/get(_:headers:timeout:readingAtMost:until:)``.
  public func get(
    _ url: URL, headers: [String: String], timeout: Double, readingAtMost maxBytes: Int,
    until enough: @escaping @Sendable ([UInt8]) -> Bool
  ) async throws(TransportFailure) -> HTTPResponse {
    try await fetch(url, headers: headers, timeout: timeout, limit: .cutting(maxBytes, enough))
  }

  /// Follows `url`'s redirects, each judged first, within one deadline of `timeout` seconds.
  private func fetch(
    _ url: URL, headers: [String: String], timeout: Double, limit: CurlExchange.Limit
  ) async throws(TransportFailure) -> HTTPResponse {
    let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded(.up)))
    var current = url
    for _ in 0...Self.mostRedirects {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw .timedOut(seconds: timeout) }
      let milliseconds = max(
        1,
        Int(left.components.seconds) * 1000
          + Int(left.components.attoseconds / 1_000_000_000_000_000))
      let exchange = CurlExchange(limit: limit)
      var response = try await perform(
        current, headers: headers, milliseconds: milliseconds, timeout: timeout, exchange)
      response.url = current
      guard (300..<400).contains(response.status), response.status != 304,
        let location = response.headers["location"]
      else { return response }
      let target = URIReference(location).resolved(against: URIReference(current.absoluteString))
      guard target.scheme == "http" || target.scheme == "https" else {
        throw .refusedRedirect(to: location)
      }
      guard let next = URL(string: target.text) else {
        throw .other(detail: "a redirect to \(redactingCredentials(location)) is not a valid URL")
      }
      current = next
    }
    throw .tooManyRedirects
  }

  /// One request, no redirect followed, on a thread of its own.
  private func perform(
    _ url: URL, headers: [String: String], milliseconds: Int, timeout: Double,
    _ exchange: CurlExchange
  ) async throws(TransportFailure) -> HTTPResponse {
    let lines = headers.map { "\($0.key): \($0.value)" }.sorted()
    let pool = pool.shared
    let address = url.absoluteString
    let ended: CurlExchange.Ending = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let thread = Thread {
          continuation.resume(
            returning: exchange.run(
              address, headers: lines, milliseconds: milliseconds, in: pool))
        }
        thread.start()
      }
    } onCancel: {
      exchange.cancel()
    }
    return try exchange.response(after: ended, timeout: timeout)
  }
}

/// libcurl and its idle handles: loaded and made once a transport, freed with it.
private struct CurlPool: ~Copyable {
  /// The pool, or why libcurl could not be loaded.
  let shared: CurlPool.Shared

  /// The C pool's pointer, handed to request threads: its functions may be called from any
  /// thread at once (the pool has its own lock).
  struct Shared: @unchecked Sendable {
    let pointer: OpaquePointer?
    let reason: String
  }

  init() {
    var reason = [CChar](repeating: 0, count: 512)
    let pointer = reason.withUnsafeMutableBufferPointer {
      falls_curl_open($0.baseAddress, $0.count)
    }
    shared = Shared(
      pointer: pointer,
      reason: String(
        decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  deinit {
    falls_curl_close(shared.pointer)
  }
}

/// C strings that live as long as the value: header lines handed to libcurl.
private struct CStrings: ~Copyable {
  let pointers: [UnsafePointer<CChar>?]

  init(_ strings: [String]) {
    pointers = strings.map { UnsafePointer(strdup($0)) }
  }

  deinit {
    for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) }
  }
}

/// One request's state while libcurl runs it: what arrived, the limits, and why it ended early,
/// if it did. libcurl calls it from the request's thread; ``cancel()`` may come from any thread.
private final class CurlExchange: Sendable {
  /// How much of the body is read.
  enum Limit: Sendable {
    /// The whole body, refused past this many bytes.
    case refusing(Int)
    /// Up to this many bytes, or until the closure says what came is enough; then the request
    /// ends and what came is the answer.
    case cutting(Int, @Sendable ([UInt8]) -> Bool)
  }

  /// What libcurl said when the request ended.
  struct Ending: Sendable {
    var code: Int32
    var message: String
  }

  private struct State {
    var status = 0
    var headers: [String: String] = [:]
    var headerBytes = 0
    /// The Content-Length as written, when it is digits (it may be larger than any Int).
    var declaredLength: String?
    /// The body of an answer read whole.
    var body = Data()
    /// The body of an answer read in part: bytes that the closure that says whether they are
    /// enough can be handed without a copy.
    var part: [UInt8] = []
    /// Set when this side ended the transfer: the answer is what came.
    var isCut = false
    /// Set when this side refused the answer, to say why.
    var failure: TransportFailure?
  }

  private let limit: Limit
  private let state = Locked(State())
  private let isCancelled = Atomic(false)

  init(limit: Limit) {
    self.limit = limit
  }

  func cancel() {
    isCancelled.store(true, ordering: .relaxed)
  }

  /// Runs the request on this thread until it ends.
  func run(_ url: String, headers: [String], milliseconds: Int, in pool: CurlPool.Shared)
    -> Ending
  {
    guard let pointer = pool.pointer else {
      return Ending(code: -1, message: pool.reason)
    }
    let lines = CStrings(headers)
    var result = falls_curl_result()
    let context = Unmanaged.passUnretained(self).toOpaque()
    url.withCString { address in
      lines.pointers.withUnsafeBufferPointer { headerLines in
        var request = falls_curl_request(
          url: address, headers: headerLines.baseAddress, header_count: Int32(headerLines.count),
          timeout_ms: milliseconds,
          on_header: { bytes, count, context in
            guard let bytes, let context else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
            return exchange.header(UnsafeRawBufferPointer(start: bytes, count: count)) ? 1 : 0
          },
          on_body: { bytes, count, context in
            guard let bytes, let context else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
            return exchange.body(UnsafeRawBufferPointer(start: bytes, count: count)) ? 1 : 0
          },
          on_progress: { context in
            guard let context else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
            return exchange.isCancelled.load(ordering: .relaxed) ? 0 : 1
          },
          context: context)
        falls_curl_perform(pointer, &request, &result)
      }
    }
    let message = withUnsafeBytes(of: result.message) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return Ending(code: result.code, message: message)
  }

  /// Takes one header line; false ends the transfer.
  private func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let line = String(decoding: bytes, as: UTF8.self)
    return state.withLock { state in
      state.headerBytes += bytes.count
      guard state.headerBytes <= CurlTransport.mostHeaderBytes else {
        state.failure = .connectionLost(
          detail: "the answer's headers are larger than \(CurlTransport.mostHeaderBytes >> 20) MiB")
        return false
      }
      let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if trimmed.hasPrefix("HTTP/") {
        // A new answer (after a 100 Continue, say): what came before is forgotten.
        let words = trimmed.split(separator: " ", maxSplits: 2)
        state.status = words.count > 1 ? Int(words[1]) ?? 0 : 0
        (state.headers, state.declaredLength) = ([:], nil)
        return true
      }
      if trimmed.isEmpty { return checkDeclaredLength(&state) }
      guard let colon = trimmed.firstIndex(of: ":") else { return true }
      let name = trimmed[..<colon].lowercased()
      let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      state.headers[name] = value
      if name == "content-length" {
        state.declaredLength =
          value.utf8.allSatisfy { (0x30...0x39).contains($0) } && !value.isEmpty
          ? value : nil
      }
      return true
    }
  }

  /// At the end of the headers: a whole body declared longer than the limit is refused before
  /// it comes.
  private func checkDeclaredLength(_ state: inout State) -> Bool {
    guard case .refusing(let most) = limit, let declared = state.declaredLength,
      state.headers["content-encoding"] == nil, !Self.isRedirect(state)
    else { return true }
    if let length = Int(declared), length <= most { return true }
    state.failure = .bodyTooLarge(limit: most)
    return false
  }

  private static func isRedirect(_ state: State) -> Bool {
    (300..<400).contains(state.status) && state.status != 304 && state.headers["location"] != nil
  }

  /// The room made at once for a body read in part (an image's first MiB), so that it is not
  /// copied as it grows: the pages not written are never touched.
  private static let partCapacity = 1 << 20

  /// Takes a piece of the body; false ends the transfer.
  private func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !isCancelled.load(ordering: .relaxed) else { return false }
    return state.withLock { state in
      // A redirect's body is not wanted: the transfer ends, the redirect stands.
      if Self.isRedirect(state) {
        state.isCut = true
        return false
      }
      switch limit {
      case .refusing(let most):
        guard bytes.count <= most - state.body.count else {
          state.failure = .bodyTooLarge(limit: most)
          return false
        }
        state.body.append(contentsOf: bytes)
        return true
      case .cutting(let most, let enough):
        if state.part.isEmpty { state.part.reserveCapacity(min(most, Self.partCapacity)) }
        state.part.append(contentsOf: bytes.prefix(most - state.part.count))
        state.isCut = state.part.count >= most || enough(state.part)
        return !state.isCut
      }
    }
  }

  /// The answer, or why there is none, once libcurl has ended the request as `ending` says.
  func response(after ending: Ending, timeout: Double) throws(TransportFailure) -> HTTPResponse {
    let state = state.withLock { $0 }
    if let failure = state.failure { throw failure }
    let isOurs =
      ending.code == Int32(falls_curl_write_error) || ending.code == Int32(falls_curl_aborted)
    if isOurs, isCancelled.load(ordering: .relaxed), !state.isCut { throw .cancelled }
    guard ending.code == Int32(falls_curl_ok) || (isOurs && state.isCut) else {
      throw Self.failure(ending, timeout: timeout)
    }
    let body: Data =
      switch limit {
      case .refusing: state.body
      case .cutting: Data(state.part)
      }
    // libcurl holds a Content-Length below 2^63 to the body; a larger one it ignores, and no
    // body can be that long.
    if !state.isCut, let declared = state.declaredLength, Int(declared) == nil {
      throw .connectionLost(
        detail: "the body ended after \(body.count) bytes of the \(declared) its "
          + "Content-Length gives")
    }
    return HTTPResponse(
      status: state.status, headers: state.headers, body: body, isCut: state.isCut)
  }

  private static func failure(_ ending: Ending, timeout: Double) -> TransportFailure {
    let detail = ending.message
    switch ending.code {
    case Int32(falls_curl_cannot_connect): return .cannotConnect(detail: detail)
    case Int32(falls_curl_cannot_resolve_host), Int32(falls_curl_cannot_resolve_proxy):
      return .cannotResolve(detail: detail)
    case Int32(falls_curl_timed_out): return .timedOut(seconds: timeout)
    case Int32(falls_curl_partial_file), Int32(falls_curl_got_nothing),
      Int32(falls_curl_receive_error), Int32(falls_curl_send_error),
      Int32(falls_curl_weird_server_reply):
      return .connectionLost(detail: detail)
    case Int32(falls_curl_no_handle), -1: return .other(detail: detail)
    default: return .other(detail: "\(detail) (curl error \(ending.code))")
    }
  }
}
