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
