import FallsCheckers
import FallsFixtures
import Foundation
import Testing

@testable import FallsCore

@Suite struct SpreadAlignmentTests {
  /// Two or more columns of exactly 100 pt (spacing 10, no insets), spread alignment.
  private static func spread(
    columns: Int = 2, chance: Double = 0, bound: Double = 0.1, flatEnd: Bool = false
  ) -> LayoutConfiguration {
    LayoutConfiguration(
      style: .irregular, width: Double(columns) * 110 - 10, columns: columns, columnSpacing: 10,
      rowSpacing: 10, insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0),
      enlargeChance: chance, alignment: .spread, maxDistortion: bound, flatEnd: flatEnd)
  }

  /// `items` laid out by `configuration`, each page (append) from one of `starts` to the next.
  static func paged(
    _ configuration: LayoutConfiguration, _ items: [LayoutItem], starts: [Int]
  ) throws -> WaterfallLayout {
    var layout = try WaterfallLayout(configuration)
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1] : items.count
      try layout.append(Array(items[start..<end]))
    }
    return layout
  }

  private static func items(_ heights: [Double]) -> [LayoutItem] {
    heights.map { LayoutItem(width: 100, height: $0) }
  }

  @Test(
    "A run of one item takes the seed's correction whenever it is within the bound: the rule generalises the seed's",
    arguments: [
      // A (100) and B (100) meet at 100: both columns' edges are fixed. C (100) in column 0
      // ends at 210; D, of natural height h from 110 in column 1, is a run of one, |100 − h|
      // from C's bottom: the seed aligns it within 0.2 h.
      (95.0, "seed"), (110.0, "seed"), (120.0, "none"), (60.0, "none"),
      // 12/88 = 13.6%: the seed's correction is past the bound; halfway with C, 12/188 = 6.4%.
      (88.0, "halfway"),
    ])
  func seedGeneralised(height: Double, expected: String) throws {
    let sizes = Self.items([100, 100, 100, height])
    let spread = try WaterfallLayout(Self.spread(), items: sizes)
    var seedConfiguration = Self.spread()
    seedConfiguration.alignment = .seed
    let seed = try WaterfallLayout(seedConfiguration, items: sizes)
    #expect(spread.elements[2] == seed.elements[2] || expected == "halfway")
    let d = spread.elements[3]
    switch expected {
    case "seed":
      #expect(d == seed.elements[3] && d.frame.maxY == 210 && d.isAligned)
    case "halfway":
      #expect(seed.elements[3].frame.maxY == 210)
      let line = 110 + height + (210 - 110 - height) * height / (height + 100)
      #expect(abs(d.frame.maxY - line) < 1e-9 && spread.elements[2].frame.maxY == d.frame.maxY)
    default:
      #expect(d.frame.height == height && !d.isAligned)
    }
    #expect(
      SpreadChecker(configuration: Self.spread(), items: sizes).violations(of: spread.elements)
        .isEmpty)
  }

  @Test("Halfway, worked by hand: a run of three items and one of one meet, each moved by 3%")
  func halfway() throws {
    // A (100) in column 0, B (250) in column 1; C (100) in column 0 from 110 ends at 210, 40
    // short of B: a run of two (200 pt) would move 20%, halfway with B 40/450 = 8.9%, past 70%
    // of the bound: no correction. D (45) in column 0 from 220 ends at 265, 15 past B: alone
    // its run of A, C, D (245 pt) would move 15/245 = 6.1%, halfway 15/495 = 3.0%: halfway, at
    // 265 − 15 · 245/495.
    let sizes = Self.items([100, 250, 100, 45])
    let layout = try WaterfallLayout(Self.spread(), items: sizes)
    let frames = layout.elements.map(\.frame)
    let line = 265 - 15 * (245.0 / 495)
    #expect(abs(frames[3].maxY - line) < 1e-9)
    #expect(frames[1].maxY == frames[3].maxY)
    #expect(frames[1].y == 0 && abs(frames[1].height - line) < 1e-9)
    // Column 0's run scaled by one factor from the column's start, stacked exactly.
    let factor = (line - 20) / 245
    #expect(frames[0].y == 0 && abs(frames[0].height - 100 * factor) < 1e-9)
    #expect(frames[2].y == frames[0].maxY + 10 && abs(frames[2].height - 100 * factor) < 1e-9)
    #expect(frames[3].y == frames[2].maxY + 10)
    #expect(layout.elements.allSatisfy { $0.isAligned })
    let quality = try #require(LayoutQuality(of: layout, items: sizes))
    #expect(abs(quality.maxDistortion - 15.0 / 495) < 1e-9)
    #expect(
      SpreadChecker(configuration: Self.spread(), items: sizes)
        .violations(of: layout.elements).isEmpty)
  }

  @Test(
    "Property: the contract holds over many layouts (checked independently), and no height moves past the bound",
    arguments: 0..<60)
  func contract(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &* 977 &+ 5)
    let columns = 2 + Int(random.next() % 4)
    var configuration = LayoutConfiguration(
      columns: columns, seed: random.next(), alignment: .spread,
      maxDistortion: [0.05, 0.1, 0.15, 0.3][Int(random.next() % 4)],
      flatEnd: random.draw(0.3))
    configuration.alignTolerance = [0.1, 0.2, 0.5][Int(random.next() % 3)]
    let count = 20 + Int(random.next() % 300)
    let items = (0..<count).map { _ in
      LayoutItem(
        width: 200 + random.nextUnit() * 1800, height: 200 + random.nextUnit() * 2800,
        span: random.draw(0.03) ? 2 : 1)
    }
    // Pages of random sizes.
    var starts = [0]
    while let last = starts.last, last < count - 1, random.draw(0.7) {
      starts.append(last + 1 + Int(random.next() % UInt64(max(1, count / 3))))
    }
    starts = starts.filter { $0 < count }
    var layout = try Self.paged(configuration, items, starts: starts)
    // The checker replays the placement; the flat end, made after it, moves only the last page
    // and keeps the bound.
    let problems = SpreadChecker(configuration: configuration, items: items, pageStarts: starts)
      .violations(of: layout.elements)
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    let placed = layout.elements
    layout.flattenEnd()
    let lastPageStart = starts.last ?? 0
    #expect(Array(layout.elements.prefix(lastPageStart)) == Array(placed.prefix(lastPageStart)))
    let quality = try #require(LayoutQuality(of: layout, items: items))
    #expect(quality.maxDistortion <= configuration.maxDistortion)
  }

  @Test(
    "The real feeds, laid out as the viewer pages them: the checker finds every rule kept",
    arguments: Fixtures.feedNames)
  func realFeeds(feed: String) throws {
    let items = try Fixtures.layoutItems(feed)
    for seed in UInt64(1)...5 {
      for columns in 2...5 {
        let configuration = LayoutConfiguration(
          columns: columns, seed: seed, alignment: .spread,
          maxDistortion: [0.05, 0.1, 0.2][Int(seed) % 3], flatEnd: seed % 2 == 0)
        // Pages of 20, as `falls view` and `--page-size` load them.
        let starts = Array(stride(from: 0, to: items.count, by: 20))
        let layout = try Self.paged(configuration, items, starts: starts)
        let problems = SpreadChecker(
          configuration: configuration, items: items, pageStarts: starts
        ).violations(of: layout.elements)
        #expect(problems.isEmpty, "\(feed) seed \(seed), \(columns) columns: \(problems.prefix(2))")
      }
    }
  }

  @Test(
    "Property: no height moves past the bound, over thousands of layouts of every bound",
    arguments: 0..<8)
  func boundHolds(batch: UInt64) throws {
    var random = SplitMix64(seed: batch &* 7919 &+ 1)
    for _ in 0..<300 {
      let bound = [0.02, 0.05, 0.1, 0.2][Int(random.next() % 4)]
      let configuration = LayoutConfiguration(
        width: 300 + random.nextUnit() * 900, columns: 2 + Int(random.next() % 6),
        seed: random.next(), alignTolerance: random.nextUnit() * 0.9, alignment: .spread,
        maxDistortion: bound, flatEnd: random.draw(0.3))
      let items = (0..<(10 + Int(random.next() % 120))).map { _ in
        LayoutItem(width: 200 + random.nextUnit() * 1800, height: 200 + random.nextUnit() * 2800)
      }
      var layout = try WaterfallLayout(configuration, items: items)
      layout.flattenEnd()
      let quality = try #require(LayoutQuality(of: layout, items: items))
      #expect(quality.maxDistortion <= bound, "\(configuration)")
    }
  }

  /// Inputs the layout fuzz target found where the checker and the engine disagreed, each put
  /// right on the side that was wrong; `Tests/Fixtures/spread-fuzz` holds them, each with what
  /// it showed.
  @Test("The fuzzer's inputs are all found and read")
  func fuzzFoundAreThere() throws {
    // The test below takes its cases from the directory: none found would pass it vacuously.
    let names = FuzzCase.names
    #expect(names.count >= 12)
    for name in names {
      let found = try FuzzCase(named: name)
      #expect(!found.about.isEmpty && !found.items.isEmpty && found.pageStarts.first == 0)
    }
  }

  @Test("Inputs the fuzzer found: the checker finds every rule kept", arguments: FuzzCase.names)
  func fuzzFound(name: String) throws {
    let found = try FuzzCase(named: name)
    let layout = try found.layout()
    let problems = SpreadChecker(
      configuration: found.configuration, items: found.items, pageStarts: found.pageStarts
    ).violations(of: layout.elements)
    #expect(problems.isEmpty, "\(name): \(problems.prefix(2))")
  }

  @Test("A halfway meeting's line is where the placed item's frame ends")
  func halfwayLineIsTheFrames() throws {
    // Items 7 and 8, from one top, meet halfway on a line neither frame can end on (a rounding
    // tie), so both end an ulp off it; item 9 then meets that line from another top, exactly.
    let found = try FuzzCase(named: "halfway-line-is-the-frames")
    let elements = try found.layout().elements
    try #require(elements[7].column == 3 && elements[8].column == 4)
    try #require(elements[7].frame.y == elements[8].frame.y && elements[7].isAligned)
    let line = elements[8].frame.maxY
    #expect(elements[7].frame.maxY == line)
    // Item 9 meets the line in column 2, and the three columns are level after it.
    #expect(elements[9].column == 2 && elements[9].frame.maxY == line)
    let tenth = try WaterfallLayout(found.configuration, items: Array(found.items[..<10]))
    #expect(Array(tenth.columnBottoms[2...4]) == [line, line, line])
  }

  @Test("Far down, a miss of a few ulps of the position is not corrected")
  func farDownUlpsAreNoCorrection() throws {
    // 1.1·10^10 pt down, column 2's run of three items missed column 1's bottom by 2 ulps of the
    // position: a correction of 1.7·10^-8 that the rounding of the positions hides.
    let found = try FuzzCase(named: "far-down-ulps-are-no-correction")
    let elements = try found.layout().elements
    try #require([36, 38, 41].allSatisfy { elements[$0].column == 2 })
    #expect([36, 38, 41].allSatisfy { !elements[$0].isAligned })
  }

  @Test("Columns an ulp of rounding apart are not corrected")
  func roundingIsNoCorrection() throws {
    // Column 0 stacks 0.1 and 0.2 (10 apart), column 1 holds 10.3: the sums differ by an ulp.
    let items = Self.items([0.1, 10.3, 0.2])
    let configuration = Self.spread(bound: 0.1)
    let layout = try WaterfallLayout(configuration, items: items)
    let frames = layout.elements.map(\.frame)
    try #require(layout.elements.map(\.column) == [0, 1, 0])
    try #require(frames[2].maxY.nextUp == frames[1].maxY)
    // The third item keeps its natural height: an ulp is no correction (levelling the columns
    // by one, as the engine did, fixes an edge that no frame shows).
    #expect(frames[2].height == 100 * 0.2 / 100 && !layout.elements[2].isAligned)
    #expect(layout.columnBottoms[0] != layout.columnBottoms[1])
    #expect(
      SpreadChecker(configuration: configuration, items: items).violations(of: layout.elements)
        .isEmpty)
  }

  @Test("The checker fails layouts that break the contract")
  func checkerCatches() throws {
    let items = GeneratedFeeds.items(count: 200, seed: 9).enumerated().map {
      LayoutItem(
        width: $0.element.width, height: $0.element.height * (1 + Double($0.offset % 7) / 3))
    }
    let configuration = LayoutConfiguration(columns: 3, seed: 4, alignment: .spread)
    let good = try WaterfallLayout(configuration, items: items).elements
    let checker = SpreadChecker(configuration: configuration, items: items)
    #expect(checker.violations(of: good).isEmpty)
    // The seed's corrections, by up to 20%, are past the bound.
    var seed = configuration
    seed.alignment = .seed
    let seedElements = try WaterfallLayout(seed, items: items).elements
    #expect(checker.violations(of: seedElements).contains { $0.contains("above 0.1") })
    // An item one point lower breaks the stack below it.
    var moved = good
    moved[100].frame.y += 1
    #expect(!checker.violations(of: moved).isEmpty)
    // A run scaled without meeting anything.
    var scaled = good
    if let last = scaled.indices.last(where: { !scaled[$0].isEnlarged && scaled[$0].span == 1 }) {
      scaled[last].frame.height *= 1.05
    }
    #expect(!checker.violations(of: scaled).isEmpty)
  }

  @Test(
    "Property: pages are prefix-stable: a page never moves an item of an earlier one",
    arguments: 0..<20)
  func prefixStable(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 41)
    let configuration = LayoutConfiguration(columns: 3, seed: seed, alignment: .spread)
    let pages = (0..<5).map { _ in
      (0..<(1 + Int(random.next() % 30))).map { _ in
        LayoutItem(width: 200 + random.nextUnit() * 1800, height: 200 + random.nextUnit() * 2800)
      }
    }
    var layout = try WaterfallLayout(configuration)
    var before: [LayoutElement] = []
    for page in pages {
      try layout.append(page)
      #expect(Array(layout.elements.prefix(before.count)) == before)
      before = layout.elements
    }
  }

  @Test("The flat end brings the ends to one line where the runs can reach it")
  func flatEnd() throws {
    // A and B meet at 100. C (100) ends column 0 at 210; D (120) ends column 1 at 230: 20 apart,
    // halfway 20/220 = 9.1%, past 70% of the bound, so no correction. The flat end meets at
    // 210 + 20 · 100/220, each run moved by 9.1%, within the bound.
    let sizes = Self.items([100, 100, 100, 120])
    var layout = try WaterfallLayout(Self.spread(flatEnd: true), items: sizes)
    #expect(layout.columnBottoms == [210, 230])
    let before = try #require(LayoutQuality(of: layout, items: sizes))
    layout.flattenEnd()
    let after = try #require(LayoutQuality(of: layout, items: sizes))
    #expect(before.raggedEnd > 0)
    #expect(after.raggedEnd == 0)
    let line = 210 + 20 * (100.0 / 220)
    let bottoms = layout.columnBottoms.compactMap { $0 }
    #expect(
      bottoms.count == 2 && bottoms[0] == bottoms[1] && abs(bottoms[0] - line) < 1e-9,
      "\(bottoms) \(line)")
    #expect(abs(after.maxDistortion - 20.0 / 220) < 1e-9)
    #expect(layout.contentExtent == bottoms[0])
    // The earlier items stay; the rect query sees the moved frames.
    #expect(layout.elements[0].frame.height == 100 && layout.elements[1].frame.height == 100)
    let found = layout.elements(in: Rect(x: 0, y: 215, width: 210, height: 3))
    #expect(found.map(\.index).sorted() == [2, 3])
    #expect(
      SpreadChecker(configuration: Self.spread(flatEnd: true), items: sizes)
        .violations(of: layout.elements).isEmpty)
  }

  @Test("Without a flat end, flattenEnd() changes nothing")
  func noFlatEnd() throws {
    let sizes = GeneratedFeeds.items(count: 100, seed: 3)
    var layout = try WaterfallLayout(Self.spread(columns: 3, chance: 0.5), items: sizes)
    let elements = layout.elements
    layout.flattenEnd()
    #expect(layout.elements == elements)
  }
}

/// An input the layout fuzz target found, from `Tests/Fixtures/spread-fuzz`: a configuration of
/// the irregular style under `spread`, the pages and the items (each `[width, height, span]`).
private struct FuzzCase: Decodable {
  /// What the input showed, and what was wrong.
  var about: String
  var configuration: LayoutConfiguration
  var pageStarts: [Int]
  var items: [LayoutItem]

  static let directory = Fixtures.directory.appendingPathComponent("spread-fuzz")

  /// The inputs' names, the files' without `.json`.
  static var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }

  init(named name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name + ".json"))
    self = try JSONDecoder().decode(Self.self, from: data)
  }

  private enum Keys: String, CodingKey {
    case about, configuration, pageStarts, items
    case width, columns, columnSpacing, rowSpacing, insets, seed, enlargeChance, alignTolerance
    case maxDistortion, flatEnd, top, left, bottom, right
  }

  private struct Size: Decodable {
    var item: LayoutItem
    init(from decoder: any Decoder) throws {
      var fields = try decoder.unkeyedContainer()
      item = LayoutItem(
        width: try fields.decode(Double.self), height: try fields.decode(Double.self),
        span: try fields.decode(Int.self))
    }
  }

  init(from decoder: any Decoder) throws {
    let top = try decoder.container(keyedBy: Keys.self)
    about = try top.decode(String.self, forKey: .about)
    pageStarts = try top.decode([Int].self, forKey: .pageStarts)
    items = try top.decode([Size].self, forKey: .items).map(\.item)
    let fields = try top.nestedContainer(keyedBy: Keys.self, forKey: .configuration)
    let insets = try fields.nestedContainer(keyedBy: Keys.self, forKey: .insets)
    func number(_ key: Keys, in container: KeyedDecodingContainer<Keys> = fields) throws -> Double {
      try container.decode(Double.self, forKey: key)
    }
    // The seed is a string: a UInt64 past Int64's range.
    let seed = try fields.decode(String.self, forKey: .seed)
    guard let seed = UInt64(seed) else {
      throw DecodingError.dataCorruptedError(
        forKey: .seed, in: fields, debugDescription: "\(seed) is not a UInt64")
    }
    configuration = LayoutConfiguration(
      style: .irregular, width: try number(.width),
      columns: try fields.decode(Int.self, forKey: .columns),
      columnSpacing: try number(.columnSpacing), rowSpacing: try number(.rowSpacing),
      insets: EdgeInsets(
        top: try number(.top, in: insets), left: try number(.left, in: insets),
        bottom: try number(.bottom, in: insets), right: try number(.right, in: insets)),
      seed: seed, enlargeChance: try number(.enlargeChance),
      alignTolerance: try number(.alignTolerance), alignment: .spread,
      maxDistortion: try number(.maxDistortion),
      flatEnd: try fields.decode(Bool.self, forKey: .flatEnd))
  }

  /// The items laid out in the input's pages (before any flat end).
  func layout() throws -> WaterfallLayout {
    try SpreadAlignmentTests.paged(configuration, items, starts: pageStarts)
  }
}
