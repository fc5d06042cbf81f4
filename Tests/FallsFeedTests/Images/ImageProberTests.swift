import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// A prober over the real transport, with no retries and a short deadline.
private func prober(timeout: Double = 10) -> ImageProber {
  ImageProber(
    fetcher: FeedFetcher(
      transport: URLSessionTransport(), policy: FetchPolicy(timeout: timeout, retries: 0)))
}

/// The header the fixture's own bytes give, read whole.
private func localHeader(_ name: String) throws -> ImageHeader? {
  let bytes = Array(try Fixtures.data("images/" + name))
  guard case .header(let header) = ImageHeaderReader.read(ImageBytes(bytes, isWhole: true)) else {
    return nil
  }
  return header
}

/// The bytes the server says it wrote for requests to `path`.
private func sent(_ server: TestServer, _ path: String) throws -> Int {
  try server.log().filter { $0["method"] == "SENT" && $0["path"] == path }
    .compactMap { $0["bytes"].flatMap(Int.init) }.reduce(0, +)
}

@Suite struct ImageProberTests {
  @Test(
    "Each fixture over HTTP, by range or whole, reads as its own bytes do",
    arguments: [
      "png-37x23.png", "jpeg-41x29.jpg", "jpeg-progressive-41x29.jpg", "gif-17x13.gif",
      "webp-lossy-45x33.webp", "webp-lossless-45x33.webp", "webp-extended-45x33.webp",
      "avif-37x23.avif", "heic-37x23.heic", "bmp-19x11.bmp", "jpeg-43x31-orientation6-mm.jpg",
    ])
  func fixtures(name: String) async throws {
    let server = try TestServer()
    let expected = try #require(try localHeader(name))
    let size = try Fixtures.data("images/" + name).count
    for route in ["image", "image-whole"] {
      let probe = await prober().probe(server.url("/\(route)/\(name)"))
      #expect(probe.outcome == .header(expected), "\(route)")
      #expect(probe.bytesRead <= size, "\(route)")
    }
  }

  @Test("A JPEG whose frame header lies past 200 KiB of segments is read by ranges, skipping them")
  func furtherRanges() async throws {
    let server = try TestServer()
    let path = "/image-padded/200/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .header(ImageHeader(format: .jpeg, width: 41, height: 29)))
    // The padding is four APP2 segments from byte 2 (65,537, 65,537, 65,537 and 8,205 bytes
    // long), then the fixture's JFIF segment at 204,818 and its frame header at 204,974, in a
    // file of 205,200 bytes. Read: the first 64 KiB, then 4 KiB at each of the next three
    // segments' starts, and the rest of the file from 204,818, which holds the frame header:
    // the padding between is never read.
    #expect(probe.bytesRead == ImageProber.rangeBytes + 3 * ImageProber.stepBytes + 382)
    #expect(try sent(server, path) == probe.bytesRead)
    #expect(try server.log().filter { $0["path"] == path && $0["method"] == "GET" }.count == 5)
  }

  @Test("A server that ignores Range is read only until the header, and the request ends there")
  func ignoredRange() async throws {
    let server = try TestServer()
    let path = "/image-padded-whole/200/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .header(ImageHeader(format: .jpeg, width: 41, height: 29)))
    #expect(probe.bytesRead >= 200 * 1024 && probe.bytesRead < 300 * 1024)
  }

  @Test("A server that ignores Range and sends 30 MiB before the header is read to 1 MiB")
  func ignoredRangeBudget() async throws {
    let server = try TestServer()
    let path = "/image-padded-whole-paced/30000/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == ImageProber.noHeaderInBudget)
    #expect(probe.bytesRead <= ImageProber.mostBytes)
    // The request ends there: the server, pacing its 30 MiB as a network would, is stopped
    // short of them (it may have written more than was read into the sockets' buffers).
    var written = 0
    for _ in 0..<50 where written == 0 {
      try await Task.sleep(for: .milliseconds(200))
      written = try sent(server, path)
    }
    #expect(written > 0 && written < 10 << 20, "the server wrote \(written) bytes")
  }

  @Test(
    "Endless streams end: noise at once, a JPEG of segments at the budget",
    arguments: [
      ("/image-noise", "bytes of no known image format"),
      ("/image-endless-jpeg", "no image header of a known format within the first 1 MiB"),
    ])
  func endless(path: String, outcome: String) async throws {
    let server = try TestServer()
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .notAnImage(outcome))
    #expect(probe.bytesRead <= ImageProber.mostBytes)
  }

  @Test(
    "What is not an image, or not reached, says so",
    arguments: [
      ("/html", ImageProbe.Outcome.notAnImage("an HTML page")),
      ("/image/not-an-image.txt", .notAnImage("text")),
      (
        "/image/truncated-png.png",
        .notAnImage("a PNG file whose header is broken: the file ends inside its header")
      ),
      (
        "/image/truncated-jpeg.jpg",
        .notAnImage("a JPEG file whose header is broken: the file ends inside its header")
      ),
      ("/status/404", .unreachable("HTTP 404 Not Found")),
      ("/loop/0", .unreachable("too many redirects (a redirect loop)")),
      (
        "/image-huge",
        .header(ImageHeader(format: .png, width: 2_147_483_647, height: 2_147_483_647))
      ),
    ])
  func outcomes(path: String, outcome: ImageProbe.Outcome) async throws {
    let server = try TestServer()
    #expect(await prober().probe(server.url(path)).outcome == outcome)
  }

  @Test("No answer within the deadline, or no server, is unreachable")
  func unreachable() async throws {
    let server = try TestServer()
    let slow = await prober(timeout: 0.3).probe(server.url("/image-slow/3/png-37x23.png"))
    #expect(slow.outcome == .unreachable("no complete answer within 0.3 s"))
    let refused = await prober().probe("http://127.0.0.1:\(refusedPort())/image.png")
    guard case .unreachable(let why) = refused.outcome else {
      Issue.record("\(refused)")
      return
    }
    #expect(why.hasPrefix("cannot connect"))
  }

  @Test("Files by path and file: URL, and data: URLs, are read where they are")
  func local() async throws {
    let path = Fixtures.path("images/gif-17x13.gif")
    let expected = ImageProbe.Outcome.header(ImageHeader(format: .gif, width: 17, height: 13))
    #expect(await prober().probe(path).outcome == expected)
    #expect(await prober().probe("file://" + path).outcome == expected)
    let base64 = try Fixtures.data("images/gif-17x13.gif").base64EncodedString()
    #expect(await prober().probe("data:image/gif;base64," + base64).outcome == expected)
    let missing = await prober().probe("/nonexistent/x.png")
    #expect(missing.outcome == .unreachable("No such file or directory"))
    let other = await prober().probe("ftp://example.com/x.png")
    #expect(
      other.outcome
        == .unreachable("its scheme 'ftp' is not one falls reads (http, https, file, data)"))
  }

  @Test(
    "Content-Range is read in both its forms",
    arguments: [
      ("bytes 0-65535/200000", 0 as Int?, 200_000 as Int?), ("bytes 100-199/*", 100, nil),
      ("bytes */5000", nil, 5000),
    ])
  func contentRange(text: String, start: Int?, total: Int?) {
    let range = ImageProber.contentRange(text)
    #expect(range?.start == start && range?.total == total)
  }
}
