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
/// double lines for enlarged ones, `≈` beside the index of an aligned one; headers and footers
/// are bands of heavy lines named by their kind.
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
    var grid = [[Character]](
      repeating: [Character](repeating: " ", count: columns), count: rows)
    let (across, down) = scale(columns: columns)
    let visible = Rect(
      x: 0, y: Double(top) * down, width: sectioned.contentSize.width,
      height: Double(rows) * down)
    for element in sectioned.elements(in: visible) {
      draw(element, in: &grid, top: top, across: across, down: down)
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

  private func draw(
    _ element: SectionElement, in grid: inout [[Character]], top: Int, across: Double,
    down: Double
  ) {
    let (columnRange, rowRange) = Self.cells(of: element.frame, across: across, down: down)
    let box: [Character]
    let label: String
    if let item = element.item {
      let state = ItemState(item)
      box = state == .enlarged ? Self.doubleBox : Self.singleBox
      label = String(items.feedIndex(at: item.index)) + (state == .aligned ? " ≈" : "")
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

  /// The status line: what is shown and where, exactly `columns` wide; and whether it holds
  /// `message` whole, which it leaves out when it would be cut (it is then the caller's to
  /// show, above it).
  ///
  /// What changes comes first and the feed's name last: the pages, the items, the rows shown,
  /// the number of columns of a columnar style (`layoutColumns`); then the message, which
  /// goes before the keys and the name; then `? keys`; then the feed's name, shortened with `…`
  /// to what is left, or left out. The name and a failed page's message come from outside:
  /// nothing in them may act on the terminal.
  static func statusLine(
    feed: String, pages: Int, items: Int, layoutColumns: Int? = nil, top: Int, rows: Int,
    contentRows: Int, message: String?, columns: Int
  ) -> (line: String, holdsMessage: Bool) {
    let last = min(top + rows, contentRows)
    let percent =
      contentRows <= rows ? 100 : Int((Double(last) / Double(contentRows) * 100).rounded())
    var text =
      " \(pages <= 1 ? "page 1" : "pages 1–\(pages)") · \(items) item\(items == 1 ? "" : "s")"
      + " · rows \(min(top + 1, max(contentRows, 1)))–\(last) of \(contentRows) (\(percent)%)"
      + (layoutColumns.map { " · \($0) column\($0 == 1 ? "" : "s")" } ?? "")
    let withMessage = message.map { text + " · " + escapingControlCharacters($0) }
    let holdsMessage = withMessage.map { displayWidth($0) < columns } ?? false
    if holdsMessage, let withMessage { text = withMessage }
    if displayWidth(text + " · ? keys") < columns { text += " · ? keys" }
    // The name, where at least a few of its columns fit.
    let room = columns - displayWidth(text) - 4
    if room >= 6 { text += " · " + truncated(escapingControlCharacters(feed), columns: room) }
    return (fitted(text + " ", to: columns), holdsMessage)
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
