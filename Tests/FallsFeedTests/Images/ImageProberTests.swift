import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// A prober over the real transport, with no retries and a deadline that a python server on a
/// busy machine meets (the tests of deadlines give their own).
private func prober(timeout: Double = 60, retries: Int = 0) -> ImageProber {
  ImageProber(
    fetcher: FeedFetcher(
      transport: CurlTransport(), policy: FetchPolicy(timeout: timeout, retries: retries)))
}

extension ImageProber {
  /// The probe of `reference` as a local feed names it.
  fileprivate func probe(_ reference: String) async -> ImageProbe {
    await probe(reference, in: .currentFolder)
  }
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

@Suite(.tags(.process)) struct ImageProberTests {
  @Test(
    "Each fixture over HTTP, by range or whole, reads as its own bytes do",
    arguments: [
      "png-37x23.png", "jpeg-41x29.jpg", "jpeg-progressive-41x29.jpg", "gif-17x13.gif",
      "webp-lossy-45x33.webp", "webp-lossless-45x33.webp", "webp-extended-45x33.webp",
      "avif-37x23.avif", "heic-37x23.heic", "bmp-19x11.bmp", "jpeg-43x31-orientation6-mm.jpg",
    ])
  func fixtures(name: String) async throws {
    let server = try await TestServer()
    let expected = try #require(try localHeader(name))
    let size = try Fixtures.data("images/" + name).count
    for route in ["image", "image-whole"] {
      let probe = await prober().probe(server.url("/\(route)/\(name)"))
      #expect(probe.outcome == .header(expected), "\(route)")
      #expect(probe.bytesRead <= size, "\(route)")
    }
  }

  @Test(
    "A JPEG whose frame header lies past 200 KiB of segments: 2 requests, one header reach",
    arguments: ["image-padded", "image-padded-whole"])
  func furtherRanges(route: String) async throws {
    let server = try await TestServer()
    let path = "/\(route)/200/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .header(ImageHeader(format: .jpeg, width: 41, height: 29)))
    // The padding is four APP2 segments from byte 2 (65,537, 65,537, 65,537 and 8,205 bytes
    // long), then the fixture's JFIF segment at 204,818 and its frame header at 204,974, in a
    // file of 205,200 bytes; the frame header's width ends at 204,974 + 9.
    #expect(probe.headerBytes == 204_983)
    #expect(probe.bytesRead >= 204_983 - 3 && probe.bytesRead <= 205_200)
    #expect(try sent(server, path) >= probe.bytesRead)
    // By ranges: the first 64 KiB, then from the second segment (at 65,539) to the end in one
    // range; whole: one request.
    let requests = try server.log().filter { $0["path"] == path && $0["method"] == "GET" }
    #expect(requests.count == (route == "image-padded" ? 2 : 1))
  }

  @Test(
    "A JPEG with an ICC profile of 150 KiB before its frame header is read in 2 requests",
    arguments: [150, 600])
  func iccProfile(kibibytes: Int) async throws {
    let server = try await TestServer()
    let path = "/image-icc/\(kibibytes)/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .header(ImageHeader(format: .jpeg, width: 41, height: 29)))
    // The fixture's frame header at 158, after its JFIF segment (2 + 18) and the profile in
    // chunks of at most 65,519 bytes, each with 18 bytes of marker, length, name and numbers.
    let profile = kibibytes * 1024
    let chunks = (profile + 65_518) / 65_519
    #expect(probe.headerBytes == 158 + profile + 18 * chunks + 9)
    #expect(probe.bytesRead <= ImageProber.mostBytes)
    #expect(try server.log().count { $0["path"] == path && $0["method"] == "GET" } == 2)
  }

  @Test("A server that ignores Range is read only until the header, and the request ends there")
  func ignoredRange() async throws {
    let server = try await TestServer()
    let path = "/image-padded-whole/200/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == .header(ImageHeader(format: .jpeg, width: 41, height: 29)))
    #expect(probe.bytesRead >= 200 * 1024 && probe.bytesRead < 300 * 1024)
  }

  @Test("A server that ignores Range and sends 30 MiB before the header is read to 1 MiB")
  func ignoredRangeBudget() async throws {
    let server = try await TestServer()
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
    let server = try await TestServer()
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
    let server = try await TestServer()
    #expect(await prober().probe(server.url(path)).outcome == outcome)
  }

  @Test("No answer within the deadline, or no server, is unreachable")
  func unreachable() async throws {
    let server = try await TestServer()
    let slow = await prober(timeout: 0.3).probe(server.url("/image-slow/3/png-37x23.png"))
    #expect(
      slow.outcome == .unreachable("no header within 0.3 s, the --timeout of one image's requests"))
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
      other.outcome == .refused("its scheme 'ftp' is not one falls reads (http, https, data, file)")
    )
  }

  @Test(
    "Content-Range is read in both its forms; a number no Int holds is none",
    arguments: [
      ("bytes 0-65535/200000", 0 as Int?, 65535 as Int?, 200_000 as Int?),
      ("bytes 100-199/*", 100, 199, nil), ("bytes */5000", nil, nil, 5000),
      ("bytes 9223372036854775800-9223372036854775809/*", 9_223_372_036_854_775_800, nil, nil),
      ("bytes 99999999999999999999-1/2", nil, 1, 2),
      ("bytes */-9223372036854775808", nil, nil, nil), ("bytes -5-10/20", nil, nil, 20),
      ("bytes +5-10/+20", nil, 10, nil),
    ])
  func contentRange(text: String, start: Int?, end: Int?, total: Int?) {
    let range = ImageProber.contentRange(text)
    #expect(range?.start == start && range?.end == end && range?.total == total)
  }

  @Test(
    "A 206 is held to what was asked: its start, its end, its length and the file's",
    arguments: [
      // (Content-Range, body bytes, cut, what is wrong, or nil): bytes 100–199 were asked.
      ("bytes 100-199/1000" as String?, 100, false, nil as String?),
      ("bytes 100-149/150", 50, false, nil), ("bytes 100-199/*", 60, true, nil),
      (nil, 100, false, "without a Content-Range"),
      ("bytes 0-99/1000", 100, false, "starts at byte 0"),
      ("bytes 101-200/1000", 100, false, "starts at byte 101"),
      ("bytes 100-299/1000", 200, false, "does not lie within"),
      ("bytes 100-98/1000", 0, false, "does not lie within"),
      ("bytes 100-199/1000", 99, false, "gives 100 bytes, and the answer holds 99"),
      ("bytes 100-149/1000", 60, false, "gives 50 bytes, and the answer holds 60"),
      ("bytes 100-199/150", 100, false, "ends past the file's length"),
      ("bytes 9223372036854775800-9223372036854775809/*", 10, false, "numbers a file can have"),
      ("bytes 100-199", 100, false, "without a Content-Range"),
    ])
  func breach(range: String?, count: Int, isCut: Bool, wrong: String?) {
    let response = HTTPResponse(
      status: 206, headers: range.map { ["Content-Range": $0] } ?? [:],
      body: Data(count: count), isCut: isCut)
    let found = ImageProber.breach(
      of: ImageProber.contentRange(range), body: response, asked: 100...199)
    if let wrong {
      #expect(found?.contains(wrong) == true, "\(found ?? "none")")
    } else {
      #expect(found == nil)
    }
  }

  @Test(
    "A server that answers ranges wrongly, or too little at a time, ends within 16 requests",
    arguments: [
      ("/range-at/9223372036854775800", "numbers a file can have"),
      ("/range-at/0", "starts at byte 0, where bytes from 10 were asked"),
      ("/same-byte/png-37x23.png", "starts at byte 0, where bytes from 1 were asked"),
      ("/one-byte/png-37x23.png", "within the 16 requests falls makes for an image (they gave 16"),
    ])
  func lyingRanges(path: String, reason: String) async throws {
    let server = try await TestServer()
    // A deadline long enough for 16 answers of a python server on a busy machine.
    let probe = await prober(timeout: 60, retries: 10).probe(server.url(path))
    switch probe.outcome {
    case .unreachable(let why), .notAnImage(let why): #expect(why.contains(reason), "\(why)")
    default: Issue.record("\(probe)")
    }
    let requests = try server.log().count { $0["method"] == "GET" }
    #expect(requests <= ImageProber.mostRequests)
  }

  @Test(
    "A 416 whose length does not fit what was asked or had is a broken answer, never a trap",
    arguments: ["-9223372036854775808", "-9223372036854775807", "2", "70000", "x"])
  func wrong416(total: String) async throws {
    let server = try await TestServer()
    let probe = await prober().probe(server.url("/range-then-416/\(total)"))
    switch probe.outcome {
    case .unreachable(let why): #expect(why.contains("416"), "\(why)")
    // A length the answer cannot give (no digits) is no length: the file ends where asked.
    case .notAnImage(let why): #expect(total == "x" || total.hasPrefix("-"), "\(why)")
    default: Issue.record("\(probe)")
    }
  }

  @Test("One image's requests share one deadline, each of them within it")
  func imageDeadline() async throws {
    let server = try await TestServer()
    // Each range is answered after 0.4 s with one byte: every request ends well within the
    // 3 s timeout, and the image's requests together (16 would take 6.4 s) do not.
    let probe = await prober(timeout: 3).probe(server.url("/one-byte-slow/0.4/png-37x23.png"))
    #expect(
      probe.outcome
        == .unreachable("no header within 3 s, the --timeout of one image's requests"))
    // The deadline ended it, not the 16 requests (on a busy machine fewer answers come).
    #expect(probe.bytesRead < ImageProber.mostRequests)
  }

  @Test("A JPEG of more segments before its frame header than 1 MiB holds is no image")
  func segmentsPastTheBudget() async throws {
    let server = try await TestServer()
    // 2 MiB of padding: the first 64 KiB, then the rest of the budget in one range.
    let path = "/image-padded/2048/jpeg-41x29.jpg"
    let probe = await prober().probe(server.url(path))
    #expect(probe.outcome == ImageProber.noHeaderInBudget)
    #expect(probe.bytesRead <= ImageProber.mostBytes)
    #expect(try server.log().count { $0["path"] == path && $0["method"] == "GET" } == 2)
  }
}
