import Foundation

/// The repository's documents: README.md, CONTRIBUTING.md, BENCHMARKS.md and the pages of
/// `docs/`, which tests hold to what falls does.
public enum Documents {
  /// The repository's root, above `Tests/Fixtures`.
  public static let root = Fixtures.directory.deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every Markdown document, by its path from the root: the three at the root, then `docs/`'s.
  public static let all: [String] = {
    let pages =
      (try? FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent("docs").path)) ?? []
    return ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md"]
      + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// The URL of a document, by its path from the root (`docs/cli.md`).
  public static func url(_ path: String) -> URL {
    root.appendingPathComponent(path)
  }

  /// The text of a document, by its path from the root.
  public static func text(_ path: String) throws -> String {
    try String(contentsOf: url(path), encoding: .utf8)
  }
}
