import FallsBase
import FallsCore
import Foundation

/// How a feed is fetched: deadline, retries, size limit and identity.
public struct FetchPolicy: Hashable, Sendable {
  /// The overall deadline of one request, in seconds, enforced by falls itself; 15 by default.
  public var timeout: Double
  /// How many times a transient failure is tried again; 2 by default.
  public var retries: Int
  /// The largest body accepted, in bytes; 64 MiB by default.
  public var maxBytes: Int
  /// The first backoff delay in seconds; each retry doubles it, with jitter of ±50%.
  public var backoff: Double
  /// The `User-Agent` header.
  public var userAgent: String
  /// One deadline, in seconds, over every attempt and every page of a run, as curl's
  /// `--max-time`; `nil` for none.
  public var maxTime: Double?
  /// When the run began, which ``maxTime`` counts from: every fetcher of the run made with this
  /// policy shares the one deadline. `nil` counts from when a fetcher is made.
  public var start: ContinuousClock.Instant?

  /// The deadlines a policy takes, ``timeout`` and ``maxTime``, in seconds: above 0, at most a
  /// day.
  public static let deadlines = ValueRange(above: 0, atMost: 86_400)

  /// The retries a policy takes: 0 to 10.
  public static let retryCounts = 0...10

  /// The body limits a policy takes, in bytes: 1 to 1 TiB.
  public static let byteLimits = 1...(1 << 40)

  /// Creates a policy; every argument has a default.
  public init(
    timeout: Double = 15, retries: Int = 2, maxBytes: Int = 64 << 20, backoff: Double = 0.5,
    userAgent: String = "falls", maxTime: Double? = nil
  ) {
    self.maxTime = maxTime
    self.timeout = timeout
    self.retries = retries
    self.maxBytes = maxBytes
    self.backoff = backoff
    self.userAgent = userAgent
  }
}
