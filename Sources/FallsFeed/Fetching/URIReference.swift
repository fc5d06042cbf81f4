/// A URI reference split into its five parts, and resolved against a base as RFC 3986 §5
/// resolves it: the one rule by which falls reads where an image of a feed is, and where a
/// redirect leads, as a browser reads `<img src>` and `Location`.
///
/// The parts are kept as written (no percent-decoding, no case folding) but for the scheme, which
/// is compared and kept in lower case: `HTTP://a/b` is `http://a/b`.
///
///     let base = URIReference("http://a/b/c/d;p?q")
///     URIReference("../g").resolved(against: base).text   // "http://a/b/g"
public struct URIReference: Hashable, Sendable {
  /// The scheme, in lower case, without its colon; `nil` for a relative reference.
  public var scheme: String?
  /// The authority (`user@host:port`), without its two slashes; `nil` when there is none (an
  /// empty one, as in `file:///x`, is `""`).
  public var authority: String?
  /// The path, possibly empty.
  public var path: String
  /// The query, without its `?`; `nil` when there is none.
  public var query: String?
  /// The fragment, without its `#`; `nil` when there is none.
  public var fragment: String?

  /// Splits `text` into its parts by RFC 3986's Appendix B; a scheme is taken only where the
  /// text before the first `:` is one by the grammar (a letter, then letters, digits, `+`, `-`
  /// and `.`), so that a path such as `1:2` stays a path.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  public init(_ text: String) {
    var rest = Substring(text)
    if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")),
      Self.isScheme(rest[..<colon]),
      !rest[..<colon].utf8.contains(where: { $0 == UInt8(ascii: "/") })
    {
      scheme = rest[..<colon].lowercased()
      rest = rest[rest.index(after: colon)...]
    }
    if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
    }
    if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
      query = String(rest[rest.index(after: question)...])
      rest = rest[..<question]
    }
    if rest.utf8.starts(with: "//".utf8) {
      rest = rest.dropFirst(2)
      let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
      authority = String(rest[..<end])
      rest = rest[end...]
    }
    path = String(rest)
  }

  /// A reference of these parts.
  public init(
    scheme: String?, authority: String?, path: String, query: String? = nil,
    fragment: String? = nil
  ) {
    self.scheme = scheme?.lowercased()
    self.authority = authority
    self.path = path
    self.query = query
    self.fragment = fragment
  }

  /// Whether `text` is a scheme by RFC 3986's grammar.
  static func isScheme(_ text: Substring) -> Bool {
    guard let first = text.utf8.first, Self.isLetter(first) else { return false }
    return text.utf8.allSatisfy { byte in
      isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  /// The reference written out again (RFC 3986 §5.3).
  public var text: String {
    var result = ""
    if let scheme { result += scheme + ":" }
    if let authority { result += "//" + authority }
    result += path
    if let query { result += "?" + query }
    if let fragment { result += "#" + fragment }
    return result
  }

  /// The target of this reference read in a document whose own URI is `base` (RFC 3986
  /// §5.2.2, strictly: a reference with a scheme is never read as relative).
  ///
  /// - Complexity: O(*n*) for *n* bytes of both.
  public func resolved(against base: URIReference) -> URIReference {
    if scheme != nil {
      return URIReference(
        scheme: scheme, authority: authority, path: Self.removingDotSegments(path),
        query: query, fragment: fragment)
    }
    var target = URIReference(
      scheme: base.scheme, authority: base.authority, path: "", query: query,
      fragment: fragment)
    if authority != nil {
      target.authority = authority
      target.path = Self.removingDotSegments(path)
    } else if path.isEmpty {
      target.path = base.path
      target.query = query ?? base.query
    } else if path.utf8.first == UInt8(ascii: "/") {
      target.path = Self.removingDotSegments(path)
    } else {
      target.path = Self.removingDotSegments(Self.merging(base, path))
    }
    return target
  }

  /// `path` after the base's path up to its last slash (RFC 3986 §5.2.3).
  static func merging(_ base: URIReference, _ path: String) -> String {
    if base.authority != nil, base.path.isEmpty { return "/" + path }
    guard let slash = base.path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(base.path[...slash]) + path
  }

  /// `path` without its `.` and `..` segments (RFC 3986 §5.2.4).
  ///
  /// - Complexity: O(*n*) for *n* bytes: each segment is moved once.
  static func removingDotSegments(_ path: String) -> String {
    // The output as segments, each with the slash that starts it (the first may have none).
    var output: [Substring] = []
    var input = Substring(path)
    while !input.isEmpty {
      if input.hasPrefix("../") {
        input = input.dropFirst(3)
      } else if input.hasPrefix("./") {
        input = input.dropFirst(2)
      } else if input.hasPrefix("/./") {
        input = input.dropFirst(2)
      } else if input == "/." {
        input = "/"
      } else if input.hasPrefix("/../") {
        input = input.dropFirst(3)
        _ = output.popLast()
      } else if input == "/.." {
        input = "/"
        _ = output.popLast()
      } else if input == "." || input == ".." {
        input = ""
      } else {
        // The first segment, with its leading slash if any, up to the next slash.
        let start =
          input.utf8.first == UInt8(ascii: "/")
          ? input.index(after: input.startIndex) : input.startIndex
        let end = input[start...].utf8.firstIndex(of: UInt8(ascii: "/")) ?? input.endIndex
        output.append(input[..<end])
        input = input[end...]
      }
    }
    return output.joined()
  }
}
