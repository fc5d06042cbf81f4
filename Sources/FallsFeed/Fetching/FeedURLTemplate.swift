import Foundation

/// A feed URL that may hold `{page}` (1-based) and `{size}` placeholders, for paginated APIs.
///
///     let template = try FeedURLTemplate("https://example.com/list?page={page}&per={size}")
///     template.url(page: 2, size: 20)  // https://example.com/list?page=2&per=20
///
/// Without `{page}`, every page is the same URL, fetched again, as a mock endpoint that returns
/// a fresh page on each request expects.
public struct FeedURLTemplate: Hashable, Sendable {
  /// Why a text is not a feed URL.
  public enum Problem: Error, Hashable, Sendable {
    /// The text does not parse as a URL.
    case unparseable
    /// The scheme is not http or https; it carries the scheme found, if any.
    case unsupportedScheme(String?)
    /// The URL has no host.
    case noHost
    /// The text holds `{name}`, a placeholder falls does not fill in (see ``placeholders``).
    case unknownPlaceholder(String)
  }

  /// The placeholders falls fills in: `{page}` (the page number, from 1) and `{size}`.
  public static let placeholders = ["page", "size"]

  /// The text as given, its scheme and host in lower case (they are case-insensitive, and
  /// URLSession sends them as written).
  public let text: String

  /// Whether `text` is meant as a URL rather than a file path: it starts with `http:` or
  /// `https:` (in any case), or has a scheme followed by `://`.
  public static func looksLikeURL(_ text: String) -> Bool {
    let lowered = text.lowercased()
    if lowered.hasPrefix("http:") || lowered.hasPrefix("https:") { return true }
    guard let separator = text.range(of: "://") else { return false }
    let scheme = text[..<separator.lowerBound]
    return !scheme.isEmpty
      && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
  }

  /// Checks `text` as an http or https URL, with its placeholders filled in.
  ///
  /// - Throws: ``Problem`` when the text is not an http or https URL with a host, or holds a
  ///   placeholder other than `{page}` and `{size}`.
  public init(_ text: String) throws(Problem) {
    let text = Self.lowercasingSchemeAndHost(text)
    self.text = text
    if let unknown = Self.unknownPlaceholder(in: text) { throw .unknownPlaceholder(unknown) }
    guard let url = URL(string: Self.expand(text, page: 1, size: 1)) else { throw .unparseable }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw .unsupportedScheme(url.scheme)
    }
    guard let host = url.host, !host.isEmpty else { throw .noHost }
  }

  /// Whether the URL changes with the page.
  public var isPaginated: Bool { text.contains("{page}") }

  /// Whether the URL asks for a page size: it holds `{size}`.
  public var hasPageSize: Bool { text.contains("{size}") }

  /// The URL of `page` (1-based) with `size` items per page.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public func url(page: Int, size: Int) -> URL {
    let expanded = Self.expand(text, page: page, size: size)
    // Checked in init: replacing one number by another keeps the URL valid.
    return URL(string: expanded) ?? URL(fileURLWithPath: "/")
  }

  /// The first `{name}` in `text` whose name is not one of ``placeholders``.
  private static func unknownPlaceholder(in text: String) -> String? {
    var rest = text[...]
    while let open = rest.firstIndex(of: "{") {
      rest = rest[rest.index(after: open)...]
      guard let close = rest.firstIndex(of: "}") else { return nil }
      let name = rest[..<close]
      if !name.isEmpty, !placeholders.contains(String(name)),
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
      {
        return String(name)
      }
    }
    return nil
  }

  /// `text` with the scheme and the host (not the user's name and password) in lower case.
  private static func lowercasingSchemeAndHost(_ text: String) -> String {
    guard let separator = text.range(of: "://") else { return text }
    let rest = text[separator.upperBound...]
    let authority = rest[..<(rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex)]
    let host = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? rest.startIndex
    return text[..<separator.lowerBound].lowercased() + "://" + rest[..<host]
      + rest[host..<authority.endIndex].lowercased() + rest[authority.endIndex...]
  }

  /// The URL a path that does not exist may have meant, `http://` + the path, when it starts
  /// like a host: a name with a dot, or with a port, before a slash
  /// (`www.example.com/feed.json`, `127.0.0.1:8080/feed.json`, `localhost:8080/feed`).
  public static func url(meantBy path: String) -> String? {
    guard let slash = path.firstIndex(of: "/") else { return nil }
    let first = path[..<slash]
    guard !first.isEmpty, first != ".", first != ".." else { return nil }
    let port = first.lastIndex(of: ":").map { first[first.index(after: $0)...] }
    guard first.contains(".") || (port.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false)
    else { return nil }
    return "http://" + path
  }

  private static func expand(_ text: String, page: Int, size: Int) -> String {
    text.replacingOccurrences(of: "{page}", with: String(page))
      .replacingOccurrences(of: "{size}", with: String(size))
  }
}
