import FallsCheckers
import Testing

@testable import FallsCore

/// A random layout of any style and option the rect query must handle.
private func randomLayout(seed: UInt64) throws -> WaterfallLayout {
  var random = SplitMix64(seed: seed &* 7919 &+ 3)
  let styles: [LayoutStyle] = [.irregular, .waterfall, .grid, .circle]
  let style = styles[Int(random.next() % UInt64(styles.count))]
  var configuration = LayoutConfiguration(
    style: style, width: 320 + random.nextUnit() * 700, columns: 1 + Int(random.next() % 6),
    columnSpacing: Double(random.next() % 3) * 5, rowSpacing: Double(random.next() % 3) * 4,
    seed: random.next(), enlargeChance: random.nextUnit())
  if style == .grid {
    configuration.columns = 3
  }
  if style.family == .columns {
    configuration.order = PlacementOrder.allCases[Int(random.next() % 3)]
    if configuration.order == .shortest, random.next() % 2 == 0 { configuration.tolerance = 20 }
  }
  if style.family != .ring {
    if random.next() % 3 == 0 { configuration.direction = .rightToLeft }
    if random.next() % 3 == 0 { configuration.axis = .horizontal }
    if random.next() % 3 == 0 { configuration.scale = 3 }
  }
  let items = GeneratedFeeds.items(count: 300, seed: seed).enumerated().map { index, item in
    LayoutItem(width: item.width, height: item.height, span: index % 11 == 0 ? 2 : 1)
  }
  return try WaterfallLayout(configuration, items: items)
}

@Suite struct RectQueryTests {
  @Test("The query equals a brute-force filter on random layouts and rectangles", arguments: 0..<40)
  func matchesBruteForce(seed: UInt64) throws {
    let layout = try randomLayout(seed: seed)
    var random = SplitMix64(seed: seed)
    let size = layout.contentSize
    for _ in 0..<60 {
      let rect = Rect(
        x: random.nextUnit() * size.width * 1.1 - size.width * 0.05,
        y: random.nextUnit() * size.height * 1.1 - size.height * 0.05,
        width: random.nextUnit() * size.width * 0.6, height: random.nextUnit() * 900)
      let expected = layout.elements.filter { $0.frame.intersects(rect) }
      #expect(layout.elements(in: rect) == expected, "\(layout.configuration) \(rect)")
    }
  }

  @Test(
    "Long layouts (thousands of blocks of 64 elements) still equal brute force",
    arguments: [1, 2, 5])
  func longLayouts(columns: Int) throws {
    let layout = try WaterfallLayout(
      LayoutConfiguration(style: .waterfall, columns: columns, seed: 3),
      items: GeneratedFeeds.items(count: 6_000, seed: UInt64(columns)))
    var random = SplitMix64(seed: 77)
    for _ in 0..<200 {
      let y = random.nextUnit() * layout.contentHeight
      let rect = Rect(
        x: random.nextUnit() * 300, y: y, width: 75 + random.nextUnit() * 300,
        height: random.nextUnit() * 1_500)
      #expect(layout.elements(in: rect) == layout.elements.filter { $0.frame.intersects(rect) })
    }
  }

  @Test(
    "Pages of every size, and failed appends rolled back between them, keep the index exact",
    arguments: [LayoutStyle.waterfall, .irregular, .grid])
  func pagesAndFailures(style: LayoutStyle) throws {
    var configuration = LayoutConfiguration(style: style, columns: 3, seed: 9)
    // The plain waterfall takes its own loop; the irregular style, in reading order, can place
    // an item above earlier ones.
    if style == .irregular { configuration.order = .leftToRight }
    var layout = try WaterfallLayout(configuration)
    var random = SplitMix64(seed: 5)
    let feed = GeneratedFeeds.items(count: 2_000, seed: 4)
    var next = 0
    for pageSize in [1, 63, 64, 65, 7, 130, 2, 200, 1] {
      let page = Array(feed[next..<next + pageSize])
      next += pageSize
      // A page with a bad item after good ones changes nothing …
      let bad = page + [LayoutItem(width: 0, height: 1)]
      #expect(throws: LayoutError.self) { try layout.append(bad) }
      // … and the page itself then goes in.
      try layout.append(page)
      // The index kept through appends and roll-backs is the one built from scratch.
      #expect(layout.blockIndex == BlockIndex(layout.elements, axis: .vertical))
      for _ in 0..<20 {
        let rect = Rect(
          x: random.nextUnit() * 300, y: random.nextUnit() * layout.contentHeight,
          width: 20 + random.nextUnit() * 300, height: random.nextUnit() * 700)
        #expect(layout.elements(in: rect) == layout.elements.filter { $0.frame.intersects(rect) })
      }
    }
    let fresh = try WaterfallLayout(configuration, items: Array(feed[0..<next]))
    #expect(fresh.elements == layout.elements)
  }

  @Test("An element that starts above earlier blocks lowers their running lows")
  func runningLows() {
    // Blocks 0 and 1 start at 100 and 200; elements 130… start at 50, above both.
    let elements = (0..<140).map { index in
      LayoutElement(
        index: index, column: 0, span: 1,
        frame: Rect(x: 0, y: index < 64 ? 100 : index < 130 ? 200 : 50, width: 10, height: 10),
        isEnlarged: false, isAligned: false)
    }
    let index = BlockIndex(elements, axis: .vertical)
    // A query at 60…70 can only meet block 2, yet blocks 0 and 1 reach past 60, so the
    // candidates run from block 0 to the last block starting before 70.
    #expect(index.candidateBlocks(low: 60, high: 70) == 0..<3)
    #expect(index.candidateBlocks(low: 215, high: 300) == 3..<3)
    #expect(index.lows == [100, 200, 50] && index.highs == [110, 210, 210])
  }

  @Test(
    "Truncated and added to again, the index still finds every element a query meets",
    arguments: [0, 1, 63, 64, 65, 130, 200])
  func truncated(keep: Int) {
    var random = SplitMix64(seed: UInt64(keep) + 1)
    func element(_ index: Int) -> LayoutElement {
      LayoutElement(
        index: index, column: 0, span: 1,
        frame: Rect(
          x: 0, y: random.nextUnit() * 1000, width: 10, height: 1 + random.nextUnit() * 50),
        isEnlarged: false, isAligned: false)
    }
    var elements = (0..<200).map(element)
    var index = BlockIndex(elements, axis: .vertical)
    index.truncate(to: keep)
    elements.removeSubrange(keep...)
    // Others in place of those taken back, further up and down.
    elements += (keep..<230).map(element)
    index.add(elements[keep...], axis: .vertical)
    for _ in 0..<50 {
      let (low, length) = (random.nextUnit() * 1100 - 50, random.nextUnit() * 120)
      let blocks = index.candidateBlocks(low: low, high: low + length)
      func meets(_ position: Int) -> Bool {
        elements[position].frame.maxY > low && elements[position].frame.y < low + length
      }
      var found = Set<Int>()
      for block in blocks {
        let start = block * BlockIndex.blockSize
        let end = min(elements.count, start + BlockIndex.blockSize)
        for position in start..<end where meets(position) { found.insert(position) }
      }
      let expected = Set(elements.indices.filter(meets))
      #expect(found == expected)
    }
  }

  @Test("A viewport in a long waterfall returns what is on screen, by hand")
  func viewport() throws {
    // Two columns of 100 (W 220, no spacing), squares: rows at y 10, 120, 230, …
    let layout = try WaterfallLayout(
      LayoutConfiguration(style: .waterfall, width: 220, columns: 2, columnSpacing: 0),
      items: squares(20))
    // y 115...235 meets rows 1 (120...220) and 2 (230...330): items 2, 3, 4, 5.
    #expect(
      layout.elements(in: Rect(x: 0, y: 115, width: 220, height: 120)).map(\.index) == [2, 3, 4, 5])
    // Only the right column.
    #expect(
      layout.elements(in: Rect(x: 150, y: 115, width: 10, height: 120)).map(\.index) == [3, 5])
    // Touching an edge is not intersecting; an empty rectangle meets nothing.
    #expect(layout.elements(in: Rect(x: 0, y: 110, width: 220, height: 10)).isEmpty)
    #expect(layout.elements(in: Rect(x: 50, y: 50, width: 0, height: 10)).isEmpty)
    #expect(layout.elements(in: Rect(x: 0, y: 5000, width: 220, height: 10)).isEmpty)
  }

  @Test("An enlarged item is found once, from a rectangle over the gap it covers")
  func spanningOnce() throws {
    let layout = try WaterfallLayout(
      LayoutConfiguration(width: 340, columns: 3, enlargeChance: 1),
      items: [LayoutItem(width: 1, height: 1)])
    // Item 0 spans columns 0–1 (x 10...220) and covers the gap at x 110...120.
    #expect(layout.elements(in: Rect(x: 112, y: 50, width: 4, height: 4)).map(\.index) == [0])
    #expect(layout.elements(in: Rect(x: 0, y: 0, width: 340, height: 300)).map(\.index) == [0])
  }

  @Test(
    "The search finds the first value past a key, from any start, as a scan does",
    arguments: 0...9)
  func partitionPoint(count: Int) {
    // Nondecreasing values with repeats (0, 0, 1, 1, 2, …), keys between and on them.
    let values = (0..<count).map { Double($0 / 2) }
    values.withUnsafeBufferPointer { buffer in
      for start in 0...count {
        for key in stride(from: -1.0, through: Double(count / 2) + 1, by: 0.5) {
          let expected = (start..<count).first { !(values[$0] <= key) } ?? count
          #expect(
            BlockIndex.partitionPoint(of: buffer, from: start) { $0 <= key } == expected,
            "\(values) from \(start), key \(key)")
          let strict = (start..<count).first { !(values[$0] < key) } ?? count
          #expect(BlockIndex.partitionPoint(of: buffer, from: start) { $0 < key } == strict)
        }
      }
    }
  }

  @Test("Empty layouts answer nothing")
  func empty() throws {
    let layout = try WaterfallLayout(LayoutConfiguration())
    #expect(layout.elements(in: Rect(x: 0, y: 0, width: 1000, height: 1000)).isEmpty)
  }
}
