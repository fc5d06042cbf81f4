import FallsCore

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
