import FallsCheckers
import Foundation
import Testing

@testable import FallsCore

@Suite struct LayoutQualityTests {
  /// Two columns of exactly 100 pt: width 210, spacing 10, no insets.
  private static func twoColumns(style: LayoutStyle = .irregular, chance: Double = 0)
    -> LayoutConfiguration
  {
    LayoutConfiguration(
      style: style, width: 210, columns: 2, columnSpacing: 10, rowSpacing: 10,
      insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0), enlargeChance: chance)
  }

  @Test("A layout worked by hand: two alignments of 5 and 10 pt, both a ninth of the height")
  func handWorked() throws {
    // A 0…100 in column 0; B 0…150 in column 1; C (natural 45) from 110 ends 5 pt past B's
    // 150 and is shrunk to 40; D 160…260 in column 0 (the tie goes left);
    // E (natural 90) from 160 lands 10 pt short of 260 and takes 100.
    let layout = try WaterfallLayout(
      Self.twoColumns(),
      items: [(100, 100), (100, 150), (100, 45), (100, 100), (100, 90)].map {
        LayoutItem(width: $0.0, height: $0.1)
      })
    #expect(layout.elements.map(\.frame.height) == [100, 150, 40, 100, 100])
    #expect(layout.elements.map(\.isAligned) == [false, false, true, false, true])
    let quality = try #require(
      LayoutQuality(
        of: layout,
        items: [(100, 100), (100, 150), (100, 45), (100, 100), (100, 90)].map {
          LayoutItem(width: $0.0, height: $0.1)
        }))
    #expect(quality.enlargedShare == 0)
    #expect(quality.correctedShare == 0.4)
    #expect(abs(quality.meanDistortion - 1.0 / 9) < 1e-15)
    #expect(abs(quality.maxDistortion - 1.0 / 9) < 1e-15)
    // Both columns end at 260.
    #expect(quality.raggedEnd == 0)
    // 49,000 pt² of items in 210 × 260 pt.
    #expect(abs(quality.coverage - 49_000.0 / 54_600) < 1e-15)
  }

  @Test("An enlarged item's natural height is two rows' worth: 2h + the row spacing")
  func enlarged() throws {
    let items = [LayoutItem(width: 100, height: 50), LayoutItem(width: 100, height: 70)]
    let layout = try WaterfallLayout(Self.twoColumns(chance: 1), items: items)
    // The first item is enlarged (210 × 110); the second, in column 0 below it, is not (the
    // previous item was).
    #expect(layout.elements[0].isEnlarged && layout.elements[0].frame.height == 110)
    let quality = try #require(LayoutQuality(of: layout, items: items))
    #expect(quality.enlargedShare == 0.5)
    #expect(quality.correctedShare == 0)
    #expect(quality.maxDistortion == 0 && quality.meanDistortion == 0)
    // Column 0 ends at 190, column 1 at 110: 80 pt apart, in items of 110 and 70 pt.
    #expect(quality.raggedEnd == 80.0 / 90)
    let area: Double = 210 * 110 + 100 * 70
    #expect(quality.coverage == area / (210 * 190))
  }

  @Test("A waterfall has no corrections; grid and the ring styles have no figures")
  func styles() throws {
    let items = GeneratedFeeds.items(count: 80, seed: 5)
    let waterfall = try WaterfallLayout(Self.twoColumns(style: .waterfall), items: items)
    let quality = try #require(LayoutQuality(of: waterfall, items: items))
    #expect(quality.correctedShare == 0 && quality.enlargedShare == 0)
    for style in [LayoutStyle.grid, .circle, .cube, .sphere] {
      var configuration = LayoutConfiguration(style: style)
      if style == .grid { configuration.columns = 3 }
      let layout = try WaterfallLayout(configuration, items: items)
      #expect(LayoutQuality(of: layout, items: items) == nil)
    }
  }

  @Test("No items: every figure 0")
  func empty() throws {
    let layout = try WaterfallLayout(LayoutConfiguration())
    let quality = try #require(LayoutQuality(of: layout, items: []))
    #expect(quality.values == [0, 0, 0, 0, 0, 0])
  }

  @Test(
    "Property: the figures equal a computation of their own from the frames and image sizes",
    arguments: 0..<40)
  func independent(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &* 7 &+ 3)
    var configuration = LayoutConfiguration(
      style: random.draw(0.2) ? .waterfall : .irregular, columns: 1 + Int(random.next() % 6),
      seed: random.next())
    if random.draw(0.3) { configuration.axis = .horizontal }
    if random.draw(0.3) { configuration.scale = [1, 2, 3][Int(random.next() % 3)] }
    if random.draw(0.3) { configuration.direction = .rightToLeft }
    configuration.rowSpacing = [0, 4, 10][Int(random.next() % 3)]
    let items = (0..<(50 + Int(random.next() % 200))).map { _ in
      LayoutItem(
        width: 200 + random.nextUnit() * 1800, height: 200 + random.nextUnit() * 2800,
        span: random.draw(0.05) ? 2 : 1)
    }
    let layout = try WaterfallLayout(configuration, items: items)
    let quality = try #require(LayoutQuality(of: layout, items: items))
    // The same definitions, worked here from the frames alone.
    let working = configuration.working
    let vertical = configuration.axis == .vertical
    let grid = configuration.scale.map { 1 / $0 } ?? 0
    var distortions: [Double] = []
    var extents: [Double] = []
    var area = 0.0
    for element in layout.elements {
      let item = items[element.index]
      let ratio = vertical ? item.height / item.width : item.width / item.height
      let w = working.columnWidth
      let natural =
        element.isEnlarged
        ? 2 * (w * ratio) + working.rowSpacing
        : (Double(element.span) * w + Double(element.span - 1) * working.columnSpacing) * ratio
      let extent = vertical ? element.frame.height : element.frame.width
      if abs(extent - natural) > grid + natural * 1e-9 {
        distortions.append(abs(extent - natural) / natural)
      }
      extents.append(extent)
      area += element.frame.width * element.frame.height
    }
    let n = Double(items.count)
    #expect(quality.enlargedShare == Double(layout.elements.count { $0.isEnlarged }) / n)
    #expect(quality.correctedShare == Double(distortions.count) / n)
    #expect(abs(quality.maxDistortion - (distortions.max() ?? 0)) <= 1e-12)
    let mean = distortions.isEmpty ? 0 : distortions.reduce(0, +) / Double(distortions.count)
    #expect(abs(quality.meanDistortion - mean) <= 1e-12)
    // The column ends, worked out from the frames: the far edge of each column's last item
    // (a permutation of the columns for right to left, which changes no extreme).
    var ends = [Double](repeating: -.infinity, count: configuration.columns)
    for element in layout.elements {
      for covered in 0..<element.span {
        ends[element.column + covered] = max(
          ends[element.column + covered], vertical ? element.frame.maxY : element.frame.maxX)
      }
    }
    let used = ends.filter { $0 > -.infinity }
    let meanExtent = extents.reduce(0, +) / n
    let ragged = ((used.max() ?? 0) - (used.min() ?? 0)) / meanExtent
    // Frames on a grid end up to half a step from the stored bottoms.
    #expect(abs(quality.raggedEnd - ragged) <= (grid + 1e-9) / meanExtent)
    let insets = configuration.insets
    let size = layout.contentSize
    let inside =
      (size.width - insets.left - insets.right) * (size.height - insets.top - insets.bottom)
    #expect(abs(quality.coverage - area / inside) <= 1e-12)
    #expect(quality.coverage > 0 && quality.coverage <= 1 + 1e-9)
  }

  @Test("Two items 10^290 tall in a column 10^9 wide: the coverage is finite, 1 to 10^-9")
  func coverageOfTallItems() throws {
    let configuration = LayoutConfiguration(style: .waterfall, width: 1e9, columns: 1)
    let items = [LayoutItem(width: 1, height: 1e290), LayoutItem(width: 1, height: 1e290)]
    let layout = try WaterfallLayout(configuration, items: items)
    let quality = try #require(LayoutQuality(of: layout, items: items))
    // Each frame is (10^9 − 20) × 10^290·(10^9 − 20): their area alone passes the largest
    // Double; inside the insets they fill the content but for one row spacing.
    #expect(quality.values.allSatisfy { $0.isFinite })
    #expect(abs(quality.coverage - 1) < 1e-9)
  }

  @Test(
    "Property: every figure is finite, and the coverage a share, for sizes up to the limits",
    arguments: 0..<60)
  func finiteAtTheLimits(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 1_000)
    func magnitude(upTo exponent: Double) -> Double {
      pow(10, random.nextUnit() * exponent)
    }
    var configuration = LayoutConfiguration(
      style: random.draw(0.5) ? .waterfall : .irregular, width: 1e9 / magnitude(upTo: 3),
      columns: 1 + Int(random.next() % 3), columnSpacing: 0, rowSpacing: magnitude(upTo: 9),
      insets: EdgeInsets(all: 0), seed: random.next())
    if random.draw(0.3) { configuration.axis = .horizontal }
    configuration.viewportHeight = configuration.width
    var layout = try WaterfallLayout(configuration)
    var items: [LayoutItem] = []
    for _ in 0..<(1 + Int(random.next() % 12)) {
      // Frames from a point to the farthest bottom, most of them far down.
      let extent = random.draw(0.5) ? 1e290 * magnitude(upTo: 10) : magnitude(upTo: 300)
      let item = LayoutItem(width: 1, height: extent / configuration.columnWidth)
      // An item past the farthest bottom is refused, and the layout stays as it was.
      if (try? layout.append([item])) != nil { items.append(item) }
    }
    let quality = try #require(LayoutQuality(of: layout, items: items))
    #expect(quality.values.allSatisfy { $0.isFinite }, "\(quality) of \(items)")
    #expect(quality.coverage >= 0 && quality.coverage <= 1 + 1e-9, "\(quality)")
    #if arch(x86_64)
      // The same ratio in 80-bit floats, whose range holds every product of two lengths.
      let insets = configuration.insets
      let size = layout.contentSize
      var area: Float80 = 0
      for element in layout.elements {
        area += Float80(element.frame.width) * Float80(element.frame.height)
      }
      let inside =
        Float80(size.width - insets.left - insets.right)
        * Float80(size.height - insets.top - insets.bottom)
      if inside > 0 {
        #expect(abs(Float80(quality.coverage) - area / inside) <= 1e-12)
      }
    #endif
  }
}
