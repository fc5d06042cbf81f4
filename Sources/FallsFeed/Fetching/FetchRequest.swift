import Foundation

/// What one fetch asks for and accepts, beyond the policy's deadlines and retries: the header
/// fields, how much of the body it reads, and whether a 2xx body must be JSON.
public struct FetchRequest: Sendable {
  /// Header fields added to the request (the policy's `User-Agent` is always sent).
  public var headers: [String: String]
  /// The largest body read: past it the fetch fails (``TransportFailure/bodyTooLarge(limit:)``),
  /// unless ``enough`` is given, when the body is cut there.
  public var maxBytes: Int
  /// Whether a 2xx body must look like JSON (a feed); otherwise any body is an answer.
  public var expectsJSON: Bool
  /// Whether the body so far is enough: the request then ends, the answer cut
  /// (``HTTPResponse/isCut``); `nil` to read the whole body.
  public var enough: (@Sendable ([UInt8]) -> Bool)?
  /// Statuses outside 2xx that are answers, not failures (416 for a range past a file's end).
  public var answerStatuses: Set<Int>

  /// Creates a request.
  public init(
    headers: [String: String] = [:], maxBytes: Int, expectsJSON: Bool = false,
    enough: (@Sendable ([UInt8]) -> Bool)? = nil, answerStatuses: Set<Int> = []
  ) {
    self.headers = headers
    self.maxBytes = maxBytes
    self.expectsJSON = expectsJSON
    self.enough = enough
    self.answerStatuses = answerStatuses
  }

  /// A feed's request: JSON asked for and required, the policy's body limit.
  public static func feed(_ policy: FetchPolicy) -> FetchRequest {
    FetchRequest(
      headers: ["Accept": "application/json"], maxBytes: policy.maxBytes, expectsJSON: true)
  }
}
