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
  }

  /// The text as given.
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
  /// - Throws: ``Problem`` when the text is not an http or https URL with a host.
  public init(_ text: String) throws(Problem) {
    self.text = text
    guard let url = URL(string: Self.expand(text, page: 1, size: 1)) else { throw .unparseable }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw .unsupportedScheme(url.scheme)
    }
    guard let host = url.host, !host.isEmpty else { throw .noHost }
  }

  /// Whether the URL changes with the page.
  public var isPaginated: Bool { text.contains("{page}") }

  /// The URL of `page` (1-based) with `size` items per page.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public func url(page: Int, size: Int) -> URL {
    let expanded = Self.expand(text, page: page, size: size)
    // Checked in init: replacing one number by another keeps the URL valid.
    return URL(string: expanded) ?? URL(fileURLWithPath: "/")
  }

  private static func expand(_ text: String, page: Int, size: Int) -> String {
    text.replacingOccurrences(of: "{page}", with: String(page))
      .replacingOccurrences(of: "{size}", with: String(size))
  }
}
