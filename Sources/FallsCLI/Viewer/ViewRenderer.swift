import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal

/// How `falls view` draws a layout in a terminal: a pure function from the layout, the first
/// row shown and the terminal's size to lines of text.
///
/// The content is fitted to the terminal's width: one cell is `width / columns` points across
/// and twice that down (terminal cells are about twice as tall as wide, so boxes keep their
/// shape). Each element is a box of box-drawing characters from the cell where its frame starts
/// to the cell before the one where it ends (at least 2 × 2): single lines for plain items,
/// double lines for enlarged ones, `≈` beside the index of an aligned one, dashed sides for the
/// items the planned alignment holds back (``WaterfallLayout/heldBackCount``: the only ones the
/// next page may still move); headers and footers are bands of heavy lines named by their kind.
struct ViewRenderer {
  var sectioned: SectionedLayout
  var items: PlacedItems

  /// Points per cell across and down for a terminal `columns` wide.
  func scale(columns: Int) -> (across: Double, down: Double) {
    let across = sectioned.contentSize.width / Double(max(columns, 1))
    return (across, 2 * across)
  }

  /// The farthest cell, across or down, that a position is counted in: 2^52, where a Double
  /// still tells one cell from the next. A frame reaching farther (an item 10^18 points tall)
  /// ends there; nothing reaches it by scrolling a screen at a time.
  static let farthestCell = 1 << 52

  /// The number of rows the whole content takes, at most ``farthestCell``.
  func contentRows(columns: Int) -> Int {
    let down = scale(columns: columns).down
    return Self.cell((sectioned.contentSize.height / down).rounded(.up))
  }

  /// `cells` as a whole number within ±``farthestCell``: a frame of any size, however far, is
  /// counted in cells without trapping.
  static func cell(_ cells: Double) -> Int {
    guard !cells.isNaN else { return 0 }
    let bound = Double(farthestCell)
    return Int(min(max(cells.rounded(), -bound), bound))
  }

  /// `rows` lines of exactly `columns` characters: the content from row `top`.
  ///
  /// - Complexity: O(*r* · *c* + *e*) for *r* rows, *c* columns and *e* elements on the screen,
  ///   whatever the size of the elements or of the content.
  func lines(top: Int, columns: Int, rows: Int) -> [String] {
    guard columns > 0, rows > 0 else { return [] }
    let layout = sectioned.layouts[0]
    let firstMovable = layout.elements.count - layout.heldBackCount
    var grid = [[Character]](
      repeating: [Character](repeating: " ", count: columns), count: rows)
    let (across, down) = scale(columns: columns)
    let visible = Rect(
      x: 0, y: Double(top) * down, width: sectioned.contentSize.width,
      height: Double(rows) * down)
    for element in sectioned.elements(in: visible) {
      draw(element, in: &grid, top: top, across: across, down: down, firstMovable: firstMovable)
    }
    return grid.map { String($0) }
  }

  /// The cells a frame covers: from the cell where it starts to the one before the cell where
  /// it ends, at least two wide and two tall.
  static func cells(of frame: Rect, across: Double, down: Double) -> (
    columns: ClosedRange<Int>, rows: ClosedRange<Int>
  ) {
    let firstColumn = cell(frame.x / across)
    let lastColumn = max(cell(frame.maxX / across) - 1, firstColumn + 1)
    let firstRow = cell(frame.y / down)
    let lastRow = max(cell(frame.maxY / down) - 1, firstRow + 1)
    return (firstColumn...lastColumn, firstRow...lastRow)
  }

  /// Draws `element`; an item at `firstMovable` or after is held back, and drawn dashed.
  private func draw(
    _ element: SectionElement, in grid: inout [[Character]], top: Int, across: Double,
    down: Double, firstMovable: Int
  ) {
    let (columnRange, rowRange) = Self.cells(of: element.frame, across: across, down: down)
    var box: [Character]
    let label: String
    if let item = element.item {
      let state = ItemState(item)
      box = state.isEnlarged ? Self.doubleBox : Self.singleBox
      if item.index >= firstMovable { box.replaceSubrange(0..<2, with: Self.dashedSides) }
      label = String(items.feedIndex(at: item.index)) + (state.isAligned ? " ≈" : "")
    } else {
      box = Self.heavyBox
      label = element.kind.rawValue
    }
    func put(_ character: Character, row: Int, column: Int) {
      let screenRow = row - top
      guard grid.indices.contains(screenRow), grid[screenRow].indices.contains(column) else {
        return
      }
      grid[screenRow][column] = character
    }
    // Only the cells on the screen are visited: a box may be far larger than it.
    let (firstRow, lastRow) = (
      max(rowRange.lowerBound, top), min(rowRange.upperBound, top + grid.count - 1)
    )
    let (firstColumn, lastColumn) = (
      max(columnRange.lowerBound, 0), min(columnRange.upperBound, (grid.first?.count ?? 0) - 1)
    )
    guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
    for row in firstRow...lastRow {
      for column in firstColumn...lastColumn {
        let isTop = row == rowRange.lowerBound
        let isBottom = row == rowRange.upperBound
        let isLeft = column == columnRange.lowerBound
        let isRight = column == columnRange.upperBound
        let character: Character =
          switch (isTop, isBottom, isLeft, isRight) {
          case (true, _, true, _): box[2]
          case (true, _, _, true): box[3]
          case (_, true, true, _): box[4]
          case (_, true, _, true): box[5]
          case (true, _, _, _), (_, true, _, _): box[0]
          case (_, _, true, _), (_, _, _, true): box[1]
          default: " "
          }
        put(character, row: row, column: column)
      }
    }
    // The label on the first inner row, or on the top edge of a box too flat for one.
    let labelRow = rowRange.count > 2 ? rowRange.lowerBound + 1 : rowRange.lowerBound
    let room = columnRange.count - 2
    for (offset, character) in label.prefix(max(room, 0)).enumerated() {
      put(character, row: labelRow, column: columnRange.lowerBound + 1 + offset)
    }
  }

  /// The characters of a box: the horizontal and vertical lines, then the corners top left, top
  /// right, bottom left and bottom right.
  private static let singleBox = Array("─│┌┐└┘")
  private static let doubleBox = Array("═║╔╗╚╝")
  private static let heavyBox = Array("━┃┏┓┗┛")
  /// The horizontal and vertical lines of a held-back item's box, whose corners stay those of
  /// its kind.
  private static let dashedSides = Array("╌╎")

  /// The status line: what is shown and where, exactly `columns` wide, its last column blank;
  /// and whether it holds `message`, which it leaves out rather than cut (it is then the
  /// caller's to show, above it).
  ///
  /// The parts, in the order shown: the pages, the items, the rows shown (`of` the total, and
  /// the percentage), the number of columns of a columnar style (`layoutColumns`), the message,
  /// `? keys`, and the feed's name. Each fact appears once, every count with its thousands
  /// separators. Where they do not all fit, the least important go, each whole: kept first are
  /// the rows shown, the columns, the message, the items, the total of rows, the name, the
  /// pages, the keys, and last the percentage. A name too long to fit whole takes, shortened
  /// with `…`, what the others leave. The name and a failed page's message come from outside:
  /// nothing in them may act on the terminal.
  static func statusLine(
    feed: String, pages: Int, items: Int, layoutColumns: Int? = nil, top: Int, rows: Int,
    contentRows: Int, message: String?, columns: Int
  ) -> (line: String, holdsMessage: Bool) {
    let last = min(top + rows, contentRows)
    let percent =
      contentRows <= rows ? 100 : Int((Double(last) / Double(contentRows) * 100).rounded())
    let name = escapingControlCharacters(feed)
    // Each part: its text, its rank (0 is kept first), and whether it follows the one before
    // with a space rather than ` · ` (then it goes with that one).
    var parts: [(text: String, rank: Int, isAttached: Bool)] = [
      (pages <= 1 ? "page 1" : "pages 1–\(grouped(pages))", 6, false),
      ("\(grouped(items)) item\(items == 1 ? "" : "s")", 3, false),
      ("rows \(grouped(min(top + 1, max(contentRows, 1))))–\(grouped(last))", 0, false),
      ("of \(grouped(contentRows))", 4, true),
      ("(\(percent)%)", 8, true),
    ]
    if let layoutColumns {
      parts.append(("\(grouped(layoutColumns)) column\(layoutColumns == 1 ? "" : "s")", 1, false))
    }
    let messageIndex = message.map { _ in parts.count }
    if let message { parts.append((escapingControlCharacters(message), 2, false)) }
    parts.append(("? keys", 7, false))
    let nameIndex = parts.count
    parts.append((name, 5, false))
    func text(_ kept: [Bool]) -> String {
      parts.indices.filter { kept[$0] }.reduce("") { line, index in
        line + (parts[index].isAttached ? " " : line.isEmpty ? " " : " · ") + parts[index].text
      }
    }
    // The rows shown are always kept; each other part is kept where it fits whole, most
    // important first, with a column to spare; an attached part only after its own.
    var kept = parts.map { $0.rank == 0 }
    for index in parts.indices.sorted(by: { parts[$0].rank < parts[$1].rank })
    where !kept[index] && (!parts[index].isAttached || kept[index - 1]) {
      kept[index] = true
      if displayWidth(text(kept)) >= columns { kept[index] = false }
    }
    var line = text(kept)
    // A name that does not fit whole, where at least a few of its columns do.
    let room = columns - displayWidth(line) - 4
    if !kept[nameIndex], room >= 6 { line += " · " + truncated(name, columns: room) }
    let holdsMessage = messageIndex.map { kept[$0] } ?? false
    return (fitted(truncated(line, columns: columns - 1) + " ", to: columns), holdsMessage)
  }

  /// `count` in decimal with a comma between each group of three digits (`6,171,464`).
  static func grouped(_ count: Int) -> String {
    let digits = Array(String(count.magnitude))
    var text = count < 0 ? "-" : ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return text
  }

  /// `text` cut or padded with spaces to exactly `columns` terminal columns.
  static func fitted(_ text: String, to columns: Int) -> String {
    let kept = text.prefix(columns: columns)
    return kept + String(repeating: " ", count: max(columns - displayWidth(kept), 0))
  }

  /// `lines` with the key help boxed over their middle.
  static func withKeyHelp(_ lines: [String], columns: Int) -> [String] {
    let keyHelp = ViewerKey.lines
    let width = min((keyHelp.map(\.count).max() ?? 0) + 4, columns)
    let line = String(repeating: singleBox[0], count: max(width - 2, 0))
    let box =
      ["\(singleBox[2])\(line)\(singleBox[3])"]
      + keyHelp.map { "\(singleBox[1]) " + fitted($0, to: max(width - 4, 0)) + " \(singleBox[1])" }
      + ["\(singleBox[4])\(line)\(singleBox[5])"]
    var result = lines
    let first = max((lines.count - box.count) / 2, 0)
    let left = max((columns - width) / 2, 0)
    for (offset, line) in box.enumerated() where first + offset < result.count {
      var row = Array(result[first + offset])
      for (position, character) in line.enumerated() where left + position < row.count {
        row[left + position] = character
      }
      result[first + offset] = String(row)
    }
    return result
  }
}
