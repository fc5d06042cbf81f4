import FallsBase
import Foundation
import Synchronization

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
    /// It could not be had: no answer, a non-2xx status, a file that cannot be read.
    case unreachable(String)
  }

  public var outcome: Outcome
  /// How many bytes of it were read.
  public var bytesRead: Int

  public init(_ outcome: Outcome, bytesRead: Int) {
    self.outcome = outcome
    self.bytesRead = bytesRead
  }
}

/// Reads the headers of images: over HTTP by ranges, from files by offsets, from `data:` URLs
/// as they are.
///
/// An HTTP image is asked for its first 64 KiB (`Range: bytes=0-65535`). A server that honours
/// the range answers 206 with them; one that ignores it answers 200 with the whole file, which
/// is read only until the header is (the request then ends). When the header lies further (a
/// JPEG whose EXIF or ICC segments come before its frame header), the segments are skipped by
/// their lengths and the bytes after them asked for with further ranges. No image costs more
/// than ``mostBytes``. Requests go through the fetcher, with its deadlines and retries.
public struct ImageProber: Sendable {
  /// How requests are made: the policy's timeout, retries and one deadline.
  public var fetcher: FeedFetcher

  /// The first bytes asked for.
  public static let rangeBytes = 1 << 16
  /// The least asked for at a time after the first bytes: a segment's header and a little more,
  /// so that a long segment is skipped without reading it.
  public static let stepBytes = 1 << 12
  /// The most bytes read of one image, over all its requests.
  public static let mostBytes = 1 << 20

  public init(fetcher: FeedFetcher) {
    self.fetcher = fetcher
  }

  /// Reads the header of the image at `location`: an http or https URL, a `file:` URL or a
  /// path, or a `data:` URL.
  public func probe(_ location: String) async -> ImageProbe {
    let lower = location.lowercased()
    if lower.hasPrefix("data:") { return Self.probeData(location) }
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
      guard let url = URL(string: location) else {
        return ImageProbe(.unreachable("it is not a valid URL"), bytesRead: 0)
      }
      return await probeHTTP(url)
    }
    if lower.hasPrefix("file:") {
      guard let url = URL(string: location), url.isFileURL,
        url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true
      else {
        return ImageProbe(.unreachable("it is not a file URL of this machine"), bytesRead: 0)
      }
      return Self.probeFile(url.path)
    }
    if let colon = location.firstIndex(of: ":"),
      location[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
      location.distance(from: location.startIndex, to: colon) > 1
    {
      let scheme = shownInMessage(String(location[..<colon]))
      return ImageProbe(
        .unreachable("its scheme '\(scheme)' is not one falls reads (http, https, file, data)"),
        bytesRead: 0)
    }
    return Self.probeFile(location)
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
    var bytes = ImageBytes()
    var read = 0
    var ask = (offset: 0, count: Self.rangeBytes)
    while true {
      let budget = Self.mostBytes - read
      let isFirstAsk = ask.offset == 0
      let end =
        ask.offset + min(max(ask.count, isFirstAsk ? Self.rangeBytes : Self.stepBytes), budget) - 1
      let isFirst = ask.offset == 0
      // The first answer may be a whole file from a server that ignores ranges: it is read
      // until its header is. The reader is asked again only once the bytes it asked for came.
      let needed = Mutex(0)
      let enough: @Sendable (Data) -> Bool = { data in
        guard isFirst else { return false }
        guard data.count >= needed.withLock({ $0 }) else { return false }
        let reading = ImageHeaderReader.read(ImageBytes(Array(data)))
        guard case .needsBytes(let offset, let count) = reading else { return true }
        needed.withLock { $0 = offset + count }
        return false
      }
      let request = FetchRequest(
        headers: ["Range": "bytes=\(ask.offset)-\(end)", "Accept": "image/*"], maxBytes: budget,
        enough: enough, answerStatuses: [416])
      let response: HTTPResponse
      do {
        response = try await fetcher.fetch(url, request: request)
      } catch {
        let tries = error.attempts > 1 ? " after \(error.attempts) attempts" : ""
        return ImageProbe(.unreachable(error.cause.description + tries), bytesRead: read)
      }
      read += response.body.count
      let range = Self.contentRange(response.headers["content-range"])
      switch response.status {
      case 206 where !response.body.isEmpty:
        bytes.add(Array(response.body), at: range?.start ?? ask.offset)
        if let total = range?.total { bytes.length = total }
      case 206, 416:
        // Nothing from where it was asked: the file is shorter than its header needs.
        bytes.length = range?.total ?? ask.offset
      default:
        // The whole file from its start, or as much of it as was read.
        bytes = ImageBytes(Array(response.body), isWhole: !response.isCut)
      }
      let reading = ImageHeaderReader.read(bytes)
      if let outcome = Self.outcome(of: reading) { return ImageProbe(outcome, bytesRead: read) }
      // Still short of the header: further on by a range, unless the bytes it may read are
      // spent, or the server ignores ranges (its whole file read as far as it may be).
      guard case .needsBytes(let offset, let count) = reading, read < Self.mostBytes,
        response.status == 206
      else {
        return ImageProbe(Self.noHeaderInBudget, bytesRead: read)
      }
      ask = (offset, count)
    }
  }

  /// A `Content-Range` of `bytes START-END/TOTAL` (TOTAL may be `*`), or `bytes */TOTAL`.
  static func contentRange(_ value: String?) -> (start: Int?, total: Int?)? {
    guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
    let body = value.dropFirst(6)
    let parts = body.split(separator: "/", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    let start = parts[0].split(separator: "-").first.flatMap { Int($0) }
    return (start, Int(parts[1]))
  }

  // MARK: Files and data: URLs

  /// Reads the header of the file at `path` by offsets, as the reader asks.
  static func probeFile(_ path: String) -> ImageProbe {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return ImageProbe(.unreachable(SystemError.last.message), bytesRead: 0)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return ImageProbe(.unreachable(SystemError.last.message), bytesRead: 0)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      return ImageProbe(.unreachable("it is not a regular file"), bytesRead: 0)
    }
    var bytes = ImageBytes()
    bytes.length = Int(status.st_size)
    var read = 0
    var ask = (offset: 0, count: rangeBytes)
    while true {
      let count = min(max(ask.count, ask.offset == 0 ? rangeBytes : stepBytes), mostBytes - read)
      var buffer = [UInt8](repeating: 0, count: count)
      let got = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, count, off_t(ask.offset))
      }
      guard got >= 0 else {
        return ImageProbe(.unreachable(SystemError.last.message), bytesRead: read)
      }
      read += got
      bytes.add(Array(buffer.prefix(got)), at: ask.offset)
      let reading = ImageHeaderReader.read(bytes)
      if let outcome = outcome(of: reading) { return ImageProbe(outcome, bytesRead: read) }
      guard case .needsBytes(let offset, let needed) = reading, read < mostBytes, got > 0 else {
        return ImageProbe(noHeaderInBudget, bytesRead: read)
      }
      ask = (offset, needed)
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
    let reading = ImageHeaderReader.read(ImageBytes(bytes, isWhole: bytes.count == data.count))
    return ImageProbe(outcome(of: reading) ?? noHeaderInBudget, bytesRead: bytes.count)
  }
}
