import CurlLengthGuard
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real ``HTTPTransport``: FoundationNetworking's URLSession, with the overall deadline and
/// the body limit that URLSession on Linux does not enforce itself.
///
/// On Linux, `timeoutIntervalForResource` is ignored and a request's timeout restarts whenever a
/// byte arrives, so a server that trickles bytes would never time out: each request here is
/// cancelled when its deadline passes. HTTP error statuses are returned as answers. Gzip bodies
/// arrive decompressed.
///
/// One session serves every request of the transport, so that a request to a host already
/// asked reuses its connection (keep-alive). That is also what keeps waiting cheap: the
/// toolchain's FoundationNetworking watches a new connection's socket for writing while it
/// connects and never stops, so that a first request burns most of a core until its answer
/// comes; on a reused connection the wait costs nothing (BENCHMARKS.md, "Waiting").
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  /// The session's delegate, which hands each task's calls to the receiver of its request:
  /// FoundationNetworking on Linux calls session delegates only, not a task's `delegate`.
  private let receivers = Receivers()

  /// Creates a transport with an ephemeral session (no cookies, no cache).
  public init() {
    // FoundationNetworking traps on some Content-Length values; the guard keeps them from it.
    precondition(falls_curl_length_guard_is_linked() == 1)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    // As many requests to one host at once as falls probe may make (--jobs), not the
    // default's six.
    configuration.httpMaximumConnectionsPerHost = 64
    session = URLSession(
      configuration: configuration, delegate: receivers, delegateQueue: ImmediateQueue())
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// Fetches `url` once; see ``HTTPTransport/get(_:headers:timeout:maxBytes:)``.
  public func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse
  {
    try await perform(url, headers: headers, Receiver(maxBytes: maxBytes, timeout: timeout))
  }

  /// Fetches `url` once, ending the request once the body is enough; see
  /// ``HTTPTransport/get(_:headers:timeout:readingAtMost:until:)``.
  public func get(
    _ url: URL, headers: [String: String], timeout: Double, readingAtMost maxBytes: Int,
    until enough: @escaping @Sendable (Data) -> Bool
  ) async throws(TransportFailure) -> HTTPResponse {
    try await perform(
      url, headers: headers, Receiver(maxBytes: maxBytes, timeout: timeout, enough: enough))
  }

  private func perform(_ url: URL, headers: [String: String], _ receiver: Receiver)
    async throws(TransportFailure) -> HTTPResponse
  {
    var request = URLRequest(url: url, timeoutInterval: receiver.timeout)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let task = session.dataTask(with: request)
    receivers.add(receiver, for: task)
    defer { receivers.remove(task) }
    // A task cancelled while it waits (falls view quitting mid-page) cancels the request.
    let answer: Receiver.Answer = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        receiver.start(task, continuation: continuation)
      }
    } onCancel: {
      receiver.cancel(task, because: .cancelled)
    }
    return try answer.get()
  }
}

/// The delegate of a transport's session: each task's calls go to the receiver of its request.
///
/// `@unchecked Sendable` only because NSObject is not: its one stored property is a Mutex.
private final class Receivers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let byTask = Mutex<[Int: Receiver]>([:])

  func add(_ receiver: Receiver, for task: URLSessionTask) {
    byTask.withLock { $0[task.taskIdentifier] = receiver }
  }

  func remove(_ task: URLSessionTask) {
    _ = byTask.withLock { $0.removeValue(forKey: task.taskIdentifier) }
  }

  private func receiver(of task: URLSessionTask) -> Receiver? {
    byTask.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let receiver = receiver(of: dataTask) else { return completionHandler(.cancel) }
    receiver.received(response, of: dataTask, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    receiver(of: dataTask)?.received(data, of: dataTask)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let receiver = receiver(of: task) else { return completionHandler(nil) }
    receiver.redirected(response, to: request, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    receiver(of: task)?.completed(with: error)
  }
}

/// A delegate queue that runs each delegate call at once, on the thread that hands it over.
///
/// URLSession hands every chunk of a body to its delegate through this queue. Through an
/// ordinary queue nothing holds the network back: a small gzip body that decompresses a
/// thousandfold is handed over far faster than a delegate can look at it, and the chunks pile up
/// in the queue (to 590 MiB for 1 MB of gzip) before the delegate can cancel. Run at once, each
/// chunk is looked at (and dropped past the limit) before the next is made.
///
/// `@unchecked Sendable` as OperationQueue is: it keeps no state of its own.
private final class ImmediateQueue: OperationQueue, @unchecked Sendable {
  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    block()
  }

  override func addOperation(_ operation: Operation) {
    operation.start()
  }
}

/// Collects one task's answer, enforces the limits, and resumes the waiting caller once.
private final class Receiver: Sendable {
  typealias Answer = Result<HTTPResponse, TransportFailure>

  /// What arrives from the delegate's calls, each on the session's queue.
  private struct State {
    var body = Data()
    var response: HTTPURLResponse?
    /// Set when this side cancelled the task, to tell why.
    var cancelReason: TransportFailure?
    /// Set when the body was enough and the task was ended for that: the answer stands.
    var isCut = false
    var continuation: CheckedContinuation<Answer, Never>?
  }

  private let maxBytes: Int
  let timeout: Double
  /// Whether the body so far is enough, for a request that may end early; `nil` for one whose
  /// body is read whole (and refused past ``maxBytes``).
  private let enough: (@Sendable (Data) -> Bool)?
  private let state = Mutex(State())

  init(maxBytes: Int, timeout: Double, enough: (@Sendable (Data) -> Bool)? = nil) {
    self.maxBytes = maxBytes
    self.timeout = timeout
    self.enough = enough
  }

  func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Answer, Never>) {
    state.withLock { $0.continuation = continuation }
    task.resume()
    let timeout = timeout
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self, weak task] in
      guard let self, let task else { return }
      self.cancel(task, because: .timedOut(seconds: timeout))
    }
  }

  func cancel(_ task: URLSessionTask, because reason: TransportFailure) {
    let shouldCancel = state.withLock {
      guard $0.continuation != nil, $0.cancelReason == nil, !$0.isCut else { return false }
      $0.cancelReason = reason
      return true
    }
    // Cancelled from another thread: a delegate call runs on the session's own queue, and
    // URLSessionTask.cancel() waits for that queue (in this toolchain's FoundationNetworking).
    if shouldCancel {
      DispatchQueue.global().async { task.cancel() }
    }
  }

  func received(
    _ response: URLResponse, of dataTask: URLSessionDataTask,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    state.withLock { $0.response = http }
    let declared = response.expectedContentLength
    let isEncoded = http?.value(forHTTPHeaderField: "Content-Encoding") != nil
    if declared > maxBytes, !isEncoded, enough == nil {
      cancel(dataTask, because: .bodyTooLarge(limit: maxBytes))
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  func received(_ data: Data, of dataTask: URLSessionDataTask) {
    if let enough {
      // Up to the most it may read; once enough, the task ends and what came is the answer.
      let isCut = state.withLock {
        guard $0.cancelReason == nil, !$0.isCut else { return false }
        $0.body.append(data.prefix(maxBytes - $0.body.count))
        $0.isCut = $0.body.count >= maxBytes || enough($0.body)
        return $0.isCut
      }
      // Ended from another thread, as cancel(_:because:) does.
      if isCut { DispatchQueue.global().async { dataTask.cancel() } }
      return
    }
    // Nothing is kept past the limit, nor after a cancel: data that is on its way when the task
    // is cancelled (a compressed body decompresses into many chunks) is dropped.
    let tooLarge = state.withLock {
      guard $0.cancelReason == nil else { return false }
      guard $0.body.count + data.count <= maxBytes else { return true }
      $0.body.append(data)
      return false
    }
    if tooLarge { cancel(dataTask, because: .bodyTooLarge(limit: maxBytes)) }
  }

  func redirected(
    _ response: HTTPURLResponse, to request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // Judged by the Location header itself: FoundationNetworking turns some schemes it does not
    // follow (file:, data:) into a path on the same server before asking.
    let location = response.value(forHTTPHeaderField: "Location")
    let target = location.flatMap { URL(string: $0, relativeTo: response.url) } ?? request.url
    let scheme = target?.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      // Not followed: the task ends with the redirect's own answer, reported as the refusal.
      // (Cancelling the task here as well makes FoundationNetworking stop the process.)
      state.withLock {
        if $0.cancelReason == nil {
          $0.cancelReason = .refusedRedirect(to: location ?? "an unreadable address")
        }
      }
      completionHandler(nil)
      return
    }
    completionHandler(request)
  }

  func completed(with error: Error?) {
    let (continuation, result): (CheckedContinuation<Answer, Never>?, Answer) = state.withLock {
      let waiting = $0.continuation
      $0.continuation = nil
      if let cancelReason = $0.cancelReason { return (waiting, .failure(cancelReason)) }
      // Ended because the body was enough: the cancellation's error is this side's own.
      if let error, !$0.isCut {
        return (waiting, .failure(Self.failure(error, timeout: timeout)))
      }
      guard let response = $0.response else {
        return (waiting, .failure(.other(detail: "the server sent no HTTP answer")))
      }
      // HTTPResponse lower-cases the names.
      var headers: [String: String] = [:]
      for case (let name as String, let value as String) in response.allHeaderFields {
        headers[name] = value
      }
      return (
        waiting,
        .success(
          HTTPResponse(
            status: response.statusCode, headers: headers, body: $0.body, isCut: $0.isCut))
      )
    }
    continuation?.resume(returning: result)
  }

  private static func failure(_ error: Error, timeout: Double) -> TransportFailure {
    let error = error as NSError
    let detail = error.localizedDescription
    guard error.domain == NSURLErrorDomain else { return .other(detail: detail) }
    switch error.code {
    case NSURLErrorCannotConnectToHost, NSURLErrorNotConnectedToInternet:
      return .cannotConnect(detail: detail)
    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
      return .cannotResolve(detail: detail)
    case NSURLErrorTimedOut:
      return .timedOut(seconds: timeout)
    case NSURLErrorNetworkConnectionLost, NSURLErrorUnknown, NSURLErrorCannotParseResponse,
      NSURLErrorBadServerResponse, NSURLErrorZeroByteResource:
      return .connectionLost(detail: detail)
    case NSURLErrorHTTPTooManyRedirects, NSURLErrorRedirectToNonExistentLocation:
      return .tooManyRedirects
    default:
      return .other(detail: "\(detail) (URL error \(error.code))")
    }
  }
}
