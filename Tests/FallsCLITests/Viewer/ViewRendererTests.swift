import FallsBase
import FallsCheckers
import FallsCore
import FallsFeed
import Testing

@testable import FallsCLI

private func renderer(_ configuration: LayoutConfiguration, _ items: [LayoutItem]) throws
  -> ViewRenderer
{
  let layout = try WaterfallLayout(configuration, items: items)
  let feed = FeedItems(
    items.indices.map { FeedItem(index: $0, img: "i\($0)", width: 1, height: 1) })
  return ViewRenderer(sectioned: SectionedLayout(layout), items: PlacedItems(feed, page: 1))
}

@Suite struct ViewRendererTests {
  /// Two columns of 50 points, no gaps: in 20 columns a cell is 5 points across and 10 down, so
  /// a 50-point square is 10 cells by 5.
  private func squares(_ count: Int) throws -> ViewRenderer {
    try renderer(
      LayoutConfiguration(
        style: .waterfall, width: 100, columns: 2, columnSpacing: 0, rowSpacing: 0,
        insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)),
      FallsCheckers.squares(count))
  }

  @Test("Boxes to scale, labelled with their index, by hand")
  func byHand() throws {
    let view = try squares(3)
    #expect(
      view.lines(top: 0, columns: 20, rows: 8) == [
        "┌────────┐┌────────┐",
        "│0       ││1       │",
        "│        ││        │",
        "│        ││        │",
        "└────────┘└────────┘",
        "┌────────┐          ",
        "│2       │          ",
        "│        │          ",
      ])
    // Scrolled down three rows.
    #expect(
      view.lines(top: 3, columns: 20, rows: 3) == [
        "│        ││        │",
        "└────────┘└────────┘",
        "┌────────┐          ",
      ])
    #expect(view.contentRows(columns: 20) == 10)
  }

  @Test(
    "An item 10^16 points tall, in 20 columns: its top, its sides far down, and its bottom",
    .timeLimit(.minutes(1)))
  func tallItem() throws {
    // One column of 100 points: a cell is 5 points across and 10 down; the item is 10^15 rows.
    let view = try renderer(
      LayoutConfiguration(
        style: .waterfall, width: 100, columns: 1,
        insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)),
      [LayoutItem(width: 1, height: 1e14)])
    #expect(view.contentRows(columns: 20) == 1_000_000_000_000_000)
    let top = view.lines(top: 0, columns: 20, rows: 3)
    #expect(
      top == [
        "┌" + String(repeating: "─", count: 18) + "┐",
        "│0" + String(repeating: " ", count: 17) + "│",
        "│" + String(repeating: " ", count: 18) + "│",
      ])
    let side = "│" + String(repeating: " ", count: 18) + "│"
    #expect(view.lines(top: 500_000_000_000_000, columns: 20, rows: 3) == [side, side, side])
    let bottom = view.lines(top: 1_000_000_000_000_000 - 2, columns: 20, rows: 3)
    #expect(
      bottom == [
        side, "└" + String(repeating: "─", count: 18) + "┘", String(repeating: " ", count: 20),
      ])
  }

  @Test("Frames past the farthest cell end there, and count no further", arguments: [1e18, 1e297])
  func farthestCell(height: Double) throws {
    let view = try renderer(
      LayoutConfiguration(style: .waterfall, width: 100, columns: 1),
      [LayoutItem(width: 1, height: height)])
    #expect(view.contentRows(columns: 20) == ViewRenderer.farthestCell)
    #expect(view.lines(top: ViewRenderer.farthestCell - 1, columns: 20, rows: 2).count == 2)
    #expect(ViewRenderer.cell(-.infinity) == -ViewRenderer.farthestCell)
    #expect(ViewRenderer.cell(.nan) == 0)
  }

  @Test("Enlarged items are double-lined, aligned ones marked ≈, bands heavy and named")
  func marks() throws {
    let layout = try WaterfallLayout(
      LayoutConfiguration(width: 340, columns: 3, enlargeChance: 1),
      items: [LayoutItem(width: 1, height: 1), LayoutItem(width: 1, height: 2)])
    let sectioned = try SectionedLayout(
      sections: [
        Section(configuration: layout.configuration, headerHeight: 40, footerHeight: 0)
      ], layouts: [layout])
    let feed = FeedItems(
      (0..<2).map { FeedItem(index: $0 + 7, img: "x", width: 1, height: 1) })
    let view = ViewRenderer(sectioned: sectioned, items: PlacedItems(feed, page: 1))
    let text = view.lines(top: 0, columns: 68, rows: 60).joined(separator: "\n")
    #expect(text.contains("┏") && text.contains("header"))
    #expect(text.contains("╔") && text.contains("║7"))
    #expect(text.contains("│8"))
  }

  @Test(
    "Under --align planned the items held back for the next page have dashed sides, and none after finish()"
  )
  func heldBack() throws {
    let items = (0..<30).map { LayoutItem(width: 1, height: 1 + Double($0 % 5) / 4) }
    var layout = try WaterfallLayout(
      LayoutConfiguration(width: 340, columns: 3, alignment: .planned), items: items)
    let held = layout.heldBackCount
    #expect(held == PlannedAlignment.window)
    let feed = FeedItems(items.indices.map { FeedItem(index: $0, img: "x", width: 1, height: 1) })
    func drawn() -> [String] {
      ViewRenderer(sectioned: SectionedLayout(layout), items: PlacedItems(feed, page: 1))
        .lines(top: 0, columns: 68, rows: 400)
    }
    // A box's label is on the line below its top edge: the sides beside it tell its kind.
    func sides(of index: Int, in lines: [String]) -> Set<Character> {
      var found = Set<Character>()
      for line in lines {
        let characters = Array(line)
        for start in characters.indices
        where characters[start] == "╎" || characters[start] == "│"
          || characters[start] == "║"
        {
          let label = String(characters[(start + 1)...].prefix { $0.isNumber })
          if label == String(index) { found.insert(characters[start]) }
        }
      }
      return found
    }
    let before = drawn()
    for index in items.indices {
      let isHeld = index >= items.count - held
      #expect(sides(of: index, in: before).contains("╎") == isHeld, "item \(index)")
    }
    #expect(before.joined().contains("╌"))
    layout.finish()
    let after = drawn().joined()
    #expect(!after.contains("╎") && !after.contains("╌"))
  }

  @Test(
    "Every line is exactly as wide as the terminal, and every visible element is labelled",
    arguments: 0..<12)
  func property(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let columns = 20 + Int(random.next() % 100)
    let rows = 5 + Int(random.next() % 40)
    let view = try renderer(
      LayoutConfiguration(columns: 1 + Int(random.next() % 5), seed: seed),
      GeneratedFeeds.items(count: 60, seed: seed))
    let top = Int(random.next() % UInt64(max(view.contentRows(columns: columns), 1)))
    let lines = view.lines(top: top, columns: columns, rows: rows)
    #expect(lines.count == rows)
    #expect(lines.allSatisfy { $0.count == columns })
    // Each element whose label row is on screen shows its index right after its left border.
    let (across, down) = view.scale(columns: columns)
    for element in view.sectioned.layouts[0].elements {
      let (columnRange, rowRange) = ViewRenderer.cells(
        of: element.frame, across: across, down: down)
      let labelRow = rowRange.count > 2 ? rowRange.lowerBound + 1 : rowRange.lowerBound
      guard (top..<top + rows).contains(labelRow), columnRange.upperBound < columns,
        columnRange.count >= 2 + String(element.index).count
      else { continue }
      let line = Array(lines[labelRow - top])
      let label = String(line[(columnRange.lowerBound + 1)...].prefix(String(element.index).count))
      #expect(label == String(element.index), "element \(element.index) at \(element.frame)")
    }
  }

  @Test("The status line says what is shown and where, in exactly the terminal's width")
  func statusLine() {
    let line = ViewRenderer.statusLine(
      feed: "feed.json", pages: 2, items: 40, top: 10, rows: 20, contentRows: 100,
      message: nil, columns: 90
    ).line
    #expect(line.count == 90)
    #expect(line.hasPrefix(" pages 1–2 · 40 items · rows 11–30 of 100 (30%) · ? keys · feed.json "))
    let narrow = ViewRenderer.statusLine(
      feed: "f", pages: 1, items: 1, top: 0, rows: 20, contentRows: 5, message: "hi", columns: 30)
    // Narrow, the least important parts go first (the percentage, the keys, the pages, the
    // name), and what is left is whole.
    #expect(narrow.line == " 1 item · rows 1–5 of 5 · hi  " && narrow.holdsMessage)
  }

  @Test(
    "A message is held whole where it fits, before the keys and the name, and left out rather than cut",
    arguments: [(70, true), (20, true), (19, false), (10, false)])
  func messageWhole(columns: Int, holds: Bool) {
    // " rows 1–5 · loading", the rows and the message alone, is 19 characters, and a space ends
    // the line.
    let status = ViewRenderer.statusLine(
      feed: "f", pages: 1, items: 1, top: 0, rows: 20, contentRows: 5, message: "loading",
      columns: columns)
    #expect(status.holdsMessage == holds)
    #expect(status.line.contains("loading") == holds)
    #expect(status.line.count == columns)
  }

  @Test(
    "At 80 and 100 columns the message goes before the feed's name, which is shortened with …",
    arguments: [80, 100])
  func noteBeforeName(columns: Int) {
    let url =
      "https://example.com/list?page={page}&size={size}&token=" + String(repeating: "x", count: 60)
    let status = ViewRenderer.statusLine(
      feed: url, pages: 3, items: 60, layoutColumns: 3, top: 0, rows: 23, contentRows: 900,
      message: "page 4 is empty", columns: columns)
    #expect(status.holdsMessage)
    #expect(displayWidth(status.line) == columns)
    #expect(status.line.contains(" · 3 columns · page 4 is empty"))
    let name = status.line.components(separatedBy: "? keys · ").last ?? ""
    #expect(name.hasPrefix("https://") && name.contains("…") || !status.line.contains("https"))
    // Wide, the whole name.
    let wide = ViewRenderer.statusLine(
      feed: url, pages: 3, items: 60, top: 0, rows: 23, contentRows: 900, message: nil,
      columns: 200)
    #expect(wide.line.contains(url))
  }

  @Test("The key help is boxed over the middle of the screen, lines kept as wide")
  func keyHelp() {
    let blank = Array(repeating: String(repeating: ".", count: 70), count: 16)
    let lines = ViewRenderer.withKeyHelp(blank, columns: 70)
    #expect(lines.count == 16 && lines.allSatisfy { $0.count == 70 })
    for key in ViewerKey.lines { #expect(lines.contains { $0.contains(key) }, "\(key)") }
    #expect(lines.first == blank.first && lines.last == blank.last)
  }

  @Test("A feed name or message with control characters shows them escaped")
  func escapedStatusLine() {
    let line = ViewRenderer.statusLine(
      feed: "evil\u{1B}[2J\nname\u{202E}", pages: 1, items: 2, top: 0, rows: 10, contentRows: 5,
      message: "page 2: \u{1B}]0;x\u{7}\u{2028}", columns: 200
    ).line
    #expect(!line.unicodeScalars.contains(where: isEscapedForPeople))
    #expect(line.contains("name\\u202e") && line.contains("\\u2028"))
    #expect(line.contains("evil\\u001b[2J\\u000aname"))
    #expect(line.contains("page 2: \\u001b]0;x\\u0007"))
  }

  @Test(
    "Counts are written with thousands separators",
    arguments: [
      (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (6_171_464, "6,171,464"),
      (-12_345, "-12,345"), (Int.max, "9,223,372,036,854,775,807"),
      (Int.min, "-9,223,372,036,854,775,808"),
    ])
  func grouped(count: Int, text: String) {
    #expect(ViewRenderer.grouped(count) == text)
  }

  @Test("Every count on the status line has its separators, by hand")
  func statusLineSeparators() {
    let line = ViewRenderer.statusLine(
      feed: "f", pages: 1200, items: 1_234_567, layoutColumns: 1000, top: 6_171_463, rows: 39,
      contentRows: 12_345_678, message: nil, columns: 200
    ).line
    #expect(
      line.hasPrefix(
        " pages 1–1,200 · 1,234,567 items · rows 6,171,464–6,171,502 of 12,345,678 (50%)"
          + " · 1,000 columns · ? keys · f "), "\(line)")
  }

  @Test("At 80 columns the built-in feed's name is whole after +, and the count of columns once")
  func builtInFeedAt80() {
    let line = ViewRenderer.statusLine(
      feed: "built-in feed", pages: 1, items: 50, layoutColumns: 5, top: 0, rows: 23,
      contentRows: 222, message: nil, columns: 80
    ).line
    #expect(line.contains(" · built-in feed "), "\(line)")
    #expect(line.components(separatedBy: "5 columns").count == 2, "\(line)")
    #expect(line.hasPrefix(" page 1 · 50 items · rows 1–23 of 222"), "\(line)")
  }

  /// Sizes from the smallest the viewer promises to draw well, with feed names short and long.
  static let statusCases: [(columns: Int, rows: Int, feed: String)] = [40, 50, 80, 120].flatMap {
    columns in
    let rows = [40: 10, 50: 15, 80: 24, 120: 40][columns] ?? 24
    return [
      "built-in feed", "/home/someone/feeds/" + String(repeating: "very-long-name-", count: 8),
    ]
    .map { (columns, rows, $0) }
  }

  @Test(
    "At any size, after +, with huge row numbers: each fact once, the line as wide as the terminal, the name whole where it has room",
    arguments: statusCases)
  func statusFacts(columns: Int, rows: Int, feed: String) {
    let (top, contentRows) = (6_171_463, 12_000_000)
    let status = ViewRenderer.statusLine(
      feed: feed, pages: 3, items: 1_234_567, layoutColumns: 5, top: top, rows: rows - 1,
      contentRows: contentRows, message: nil, columns: columns)
    let line = status.line
    #expect(displayWidth(line) == columns, "\(line)")
    // The last cell stays blank: a terminal may scroll when the bottom-right cell is written.
    #expect(line.hasSuffix(" "), "\(line)")
    for fact in ["5 columns", "items", "rows ", "pages ", "? keys", "%)", " of "] {
      #expect(line.components(separatedBy: fact).count <= 2, "\(fact) twice in \(line)")
    }
    // What matters most is always there.
    // The last row shown is the top's plus rows - 1 of layout (one is the status line's).
    let shown = "rows 6,171,464–6,171,\(463 + rows - 1)"
    #expect(line.contains(shown), "\(line)")
    #expect(line.contains(" · 5 columns"), "\(line)")
    // The name is whole wherever the facts before it in rank leave room for it.
    let essentials = " 1,234,567 items · \(shown) of 12,000,000 · 5 columns · "
    if displayWidth(essentials + feed) < columns {
      #expect(line.contains(" · " + feed + " "), "\(line)")
    } else {
      #expect(!line.contains(feed), "\(line)")
    }
  }

  @Test("However narrow the terminal, the status line is exactly as wide, its last column blank")
  func statusNarrow() {
    for columns in 1...40 {
      let line = ViewRenderer.statusLine(
        feed: "瀑布流.json", pages: 2, items: 40, layoutColumns: 3, top: 6_171_463, rows: 9,
        contentRows: 12_000_000, message: "loading page 3…", columns: columns
      ).line
      #expect(displayWidth(line) == columns && line.hasSuffix(" "), "\(columns): \(line)")
    }
  }
}
