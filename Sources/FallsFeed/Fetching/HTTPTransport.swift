import FallsBase
import Foundation

/// One HTTP answer, whole: status, headers and the body as delivered (decompressed).
public struct HTTPResponse: Sendable {
  /// The status code, such as 200.
  public var status: Int
  /// The header fields, keys in lower case.
  public var headers: [String: String]
  /// The body.
  public var body: Data
  /// Whether the body was cut short on purpose: the caller had what it needed, or the most it
  /// would read (``HTTPTransport/get(_:headers:timeout:readingAtMost:until:)``).
  public var isCut: Bool
  /// The URL that gave the answer, after any redirects, when the transport tells it: what
  /// relative references in the body are read against.
  public var url: URL?

  /// Creates a response.
  public init(
    status: Int, headers: [String: String] = [:], body: Data = Data(), isCut: Bool = false,
    url: URL? = nil
  ) {
    self.url = url
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
    self.body = body
    self.isCut = isCut
  }
}

/// Why an HTTP request got no complete answer.
public enum TransportFailure: Error, Hashable, Sendable {
  /// No connection could be made: refused, or the host is unreachable; `detail` is the system's
  /// text.
  case cannotConnect(detail: String)
  /// The host name could not be resolved; `detail` is the system's text.
  case cannotResolve(detail: String)
  /// The overall deadline passed before the answer was complete.
  case timedOut(seconds: Double)
  /// The connection was reset or closed before the body was complete.
  case connectionLost(detail: String)
  /// The server redirected too many times, or in a circle.
  case tooManyRedirects
  /// The body grew past the limit.
  case bodyTooLarge(limit: Int)
  /// The server redirected to a URL that is not http or https (`file:`, `data:`, …), which is
  /// never followed.
  case refusedRedirect(to: String)
  /// The caller cancelled the request.
  case cancelled
  /// Anything else; `detail` is the system's text.
  case other(detail: String)

  /// Whether trying again may help: failed and lost connections and timeouts.
  public var isTransient: Bool {
    switch self {
    case .cannotConnect, .timedOut, .connectionLost: true
    case .cannotResolve, .tooManyRedirects, .bodyTooLarge, .refusedRedirect, .cancelled, .other:
      false
    }
  }

  /// What happened, for a person.
  public var description: String {
    switch self {
    case .cannotConnect(let detail): "cannot connect (\(detail))"
    case .cannotResolve(let detail): "cannot resolve the host (\(detail))"
    case .timedOut(let seconds): "no complete answer within \(formatSeconds(seconds)) s"
    case .connectionLost(let detail): "the connection broke off (\(detail))"
    case .tooManyRedirects: "too many redirects (a redirect loop)"
    case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
    case .refusedRedirect(let location):
      "a redirect to \(redactingCredentials(location)) was refused: only http and https redirects "
        + "are followed"
    case .cancelled: "the request was cancelled"
    case .other(let detail): detail
    }
  }
}

/// Seconds as a person writes them: `15`, `0.5`.
func formatSeconds(_ seconds: Double) -> String {
  seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}

/// Performs one GET request. The seam between fetching policy (retries, statuses) and the
/// network: tests of the policy inject answers, integration tests use ``CurlTransport``
/// against a real server.
public protocol HTTPTransport: Sendable {
  /// Fetches `url` once, following redirects.
  ///
  /// - Parameters:
  ///   - url: The resource.
  ///   - headers: Header fields added to the request.
  ///   - timeout: The overall deadline for the whole answer, in seconds.
  ///   - maxBytes: The largest body accepted; a larger one fails with `.bodyTooLarge`.
  /// - Returns: The answer, whatever its status: an HTTP error status is an answer.
  /// - Throws: ``TransportFailure`` when no complete answer arrived.
  func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse

  /// Fetches `url` once, reading its body only until `enough` says what has come is enough,
  /// or until `maxBytes` have come: then the request ends, and the answer holds what came,
  /// marked ``HTTPResponse/isCut``. A server that sends a whole image when asked for its first
  /// bytes is read no further than its header.
  func get(
    _ url: URL, headers: [String: String], timeout: Double, readingAtMost maxBytes: Int,
    until enough: @escaping @Sendable ([UInt8]) -> Bool
  ) async throws(TransportFailure) -> HTTPResponse
}

extension HTTPTransport {
  /// The whole answer, cut at `maxBytes` after the fact: for transports that cannot stop a
  /// body early (those of tests).
  public func get(
    _ url: URL, headers: [String: String], timeout: Double, readingAtMost maxBytes: Int,
    until enough: @escaping @Sendable ([UInt8]) -> Bool
  ) async throws(TransportFailure) -> HTTPResponse {
    var response = try await get(url, headers: headers, timeout: timeout, maxBytes: .max)
    if response.body.count > maxBytes {
      response.body = response.body.prefix(maxBytes)
      response.isCut = true
    }
    return response
  }
}
