import FallsBase
import Foundation

/// Fetches feeds over HTTP with an overall deadline per request, retries with exponential
/// backoff and jitter for transient failures (failed or lost connections, timeouts, 429, 5xx),
/// `Retry-After` honoured when it is no longer than the deadline, and every non-2xx answer
/// turned into an error. Other 4xx answers are not retried.
public struct FeedFetcher: Sendable {
  /// The network.
  public var transport: any HTTPTransport
  /// The limits.
  public var policy: FetchPolicy
  /// Waits between attempts; tests may replace it.
  public var sleep: @Sendable (Double) async -> Void
  /// The one deadline over every attempt and wait, if there is one: the run's
  /// (``FetchPolicy/maxTime``), or a shorter one of a part of it (one image's requests). No
  /// attempt and no wait goes past it.
  public var deadline: Deadline?

  /// An instant no request goes past, and what its passing is called.
  public struct Deadline: Hashable, Sendable {
    public var instant: ContinuousClock.Instant
    /// The failure of a fetch that meets it.
    public var cause: FetchError.Cause
    /// The seconds it gave, as the failure says them.
    public var seconds: Double

    /// A deadline `seconds` from `start` (now when `nil`), whose passing is `cause`.
    public init(
      seconds: Double, cause: FetchError.Cause, from start: ContinuousClock.Instant? = nil
    ) {
      instant = (start ?? .now) + .milliseconds(Int64((seconds * 1000).rounded(.up)))
      self.cause = cause
      self.seconds = seconds
    }
  }
  /// Told of each retry before its wait: the wait in seconds, what went wrong, and the number
  /// of the attempt to come (of `policy.retries + 1`).
  public var onRetry:
    @Sendable (_ wait: Double, _ cause: FetchError.Cause, _ attempt: Int) -> Void =
      { _, _, _ in }

  /// Creates a fetcher.
  public init(
    transport: any HTTPTransport = CurlTransport(), policy: FetchPolicy = FetchPolicy(),
    sleep: @escaping @Sendable (Double) async -> Void = { seconds in
      try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }
  ) {
    self.transport = transport
    self.policy = policy
    self.sleep = sleep
    deadline = policy.maxTime.map {
      Deadline(seconds: $0, cause: .maxTimeReached(seconds: $0), from: policy.start)
    }
  }

  /// This fetcher with a deadline `seconds` from now, whose passing is `cause`, unless its own
  /// comes first.
  public func within(seconds: Double, cause: FetchError.Cause) -> FeedFetcher {
    var bounded = self
    let part = Deadline(seconds: seconds, cause: cause)
    if deadline.map({ part.instant < $0.instant }) ?? true { bounded.deadline = part }
    return bounded
  }

  /// The seconds left before ``deadline``, or `nil` without one.
  private var remaining: Double? {
    deadline.map { deadline in
      let left = ContinuousClock.now.duration(to: deadline.instant).components
      return Double(left.seconds) + Double(left.attoseconds) * 1e-18
    }
  }

  /// Fetches the feed at `url`.
  ///
  /// - Returns: The body of a 2xx answer that starts like JSON, located at the URL that gave
  ///   it (after redirects), which its images' references are read against.
  /// - Throws: ``FetchError`` naming the URL and what happened on the last attempt.
  public func fetchFeed(_ url: URL) async throws(FetchError) -> FeedBytes {
    let response = try await fetch(url, request: .feed(policy))
    return FeedBytes(data: response.body, location: .web(response.url ?? url))
  }

  /// Fetches `url` as `request` asks, by the policy's deadlines and retries.
  ///
  /// - Returns: A 2xx answer (or one of the request's other answer statuses), its body cut
  ///   when the request said it was enough.
  /// - Throws: ``FetchError`` naming the URL and what happened on the last attempt.
  public func fetch(_ url: URL, request: FetchRequest) async throws(FetchError) -> HTTPResponse {
    var attempt = 0
    while true {
      if let remaining, remaining <= 0, let deadline {
        throw FetchError(url: url.absoluteString, cause: deadline.cause, attempts: attempt)
      }
      attempt += 1
      let cause: FetchError.Cause
      var wait: Double?
      switch await attemptOnce(url, request) {
      case .success(let response):
        return response
      case .failure(let final):
        throw FetchError(url: url.absoluteString, cause: final, attempts: attempt)
      case .retry(let transient, let retryAfter):
        cause = transient
        wait = retryAfter
      }
      guard attempt <= policy.retries else {
        throw FetchError(url: url.absoluteString, cause: cause, attempts: attempt)
      }
      let delay = wait ?? backoff(afterAttempt: attempt)
      if let remaining, let deadline, delay >= remaining {
        throw FetchError(url: url.absoluteString, cause: deadline.cause, attempts: attempt)
      }
      onRetry(delay, cause, attempt + 1)
      await sleep(delay)
    }
  }

  private enum Attempt {
    case success(HTTPResponse)
    case failure(FetchError.Cause)
    /// A transient failure; `after` is the server's Retry-After, if it gave one.
    case retry(FetchError.Cause, after: Double?)
  }

  private func attemptOnce(_ url: URL, _ request: FetchRequest) async -> Attempt {
    let headers = request.headers.merging(["User-Agent": policy.userAgent]) { $1 }
    // The attempt's own deadline, or what is left of the run's, whichever comes first.
    let left = remaining
    let timeout = min(policy.timeout, left ?? .infinity)
    let response: HTTPResponse
    do {
      if let enough = request.enough {
        response = try await transport.get(
          url, headers: headers, timeout: timeout, readingAtMost: request.maxBytes, until: enough)
      } else {
        response = try await transport.get(
          url, headers: headers, timeout: timeout, maxBytes: request.maxBytes)
      }
    } catch {
      if case .timedOut = error, let left, left <= policy.timeout, let deadline {
        return .failure(deadline.cause)
      }
      return error.isTransient ? .retry(.transport(error), after: nil) : .failure(.transport(error))
    }
    if (200..<300).contains(response.status) || request.answerStatuses.contains(response.status) {
      if request.expectsJSON, let problem = Self.notJSON(response) { return .failure(problem) }
      return .success(response)
    }
    let cause = FetchError.Cause.status(response.status, reason: Self.reason(response.status))
    guard response.status == 429 || (500..<600).contains(response.status) else {
      return .failure(cause)
    }
    guard let retryAfter = Self.retryAfter(response.headers) else {
      return .retry(cause, after: nil)
    }
    if retryAfter > policy.timeout {
      return .failure(.retryAfterTooLong(status: response.status, seconds: retryAfter))
    }
    return .retry(cause, after: retryAfter)
  }

  /// The delay before attempt `attempt + 1`: `backoff · 2^(attempt − 1)`, times a random
  /// factor in `0.5...1.5` so that many clients do not retry in step.
  public func backoff(afterAttempt attempt: Int) -> Double {
    let base = policy.backoff * Double(1 << min(attempt - 1, 20))
    return base * Double.random(in: 0.5...1.5)
  }

  /// The `Retry-After` header in seconds (its delay-seconds form), if present.
  static func retryAfter(_ headers: [String: String]) -> Double? {
    guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces),
      let seconds = Double(text), seconds.isFinite, seconds >= 0
    else { return nil }
    return seconds
  }

  /// Why a 2xx body is not a JSON feed, judged by its first non-space byte, or `nil`. A body
  /// of nothing but spaces is a stream of no values: an empty page, which ends the paging.
  static func notJSON(_ response: HTTPResponse) -> FetchError.Cause? {
    let first = response.body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    guard let first else { return nil }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return nil }
    let start = escapingControlCharacters(
      String(decoding: response.body.prefix(40), as: UTF8.self))
    return .notJSON(
      contentType: response.headers["content-type"],
      start: "\"\(start)\"")
  }

  /// The standard reason phrase of an HTTP status.
  public static func reason(_ status: Int) -> String {
    let phrases: [Int: String] = [
      400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
      405: "Method Not Allowed", 408: "Request Timeout", 410: "Gone", 429: "Too Many Requests",
      500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
      503: "Service Unavailable", 504: "Gateway Timeout",
      300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 304: "Not Modified",
    ]
    if let phrase = phrases[status] { return phrase }
    switch status {
    case 300..<400: return "Redirection"
    case 400..<500: return "Client Error"
    case 500..<600: return "Server Error"
    default: return "Unexpected Status"
    }
  }
}
