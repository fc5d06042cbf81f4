import FallsCore
import FallsFeed
import Foundation

/// The feeds and goldens in `Tests/Fixtures`, found next to this source file so that tests run
/// from any working directory.
public enum Fixtures {
  /// The `Tests/Fixtures` directory.
  public static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// The real finderlist feeds copied from the shared demo data.
  public static let feedNames = [
    "jkr-finderlist-excerpt.json", "jkr-gz-1plist-urldims.json", "mj-shop-1.json",
    "mj-shop-2.json", "mj-shop-3.json", "xr-waterfall.json", "zx-shopdata.json",
  ]

  /// The path of a fixture file.
  public static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// The bytes of a fixture file.
  public static func data(_ name: String) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(name))
  }

  /// A real feed, decoded; it must have no invalid items.
  public static func feed(_ name: String) throws -> Feed {
    try FeedDecoder.decode(data(name))
  }

  /// A real feed's sizes.
  public static func layoutItems(_ name: String) throws -> [LayoutItem] {
    try feed(name).items.map(\.layoutItem)
  }
}

/// Feeds made from a seed, for property tests.
public enum GeneratedFeeds {
  /// `count` image sizes drawn from `seed`: widths 50...2000, heights 20...4000, and every
  /// fifth one a repeat of a common size so that columns tie and bottoms meet often.
  public static func items(count: Int, seed: UInt64) -> [LayoutItem] {
    var random = SplitMix64(seed: seed ^ 0xFA11)
    return (0..<count).map { _ in
      if random.next() % 5 == 0 { return LayoutItem(width: 200, height: 200) }
      let width = 50 + Double(random.next() % 1951)
      let height = 20 + Double(random.next() % 3981)
      return LayoutItem(width: width, height: height)
    }
  }
}

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
