import FallsBase
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What probing one image found, and how many of its bytes that took.
public struct ImageProbe: Hashable, Sendable {
  /// What the image is.
  public enum Outcome: Hashable, Sendable {
    /// Its header, read.
    case header(ImageHeader)
    /// No image of a known format in the bytes it may read: what they look like instead, or how
    /// a header of a known format is broken.
    case notAnImage(String)
    /// It could not be had: no answer, a non-2xx status, an answer that breaks the rules of
    /// what was asked, a file that cannot be read.
    case unreachable(String)
    /// It was not read, by rule (``ImageSource``): a local file named by a remote feed, another
    /// scheme, a NUL, a file that is not a regular one.
    case refused(String)
  }

  public var outcome: Outcome
  /// How many bytes of it were read (had over the network or from the file), which depends on
  /// how a server answers ranges.
  public var bytesRead: Int
  /// How far into the file its header reading looked: the end of the furthest bytes it needed
  /// (for a header, the offset where it had the size), which depends on the file alone; 0
  /// when no byte was read.
  public var headerBytes: Int

  public init(_ outcome: Outcome, bytesRead: Int, headerBytes: Int = 0) {
    self.outcome = outcome
    self.bytesRead = bytesRead
    self.headerBytes = headerBytes
  }
}

/// Reads the headers of images: over HTTP by ranges, from files by offsets, from `data:` URLs
/// as they are; where an image is comes from ``ImageSource``.
///
/// An HTTP image is asked for its first 64 KiB (`Range: bytes=0-65535`). A server that honours
/// the range answers 206 with them; one that ignores it answers 200 with the whole file, which
/// is read only until the header is (the request then ends). When the header lies further (a
/// JPEG whose EXIF or ICC segments come before its frame header, an AVIF whose `meta` follows
/// its `mdat`), the bytes from where the reader needs them, up to ``mostBytes`` in all, are
/// asked for in one range, read only until the header is: at most 2 requests when the first
/// answer says how far to skip.
///
/// Every answer is held to what was asked: a 206 must start at the offset asked for, its
/// `Content-Range` must fit the bytes it sent and the range asked, and it must add bytes where
/// they were asked for. No image costs more than ``mostBytes`` or ``mostRequests`` requests
/// (retries included), nor more than ``imageSeconds`` seconds over all its requests (as well as
/// each request's own deadline and the run's). Requests go through the fetcher, with its
/// deadlines and retries.
public struct ImageProber: Sendable {
  /// How requests are made: the policy's timeout, retries and one deadline.
  public var fetcher: FeedFetcher
  /// Whether a feed fetched over the network may name local files (`--allow-local-images`).
  public var allowsLocalImages: Bool
  /// The seconds one image's requests may take together: the policy's timeout.
  public var imageSeconds: Double

  /// The first bytes asked for.
  public static let rangeBytes = 1 << 16
  /// The least read from a file at a time after the first bytes: a segment's header and a
  /// little more, so that a long segment is skipped without reading it. (Over HTTP, where a
  /// request costs a round trip, the bytes after the first are asked for in one range.)
  public static let stepBytes = 1 << 12
  /// The most bytes read of one image, over all its requests.
  public static let mostBytes = 1 << 20
  /// The most requests made for one image, retries included.
  public static let mostRequests = 16

  public init(fetcher: FeedFetcher, allowingLocalImages: Bool = false) {
    self.fetcher = fetcher
    allowsLocalImages = allowingLocalImages
    imageSeconds = fetcher.policy.timeout
  }

  /// Reads the header of the image that `reference`, an item's `img` in a feed from
  /// `location`, points at (``ImageSource``).
  public func probe(_ reference: String, in location: FeedLocation) async -> ImageProbe {
    switch ImageSource(reference, in: location, allowingLocal: allowsLocalImages) {
    case .web(let url): await probeHTTP(url)
    case .data(let text): Self.probeData(text)
    case .file(let path): Self.probeFile(path)
    case .refused(let reason): ImageProbe(.refused(reason), bytesRead: 0)
    }
  }

  /// The outcome the reader's answer gives, or `nil` when it needs more bytes.
  static func outcome(of reading: ImageHeaderReading) -> ImageProbe.Outcome? {
    switch reading {
    case .header(let header): .header(header)
    case .malformed(let format, let reason):
      .notAnImage("a \(format.rawValue.uppercased()) file whose header is broken: \(reason)")
    case .unknown(let kind): .notAnImage(kind)
    case .needsBytes: nil
    }
  }

  /// The outcome once the bytes it may read are spent.
  static let noHeaderInBudget = ImageProbe.Outcome.notAnImage(
    "no image header of a known format within the first \(mostBytes >> 20) MiB")

  // MARK: HTTP

  private func probeHTTP(_ url: URL) async -> ImageProbe {
    var fetcher = fetcher.within(
      seconds: imageSeconds, cause: .imageTimeReached(seconds: imageSeconds))
    // Retries are requests too: counted as the fetcher makes them.
    let retries = Locked(0)
    let onRetry = fetcher.onRetry
    fetcher.onRetry = { wait, cause, attempt in
      retries.withLock { $0 += 1 }
      onRetry(wait, cause, attempt)
    }
    var bytes = ImageBytes()
    var read = 0
    var reach = 0
    var requests = 0
    var ask = (offset: 0, count: Self.rangeBytes)
    while true {
      let left = Self.mostRequests - requests
      guard left > 0 else {
        return ImageProbe(
          .notAnImage(
            "no image header within the \(Self.mostRequests) requests falls makes for an image "
              + "(they gave \(read) bytes)"),
          bytesRead: read, headerBytes: reach)
      }
      fetcher.policy.retries = min(self.fetcher.policy.retries, left - 1)
      let isFirst = ask.offset == 0
      let budget = Self.mostBytes - read
      // After the first bytes, the rest up to the budget in one range, read only until the
      // header is: a header past long segments costs one more round trip, not one a segment.
      let wanted = isFirst ? min(max(ask.count, Self.rangeBytes), budget) : budget
      guard ask.offset <= Int.max - wanted else {
        return ImageProbe(
          .notAnImage("a header that points past the end of any file (at byte \(ask.offset))"),
          bytesRead: read, headerBytes: reach)
      }
      let end = ask.offset + wanted - 1
      // Every answer is read until the header is: the first may be a whole file from a server
      // that ignores ranges, a later one runs to the budget. The reader is asked again only
      // once the bytes it asked for came, and the body has at least doubled since it was last
      // asked, so that a file of many small segments is read over a few times in all, not once
      // a segment.
      let needed = Locked(0)
      let (known, start) = (bytes, ask.offset)
      let enough: @Sendable ([UInt8]) -> Bool = { body in
        guard body.count >= needed.withLock({ $0 }) else { return false }
        // The first body shared, not copied: an image in flight holds its bytes once.
        var had = isFirst ? ImageBytes(body) : known
        if !isFirst { had.add(body, at: start) }
        let reading = ImageHeaderReader.read(had)
        guard case .needsBytes(let offset, let count) = reading else { return true }
        let end = offset.addingReportingOverflow(count).partialValue
        needed.withLock { $0 = max(end - min(start, end), 2 * body.count) }
        return false
      }
      let request = FetchRequest(
        headers: ["Range": "bytes=\(ask.offset)-\(end)", "Accept": "image/*"], maxBytes: budget,
        enough: enough, answerStatuses: [416])
      let retriesBefore = retries.withLock { $0 }
      let response: HTTPResponse
      do {
        response = try await fetcher.fetch(url, request: request)
      } catch {
        let tries = error.attempts > 1 ? " after \(error.attempts) attempts" : ""
        return ImageProbe(
          .unreachable(error.cause.description + tries), bytesRead: read, headerBytes: reach)
      }
      requests += 1 + retries.withLock { $0 } - retriesBefore
      read += response.body.count
      let range = Self.contentRange(response.headers["content-range"])
      switch response.status {
      case 206:
        if let broken = Self.breach(of: range, body: response, asked: ask.offset...end) {
          return ImageProbe(.unreachable(broken), bytesRead: read, headerBytes: reach)
        }
        if response.body.isEmpty {
          // Nothing from where it was asked: the file is shorter than its header needs.
          bytes.length = range?.total ?? ask.offset
        } else {
          bytes.add(Array(response.body), at: ask.offset)
          if let total = range?.total { bytes.length = total }
        }
      case 416:
        // The range starts past the file's end: a length it gives is no more than that start,
        // and no less than the bytes already had.
        let length = range?.total ?? ask.offset
        guard length <= ask.offset, bytes.firstMissing(from: 0) <= length else {
          return ImageProbe(
            .unreachable(
              "it answered 416 (the range is past the file's end) with a length of \(length), "
                + "which does not fit the bytes asked from \(ask.offset) or those already sent"),
            bytesRead: read, headerBytes: reach)
        }
        bytes.length = length
      default:
        // The whole file from its start, or as much of it as was read.
        bytes = ImageBytes(Array(response.body), isWhole: !response.isCut)
      }
      let reading: ImageHeaderReading
      (reading, reach) = ImageHeaderReader.measuredRead(bytes)
      if let outcome = Self.outcome(of: reading) {
        return ImageProbe(outcome, bytesRead: read, headerBytes: reach)
      }
      // Still short of the header: further on by a range, unless the bytes it may read are
      // spent, or the server ignores ranges (its whole file read as far as it may be).
      guard case .needsBytes(let offset, let count) = reading, read < Self.mostBytes,
        response.status == 206
      else {
        return ImageProbe(Self.noHeaderInBudget, bytesRead: read, headerBytes: reach)
      }
      // From the first byte not yet known: an answer shorter than asked is followed on from its
      // end, never asked again.
      let next = bytes.firstMissing(from: offset)
      ask = (next, max(1, count - (next - offset)))
    }
  }

  /// What is wrong with a 206 answer to a request for `asked`, or `nil` when it is what was
  /// asked: its `Content-Range` starts at the first byte asked, ends where its bytes do and no
  /// later than asked, within the file's length if it gives one.
  static func breach(
    of range: (start: Int?, end: Int?, total: Int?)?, body response: HTTPResponse,
    asked: ClosedRange<Int>
  ) -> String? {
    let stated = "its Content-Range \(shownInMessage(response.headers["content-range"] ?? ""))"
    guard let range else { return "it answered 206 without a Content-Range of bytes" }
    guard let start = range.start, let end = range.end else {
      return "\(stated) is not bytes START-END of numbers a file can have"
    }
    guard start == asked.lowerBound else {
      return "\(stated) starts at byte \(start), where bytes from \(asked.lowerBound) were asked"
    }
    guard end >= start, end <= asked.upperBound else {
      return "\(stated) does not lie within the bytes \(asked.lowerBound)–\(asked.upperBound) asked"
    }
    // The body may be cut short of the range on purpose (enough read), never longer.
    let length = end - start + 1
    guard response.body.count == length || (response.isCut && response.body.count < length)
    else {
      return "\(stated) gives \(length) bytes, and the answer holds \(response.body.count)"
    }
    if let total = range.total, total <= end {
      return "\(stated) ends past the file's length"
    }
    return nil
  }

  /// A `Content-Range` of `bytes START-END/TOTAL` (TOTAL may be `*`), or `bytes */TOTAL`; each
  /// number `nil` when it is not decimal digits (no sign) that an Int holds.
  static func contentRange(_ value: String?) -> (start: Int?, end: Int?, total: Int?)? {
    guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
    let body = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let parts = body.split(separator: "/", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    func number(_ text: Substring) -> Int? {
      guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
      return Int(text)
    }
    let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let start = bounds.first.flatMap(number)
    let end = bounds.count == 2 ? number(bounds[1]) : nil
    return (start, end, number(parts[1]))
  }

  // MARK: Files and data: URLs

  /// Reads the header of the file at `path` by offsets, as the reader asks, never past the
  /// length the file had when it was opened.
  ///
  /// Only a regular file is opened, and only once `stat` says it is one: a FIFO, a device, a
  /// directory or a socket is refused unopened (opening a FIFO waits for a writer; a device may
  /// never end), and so is a file of a pseudo file system (`/proc`, `/sys`), whose length says
  /// nothing of its contents. It is opened without blocking and checked again once open.
  static func probeFile(_ path: String) -> ImageProbe {
    var named = stat()
    guard stat(path, &named) == 0 else {
      return ImageProbe(.unreachable(SystemError.last.message), bytesRead: 0)
    }
    if let kind = Self.nonRegularKind(named.st_mode) {
      return ImageProbe(
        .refused("it is \(kind), not a regular file; falls reads images only from regular files"),
        bytesRead: 0)
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else {
      return ImageProbe(.unreachable(SystemError.last.message), bytesRead: 0)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return ImageProbe(.unreachable(SystemError.last.message), bytesRead: 0)
    }
    guard Self.nonRegularKind(status.st_mode) == nil, status.st_dev == named.st_dev,
      status.st_ino == named.st_ino
    else {
      return ImageProbe(.refused("it was replaced by another file as it was opened"), bytesRead: 0)
    }
    if let system = FeedReader.pseudoFileSystem(descriptor) {
      return ImageProbe(
        .refused("it is a file of \(system), a view of the system, not an image file"),
        bytesRead: 0)
    }
    var bytes = ImageBytes()
    let length = Int(status.st_size)
    bytes.length = length
    var read = 0
    var ask = (offset: 0, count: rangeBytes)
    while true {
      let wanted = min(max(ask.count, ask.offset == 0 ? rangeBytes : stepBytes), mostBytes - read)
      let count = ask.offset < length ? min(wanted, length - ask.offset) : 0
      var buffer = [UInt8](repeating: 0, count: count)
      let got =
        count == 0
        ? 0
        : buffer.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress, count, off_t(ask.offset))
        }
      guard got >= 0 else {
        return ImageProbe(.unreachable(SystemError.last.message), bytesRead: read)
      }
      read += got
      bytes.add(Array(buffer.prefix(got)), at: ask.offset)
      let (reading, reach) = ImageHeaderReader.measuredRead(bytes)
      if let outcome = outcome(of: reading) {
        return ImageProbe(outcome, bytesRead: read, headerBytes: reach)
      }
      guard case .needsBytes(let offset, let needed) = reading, read < mostBytes, got > 0 else {
        return ImageProbe(noHeaderInBudget, bytesRead: read, headerBytes: reach)
      }
      let next = bytes.firstMissing(from: offset)
      ask = (next, max(1, needed - (next - offset)))
    }
  }

  /// What a file of `mode` is in words, unless it is a regular file.
  static func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  /// Reads the header of a `data:` URL's bytes (base64 or percent-encoded).
  static func probeData(_ location: String) -> ImageProbe {
    guard let comma = location.firstIndex(of: ",") else {
      return ImageProbe(.notAnImage("a data: URL without a comma before its data"), bytesRead: 0)
    }
    let header = location[..<comma].lowercased()
    let payload = String(location[location.index(after: comma)...])
    let data: Data? =
      header.hasSuffix(";base64")
      ? Data(base64Encoded: payload, options: .ignoreUnknownCharacters)
      : payload.removingPercentEncoding.map { Data($0.utf8) }
    guard let data else {
      return ImageProbe(.notAnImage("a data: URL whose data does not decode"), bytesRead: 0)
    }
    let bytes = Array(data.prefix(mostBytes))
    let (reading, reach) = ImageHeaderReader.measuredRead(
      ImageBytes(bytes, isWhole: bytes.count == data.count))
    return ImageProbe(
      outcome(of: reading) ?? noHeaderInBudget, bytesRead: bytes.count, headerBytes: reach)
  }
}
