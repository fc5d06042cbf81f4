import FallsFeed
import Testing

@Suite struct HTTPTransportTests {
  @Test("Header names are kept in lower case")
  func headers() {
    let response = HTTPResponse(status: 200, headers: ["Content-Type": "a", "Retry-After": "1"])
    #expect(response.headers == ["content-type": "a", "retry-after": "1"])
  }

  @Test(
    "Failed and lost connections and timeouts are transient; the rest are not",
    arguments: [
      (TransportFailure.cannotConnect(detail: "x"), true), (.timedOut(seconds: 1), true),
      (.connectionLost(detail: "x"), true), (.cannotResolve(detail: "x"), false),
      (.tooManyRedirects, false), (.bodyTooLarge(limit: 1), false), (.other(detail: "x"), false),
      (.refusedRedirect(to: "file:///etc/passwd"), false),
    ])
  func transient(failure: TransportFailure, isTransient: Bool) {
    #expect(failure.isTransient == isTransient)
  }

  @Test(
    "Failures read as what happened",
    arguments: [
      (TransportFailure.timedOut(seconds: 15), "no complete answer within 15 s"),
      (.tooManyRedirects, "too many redirects (a redirect loop)"),
      (.bodyTooLarge(limit: 64), "the body is larger than 64 bytes"),
      (.connectionLost(detail: "reset"), "the connection broke off (reset)"),
      (
        .refusedRedirect(to: "ftp://u:pw@h/x"),
        "a redirect to ftp://u:***@h/x was refused: only http and https redirects are followed"
      ),
    ])
  func descriptions(failure: TransportFailure, text: String) {
    #expect(failure.description == text)
  }
}
