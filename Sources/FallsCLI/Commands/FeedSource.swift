import FallsBase
import FallsCore
import FallsFeed

/// Where `falls layout` reads its feed from.
enum FeedSource: Equatable, Sendable {
  /// The feed compiled into the binary.
  case embedded
  /// Standard input (`--feed -`).
  case standardInput
  /// A file.
  case file(String)
  /// Generated items (`--synthetic N`), heights between a minimum and a maximum.
  case synthetic(count: Int, minimumHeight: Double, maximumHeight: Double)
  /// An http or https URL, possibly with `{page}` and `{size}` placeholders.
  case url(FeedURLTemplate)
}

/// The kinds of feed, which decide the flags a run takes (``LayoutFlag/feeds``).
enum FeedKind: CaseIterable, Hashable, Sendable {
  case builtIn, file, standardInput, url, generated

  /// The kind, for messages: "--retries does not apply to a feed file".
  var description: String {
    switch self {
    case .builtIn: "the built-in feed"
    case .file: "a feed file"
    case .standardInput: "standard input"
    case .url: "a URL feed"
    case .generated: "generated items (--synthetic)"
    }
  }
}

extension Set<FeedKind> {
  /// The kinds, for messages and help: "a URL feed, a feed file or standard input".
  var description: String {
    let names = FeedKind.allCases.filter(contains).map(\.description)
    return names.count < 2
      ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }
}

extension FeedSource {
  /// The feed as the JSON document names it, so that a script can tell what was laid out: the
  /// URL as given (its password as `***`), the path, `-` for standard input, `built-in` or
  /// `synthetic`.
  var name: String {
    switch self {
    case .embedded: "built-in"
    case .standardInput: "-"
    case .file(let path): path
    case .synthetic: "synthetic"
    case .url(let template): redactingCredentials(template.text)
    }
  }

  var kind: FeedKind {
    switch self {
    case .embedded: .builtIn
    case .standardInput: .standardInput
    case .file: .file
    case .synthetic: .generated
    case .url: .url
    }
  }
}
