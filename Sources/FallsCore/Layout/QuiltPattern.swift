/// One tile of a quilt: where it sits in its block and how many cells it covers.
public struct QuiltTile: Hashable, Sendable {
  /// The leftmost column, from 0.
  public var column: Int
  /// The top row within the block, from 0.
  public var row: Int
  /// How many columns the tile covers, at least 1.
  public var columnSpan: Int
  /// How many rows the tile covers, at least 1.
  public var rowSpan: Int

  /// Creates a tile.
  public init(column: Int, row: Int, columnSpan: Int, rowSpan: Int) {
    self.column = column
    self.row = row
    self.columnSpan = columnSpan
    self.rowSpan = rowSpan
  }
}

/// Why tiles do not make a quilt.
public enum QuiltError: Error, Hashable, Sendable {
  /// A quilt needs at least one tile.
  case empty
  /// A span is below 1 or above ``QuiltPattern/maximumSpan``; `index` is the tile's position.
  case invalidSpan(index: Int)
  /// A tile is wider than the quilt, or sticks out of it.
  case outOfBounds(index: Int, columns: Int)
  /// A tile covers a cell another tile covers.
  case overlap(index: Int)
}

/// A repeating block of tiles for the `grid` style (规则瀑布流): items fill the tiles in order,
/// block after block downward.
///
/// A block is `columns` square cells wide and as many rows tall as its tiles reach. Cells are
/// one column wide and as tall as they are wide; a tile spanning `c` columns and `r` rows is
/// `c·w + (c−1)·columnSpacing` wide and `r·w + (r−1)·rowSpacing` tall.
public struct QuiltPattern: Hashable, Sendable {
  /// The block's width in columns.
  public let columns: Int
  /// The tiles, in the order items fill them.
  public let tiles: [QuiltTile]

  /// The largest span a tile may have.
  public static let maximumSpan = 1_000

  /// The seed's block, 3 columns by 3 rows: one 2×2 square at the left, three 1×1 squares down
  /// the right column, then two 1×1 squares along the bottom from right to left.
  public static let seed = QuiltPattern(
    uncheckedColumns: 3,
    tiles: [
      QuiltTile(column: 0, row: 0, columnSpan: 2, rowSpan: 2),
      QuiltTile(column: 2, row: 0, columnSpan: 1, rowSpan: 1),
      QuiltTile(column: 2, row: 1, columnSpan: 1, rowSpan: 1),
      QuiltTile(column: 2, row: 2, columnSpan: 1, rowSpan: 1),
      QuiltTile(column: 1, row: 2, columnSpan: 1, rowSpan: 1),
      QuiltTile(column: 0, row: 2, columnSpan: 1, rowSpan: 1),
    ])

  private init(uncheckedColumns columns: Int, tiles: [QuiltTile]) {
    self.columns = columns
    self.tiles = tiles
  }

  /// Creates a quilt from placed tiles.
  ///
  /// - Throws: ``QuiltError`` when there are no tiles, a span is out of range, a tile leaves
  ///   the block, or two tiles overlap.
  /// - Complexity: O(*t* · *a*) for *t* tiles covering *a* cells each.
  public init(columns: Int, tiles: [QuiltTile]) throws(QuiltError) {
    guard !tiles.isEmpty else { throw .empty }
    var covered = Set<Int>()
    for (index, tile) in tiles.enumerated() {
      guard (1...Self.maximumSpan).contains(tile.columnSpan),
        (1...Self.maximumSpan).contains(tile.rowSpan)
      else { throw .invalidSpan(index: index) }
      guard tile.column >= 0, tile.row >= 0, tile.row <= Self.maximumSpan * tiles.count,
        tile.column + tile.columnSpan <= columns
      else { throw .outOfBounds(index: index, columns: columns) }
      for row in tile.row..<tile.row + tile.rowSpan {
        for column in tile.column..<tile.column + tile.columnSpan {
          guard covered.insert(row * columns + column).inserted else {
            throw .overlap(index: index)
          }
        }
      }
    }
    self.init(uncheckedColumns: columns, tiles: tiles)
  }

  /// Creates a quilt by placing tiles of the given spans, in order, each at the first position
  /// where it fits: the topmost row, then the leftmost column.
  ///
  ///     try QuiltPattern(spans: [(2, 2), (1, 1), (1, 1)], columns: 3)
  ///     // 2×2 at (0, 0), 1×1 at (2, 0), 1×1 at (2, 1)
  ///
  /// - Throws: ``QuiltError`` when there are no spans, a span is out of range or a tile is
  ///   wider than the block.
  /// - Complexity: O(*t* · *r* · *c* · *a*) for *t* tiles, *r* rows, *c* columns, *a* cells.
  public init(spans: [(columns: Int, rows: Int)], columns: Int) throws(QuiltError) {
    guard !spans.isEmpty else { throw .empty }
    var covered = Set<Int>()
    var tiles: [QuiltTile] = []
    for (index, span) in spans.enumerated() {
      guard (1...Self.maximumSpan).contains(span.columns),
        (1...Self.maximumSpan).contains(span.rows)
      else { throw .invalidSpan(index: index) }
      guard span.columns <= columns else { throw .outOfBounds(index: index, columns: columns) }
      func fits(_ column: Int, _ row: Int) -> Bool {
        for r in row..<row + span.rows {
          for c in column..<column + span.columns where covered.contains(r * columns + c) {
            return false
          }
        }
        return true
      }
      var row = 0
      var placed: QuiltTile?
      while placed == nil {
        for column in 0...(columns - span.columns) where fits(column, row) {
          placed = QuiltTile(column: column, row: row, columnSpan: span.columns, rowSpan: span.rows)
          break
        }
        row += 1
      }
      guard let tile = placed else { throw .empty }
      for r in tile.row..<tile.row + tile.rowSpan {
        for c in tile.column..<tile.column + tile.columnSpan { covered.insert(r * columns + c) }
      }
      tiles.append(tile)
    }
    try self.init(columns: columns, tiles: tiles)
  }

  /// The block's height in rows: the lowest row any tile reaches.
  public var rows: Int {
    tiles.map { $0.row + $0.rowSpan }.max() ?? 0
  }
}
