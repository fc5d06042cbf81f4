import FallsBase
import Foundation

/// Why a feed could not be fetched: the request, what happened, after how many attempts.
public struct FetchError: Error, Hashable, Sendable {
  /// What went wrong with the last attempt.
  public enum Cause: Hashable, Sendable {
    /// No complete answer arrived.
    case transport(TransportFailure)
    /// The server answered with a status other than 2xx; `reason` is the standard phrase.
    case status(Int, reason: String)
    /// The server answered 429 or 5xx and asked for a wait longer than the deadline allows.
    case retryAfterTooLong(status: Int, seconds: Double)
    /// The body is not JSON; `contentType` and `start` describe what it is instead.
    case notJSON(contentType: String?, start: String)
    /// The body looks like JSON but breaks its grammar; `detail` says where.
    case invalidJSON(detail: String)
    /// The run's one deadline (``FetchPolicy/maxTime``) passed before an answer came.
    case maxTimeReached(seconds: Double)
    /// One image's requests together took longer than its deadline.
    case imageTimeReached(seconds: Double)

    /// What happened, for a person: "HTTP 503 Service Unavailable".
    public var description: String {
      switch self {
      case .transport(let failure): failure.description
      case .status(let code, let reason): "HTTP \(code) \(reason)"
      case .retryAfterTooLong(let status, let seconds):
        "HTTP \(status) \(FeedFetcher.reason(status)), and the server asks to wait "
          + "\(formatSeconds(seconds)) s, longer than the --timeout"
      case .notJSON(let contentType, let start):
        "the answer is not JSON (\(contentType ?? "no Content-Type"), starting \(start))"
      case .invalidJSON(let detail): "the answer is not valid JSON (\(detail))"
      case .maxTimeReached(let seconds):
        "--max-time \(formatSeconds(seconds)) s passed before an answer came"
      case .imageTimeReached(let seconds):
        "no header within \(formatSeconds(seconds)) s, the --timeout of one image's requests"
      }
    }
  }

  /// The URL that was requested.
  public var url: String
  /// What went wrong.
  public var cause: Cause
  /// How many requests were made.
  public var attempts: Int

  /// Creates an error.
  public init(url: String, cause: Cause, attempts: Int) {
    self.url = url
    self.cause = cause
    self.attempts = attempts
  }

  /// One line for a person: the URL, what happened and what was expected.
  public var message: String {
    let tries = attempts > 1 ? " after \(attempts) attempts" : ""
    let shown = shownInMessage(redactingCredentials(url))
    return "GET \(shown): \(shownInMessage(cause.description))\(tries); "
      + "expected a 2xx answer with a finderlist JSON feed"
  }
}
