import FallsBase
import Foundation

/// Where a feed came from: what its images' references are read against, and what they may
/// reach.
public enum FeedLocation: Hashable, Sendable {
  /// Fetched over http or https; the URL is the one that gave the feed, after redirects.
  case web(URL)
  /// A feed file, by its path (absolute, or from the current folder).
  case file(path: String)
  /// Standard input, the built-in feed or generated items: the current folder is the base.
  case currentFolder

  /// The feed's own URI, which relative references are read against.
  var base: URIReference {
    switch self {
    case .web(let url): return URIReference(url.absoluteString)
    case .file(let path): return Self.fileURI(path)
    case .currentFolder: return Self.fileURI(Self.workingFolder + "/")
    }
  }

  /// Whether the feed came over the network, so that its images may not name local files.
  public var isRemote: Bool {
    if case .web = self { true } else { false }
  }

  private static var workingFolder: String {
    FileManager.default.currentDirectoryPath
  }

  /// The `file:` URI of `path`, made absolute from the current folder, its bytes that a path
  /// segment may not hold percent-encoded.
  static func fileURI(_ path: String) -> URIReference {
    let absolute = path.hasPrefix("/") ? path : workingFolder + "/" + path
    return URIReference(scheme: "file", authority: "", path: percentEncodingPath(absolute))
  }

  /// `path` with `%`, `?`, `#` and the bytes outside printable ASCII percent-encoded, so that a
  /// file's path reads back as itself.
  static func percentEncodingPath(_ path: String) -> String {
    var result = ""
    for byte in path.utf8 {
      if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?")
        || byte == UInt8(ascii: "#")
      {
        result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      } else {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return result
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

/// Where a feed's image is and how falls reads it, by one rule: its `img` read as a browser
/// reads `<img src>` in a page at the feed's location (RFC 3986 §5, ``URIReference``), then
/// judged by what a feed from there may reach.
///
/// - A feed fetched over http or https may point at http, https and `data:` images only: a
///   `file:` URL is refused unless the user trusts the feed (`allowingLocal`), and a relative
///   reference (`a.png`, `/a.png`, `../a.png`) is the feed server's, never a local file.
/// - A feed file's references are read against its folder; those of standard input and of the
///   built-in feed against the current folder. They may name local files.
/// - A reference holding a NUL, or of any other scheme (`ftp:`, `javascript:`), is refused
///   wherever the feed came from. Schemes are compared in any case (`HTTP://`).
public enum ImageSource: Hashable, Sendable {
  /// An image over http or https.
  case web(URL)
  /// A `data:` URL, its bytes in the reference itself.
  case data(String)
  /// A file of this machine.
  case file(path: String)
  /// Not read, and why.
  case refused(String)

  /// Where `reference`, an item's `img` in a feed from `location`, points.
  ///
  /// - Complexity: O(*n*) for *n* bytes of the reference and the location.
  public init(_ reference: String, in location: FeedLocation, allowingLocal: Bool = false) {
    guard !reference.utf8.contains(0) else {
      self = .refused("it holds a NUL character, which no URL or file name can")
      return
    }
    let parsed = URIReference(reference)
    // A data: URL's bytes are its own: no dot segment of them is removed.
    if parsed.scheme == "data" {
      self = .data(reference)
      return
    }
    let target = parsed.resolved(against: location.base)
    switch target.scheme {
    case "http", "https":
      // Judged by the URL that would be fetched: an authority such as ":" has no host.
      guard
        let url = URL(string: target.text)
          ?? URL(string: target.text, encodingInvalidCharacters: true),
        url.scheme?.lowercased() == target.scheme, url.host.map({ !$0.isEmpty }) == true
      else {
        self = .refused("it is not a valid \(target.scheme ?? "") URL")
        return
      }
      self = .web(url)
    case "file":
      if location.isRemote, !allowingLocal {
        self = .refused(
          "it names a file of this machine (\(shownInMessage(target.text))) and the feed came "
            + "over the network; falls reads only http, https and data: images of a remote feed "
            + "unless --allow-local-images is given")
        return
      }
      guard target.authority.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true else {
        self = .refused("it is a file URL of another host")
        return
      }
      let path = Self.percentDecoded(target.path)
      guard !path.utf8.contains(0), !path.isEmpty else {
        self = .refused("its path holds a NUL character")
        return
      }
      self = .file(path: path)
    default:
      let scheme = shownInMessage(target.scheme ?? "")
      self = .refused("its scheme '\(scheme)' is not one falls reads (http, https, data, file)")
    }
  }

  /// `text` with each valid `%XX` replaced by its byte; anything else kept as it is.
  static func percentDecoded(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var input = text.utf8[...]
    while let byte = input.popFirst() {
      if byte == UInt8(ascii: "%"), input.count >= 2,
        let high = hexValue(input[input.startIndex]),
        let low = hexValue(input[input.index(after: input.startIndex)])
      {
        bytes.append(high << 4 | low)
        input = input.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
