import FallsBase
import Foundation
import Testing

@testable import FallsFeed

/// A transport that plays back scripted answers and records what it was asked.
private final class ScriptedTransport: HTTPTransport {
  private let script: Locked<[Result<HTTPResponse, TransportFailure>]>
  private let requests = Locked<[(URL, [String: String], Double, Int)]>([])

  init(_ script: [Result<HTTPResponse, TransportFailure>]) {
    self.script = Locked(script)
  }

  var requestCount: Int { requests.withLock { $0.count } }
  var firstHeaders: [String: String] { requests.withLock { $0.first?.1 ?? [:] } }

  func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse
  {
    requests.withLock { $0.append((url, headers, timeout, maxBytes)) }
    let next = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    guard let next else { throw .other(detail: "the script ran out") }
    return try next.get()
  }
}

/// Records the waits a fetcher asks for instead of sleeping.
private final class Sleeps: Sendable {
  let waits = Locked<[Double]>([])
  var recorded: [Double] { waits.withLock { $0 } }
  var sleep: @Sendable (Double) async -> Void {
    { [self] seconds in self.waits.withLock { $0.append(seconds) } }
  }
}

private let feedURL = URL(string: "http://127.0.0.1:1/feed.json") ?? URL(fileURLWithPath: "/")
private let feed = Data(#"{"data": []}"#.utf8)

private func ok(_ body: Data = feed) -> Result<HTTPResponse, TransportFailure> {
  .success(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body))
}

private func status(_ code: Int, headers: [String: String] = [:]) -> Result<
  HTTPResponse, TransportFailure
> {
  .success(HTTPResponse(status: code, headers: headers, body: Data("error page".utf8)))
}

private func fetcher(_ transport: ScriptedTransport, _ sleeps: Sleeps, retries: Int = 2)
  -> FeedFetcher
{
  FeedFetcher(
    transport: transport,
    policy: FetchPolicy(timeout: 10, retries: retries, maxBytes: 1000, userAgent: "falls/test"),
    sleep: sleeps.sleep)
}

@Suite struct FeedFetcherTests {
  @Test("A 2xx JSON body is returned, with the User-Agent sent")
  func success() async throws {
    let transport = ScriptedTransport([ok()])
    let body = try await fetcher(transport, Sleeps()).fetchFeed(feedURL).data
    #expect(body == feed)
    #expect(transport.requestCount == 1)
    #expect(transport.firstHeaders["User-Agent"] == "falls/test")
  }

  @Test(
    "5xx, 429 and transient failures are retried until an answer comes",
    arguments: [
      status(500), status(502), status(503), status(429),
      .failure(.cannotConnect(detail: "refused")), .failure(.timedOut(seconds: 10)),
      .failure(.connectionLost(detail: "reset")),
    ])
  func retried(first: Result<HTTPResponse, TransportFailure>) async throws {
    let transport = ScriptedTransport([first, first, ok()])
    let sleeps = Sleeps()
    let body = try await fetcher(transport, sleeps).fetchFeed(feedURL).data
    #expect(body == feed)
    #expect(transport.requestCount == 3)
    #expect(sleeps.recorded.count == 2)
  }

  @Test("Retries stop after --retries more attempts, and the error says how many")
  func retriesRunOut() async {
    let transport = ScriptedTransport(Array(repeating: status(500), count: 5))
    let sleeps = Sleeps()
    await #expect(
      throws: FetchError(
        url: feedURL.absoluteString, cause: .status(500, reason: "Internal Server Error"),
        attempts: 3)
    ) {
      try await fetcher(transport, sleeps).fetchFeed(feedURL).data
    }
    #expect(transport.requestCount == 3)
  }

  @Test(
    "Other 4xx answers and lasting failures are not retried",
    arguments: [
      (status(404), FetchError.Cause.status(404, reason: "Not Found")),
      (status(400), .status(400, reason: "Bad Request")),
      (status(403), .status(403, reason: "Forbidden")),
      (status(302), .status(302, reason: "Found")),
      (.failure(.tooManyRedirects), .transport(.tooManyRedirects)),
      (.failure(.bodyTooLarge(limit: 1000)), .transport(.bodyTooLarge(limit: 1000))),
      (.failure(.cannotResolve(detail: "x")), .transport(.cannotResolve(detail: "x"))),
    ])
  func notRetried(answer: Result<HTTPResponse, TransportFailure>, cause: FetchError.Cause) async {
    let transport = ScriptedTransport([answer, ok()])
    await #expect(throws: FetchError(url: feedURL.absoluteString, cause: cause, attempts: 1)) {
      try await fetcher(transport, Sleeps()).fetchFeed(feedURL).data
    }
    #expect(transport.requestCount == 1)
  }

  @Test("Retry-After is waited for exactly, within the deadline")
  func retryAfter() async throws {
    let transport = ScriptedTransport([status(429, headers: ["Retry-After": "3"]), ok()])
    let sleeps = Sleeps()
    _ = try await fetcher(transport, sleeps).fetchFeed(feedURL).data
    #expect(sleeps.recorded == [3])
  }

  @Test("Each retry is told before its wait: the wait, the cause and the attempt to come")
  func retriesTold() async throws {
    let transport = ScriptedTransport([
      status(503), .failure(.timedOut(seconds: 10)), status(429, headers: ["Retry-After": "2"]),
      ok(),
    ])
    let sleeps = Sleeps()
    let told = Locked<[(Double, FetchError.Cause, Int)]>([])
    var subject = fetcher(transport, sleeps, retries: 3)
    subject.onRetry = { wait, cause, attempt in told.withLock { $0.append((wait, cause, attempt)) }
    }
    _ = try await subject.fetchFeed(feedURL).data
    let calls = told.withLock { $0 }
    #expect(calls.map(\.2) == [2, 3, 4])
    #expect(calls.map(\.0) == sleeps.recorded && calls.last?.0 == 2)
    #expect(
      calls.map(\.1.description) == [
        "HTTP 503 Service Unavailable", "no complete answer within 10 s",
        "HTTP 429 Too Many Requests",
      ])
  }

  @Test("A Retry-After longer than the deadline fails at once")
  func retryAfterTooLong() async {
    let transport = ScriptedTransport([status(429, headers: ["Retry-After": "60"]), ok()])
    let sleeps = Sleeps()
    await #expect(
      throws: FetchError(
        url: feedURL.absoluteString, cause: .retryAfterTooLong(status: 429, seconds: 60),
        attempts: 1)
    ) {
      try await fetcher(transport, sleeps).fetchFeed(feedURL).data
    }
    #expect(sleeps.recorded.isEmpty)
  }

  @Test("Backoff doubles with each attempt, with jitter of ±50%")
  func backoff() {
    let fetcher = FeedFetcher(transport: ScriptedTransport([]), policy: FetchPolicy(backoff: 0.5))
    for attempt in 1...5 {
      let base = 0.5 * Double(1 << (attempt - 1))
      let delays = (0..<200).map { _ in fetcher.backoff(afterAttempt: attempt) }
      #expect(delays.allSatisfy { $0 >= base * 0.5 && $0 <= base * 1.5 })
      #expect(Set(delays).count > 100)  // jittered, not in step
    }
  }

  @Test(
    "A 2xx body that is not JSON is refused, saying what it is",
    arguments: [
      ("<!DOCTYPE html><html>", "text/html", #"starting "<!DOCTYPE html><html>""#),
      ("OK", "text/plain", #"starting "OK""#),
    ])
  func notJSON(body: String, contentType: String, description: String) async {
    let transport = ScriptedTransport([
      .success(
        HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: Data(body.utf8)))
    ])
    do {
      _ = try await fetcher(transport, Sleeps()).fetchFeed(feedURL).data
      Issue.record("expected an error")
    } catch {
      #expect(
        error.cause == .notJSON(contentType: contentType, start: String(description.dropFirst(9))))
      #expect(error.message.contains(description))
    }
  }

  @Test("JSON bodies may start with spaces or a byte order mark; one of spaces alone is empty")
  func jsonStarts() {
    for body in ["  {}", "\n[1]", "\u{FEFF}{}", "", " \n"] {
      #expect(FeedFetcher.notJSON(HTTPResponse(status: 200, body: Data(body.utf8))) == nil)
    }
  }

  @Test(
    "Messages name the URL, what happened and what was expected",
    arguments: [
      (
        FetchError(url: "http://h/f", cause: .status(404, reason: "Not Found"), attempts: 1),
        "GET http://h/f: HTTP 404 Not Found; expected a 2xx answer with a finderlist JSON feed"
      ),
      (
        FetchError(url: "http://h/f", cause: .transport(.timedOut(seconds: 1.5)), attempts: 3),
        "GET http://h/f: no complete answer within 1.5 s after 3 attempts; expected a 2xx answer with a finderlist JSON feed"
      ),
      (
        FetchError(
          url: "http://h/f", cause: .retryAfterTooLong(status: 429, seconds: 60), attempts: 1),
        "GET http://h/f: HTTP 429 Too Many Requests, and the server asks to wait 60 s, longer than the --timeout; expected a 2xx answer with a finderlist JSON feed"
      ),
    ])
  func messages(error: FetchError, message: String) {
    #expect(error.message == message)
  }

  @Test("Retry-After takes delay-seconds; an HTTP date or junk is ignored")
  func retryAfterParsing() {
    #expect(FeedFetcher.retryAfter(["retry-after": "2"]) == 2)
    #expect(FeedFetcher.retryAfter(["retry-after": " 0 "]) == 0)
    #expect(FeedFetcher.retryAfter(["retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"]) == nil)
    #expect(FeedFetcher.retryAfter(["retry-after": "-1"]) == nil)
    #expect(FeedFetcher.retryAfter([:]) == nil)
  }

  @Test("Status reasons are the standard phrases, by class where unlisted")
  func reasons() {
    #expect(FeedFetcher.reason(404) == "Not Found")
    #expect(FeedFetcher.reason(503) == "Service Unavailable")
    #expect(FeedFetcher.reason(418) == "Client Error")
    #expect(FeedFetcher.reason(599) == "Server Error")
  }

  @Test("The start of a body that is not JSON is quoted with its control characters escaped")
  func escapedStart() async {
    let body = Data("\u{1B}]0;owned\u{7}\u{1B}[2J\r\nline two".utf8)
    let transport = ScriptedTransport([
      .success(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body))
    ])
    await #expect {
      try await fetcher(transport, Sleeps()).fetchFeed(feedURL).data
    } throws: { error in
      let message = (error as? FetchError)?.message ?? ""
      return message.contains(#"starting "\u001b]0;owned\u0007\u001b[2J\u000d\u000aline two""#)
        && !message.unicodeScalars.contains { $0.value < 0x20 }
    }
  }

  @Test("A password in the URL is never repeated in a message")
  func redactedURL() async throws {
    let url = try #require(URL(string: "http://reader:s3cret@127.0.0.1:1/feed.json"))
    let transport = ScriptedTransport([status(404)])
    await #expect {
      try await fetcher(transport, Sleeps()).fetchFeed(url).data
    } throws: { error in
      let message = (error as? FetchError)?.message ?? ""
      return message.hasPrefix("GET http://reader:***@127.0.0.1:1/feed.json: HTTP 404")
        && !message.contains("s3cret")
    }
  }

  @Test("A part's deadline is the earlier of its own and the run's, and says which passed")
  func partDeadline() async throws {
    let transport = ScriptedTransport([ok(), ok()])
    // The run's deadline is a day away: a loaded machine (the suite under AddressSanitizer on
    // 2 cores) can hold this task off its thread for minutes, and the run must outlast that.
    var policy = FetchPolicy(timeout: 10, retries: 0, maxBytes: 1000, maxTime: 86_400)
    policy.userAgent = "falls/test"
    let run = FeedFetcher(transport: transport, policy: policy, sleep: Sleeps().sleep)
    let image = run.within(seconds: 0.05, cause: .imageTimeReached(seconds: 0.05))
    #expect(image.deadline?.cause == .imageTimeReached(seconds: 0.05))
    // A part longer than what is left of the run keeps the run's.
    #expect(
      run.within(seconds: 100_000, cause: .imageTimeReached(seconds: 100_000)).deadline
        == run.deadline)
    try await Task.sleep(for: .milliseconds(100))
    await #expect(
      throws: FetchError(
        url: feedURL.absoluteString, cause: .imageTimeReached(seconds: 0.05), attempts: 0)
    ) {
      try await image.fetchFeed(feedURL)
    }
    #expect(transport.requestCount == 0)
    // The run itself goes on.
    #expect(try await run.fetchFeed(feedURL).data == feed)
  }

  @Test("A feed is located where it was fetched from, or where its redirects led")
  func location() async throws {
    let transport = ScriptedTransport([
      ok(), .success(HTTPResponse(status: 200, body: feed, url: URL(string: "http://h/b/c.json"))),
    ])
    let fetcher = fetcher(transport, Sleeps())
    #expect(try await fetcher.fetchFeed(feedURL).location == .web(feedURL))
    #expect(
      try await fetcher.fetchFeed(feedURL).location
        == .web(try #require(URL(string: "http://h/b/c.json"))))
  }
}
