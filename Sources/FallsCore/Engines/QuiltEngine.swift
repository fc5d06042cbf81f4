/// The engine of the `grid` style (规则瀑布流): items fill the tiles of a repeating
/// ``QuiltPattern`` in order, block after block, whatever their image sizes.
///
/// Item *i* fills tile *i* mod *t* of block ⌊*i*/*t*⌋ for *t* tiles; a block is the pattern's
/// rows of square cells one column wide, and blocks follow each other with the row spacing
/// between them. A tile larger than one cell is reported enlarged.
struct QuiltEngine: SequentialEngine {
  let configuration: LayoutConfiguration
  let working: LayoutConfiguration
  let columnXs: [Double]
  private var lowest = -Double.infinity

  init(_ configuration: LayoutConfiguration) {
    self.configuration = configuration
    let working = configuration.working
    self.working = working
    columnXs = (0..<working.columns).map { working.x(ofColumn: $0) }
  }

  var columnBottoms: [Double?] { [] }
  var transforms: [Transform3D] { [] }
  var centers: [Point] { [] }
  var isIndexed: Bool { true }

  func contentExtent(elements: [LayoutElement]) -> Double {
    ColumnsEngine.contentExtent(lowestBottom: lowest, isEmpty: elements.isEmpty, working: working)
  }

  mutating func append<Items: Sequence<LayoutItem>>(
    items: Items, to elements: inout [LayoutElement], index: inout BlockIndex
  ) throws(LayoutError) {
    let pattern = working.pattern
    let cell = working.columnWidth
    let rowPitch = cell + working.rowSpacing
    var lowest = self.lowest
    var placed: [LayoutElement] = []
    placed.reserveCapacity(items.underestimatedCount)
    try columnXs.withUnsafeBufferPointer { (columnXs) throws(LayoutError) in
      let transform = Mapped(columnXs: columnXs, configuration: configuration)
      for (offset, item) in items.enumerated() {
        let position = elements.count + offset
        // Sizes are not used, but must be sizes.
        guard item.hasValidSize, item.span >= 1 else {
          throw .invalidItemSize(index: position, width: item.width, height: item.height)
        }
        let tile = pattern.tiles[position % pattern.tiles.count]
        // The top of row `row`, the rows of all blocks counted from the first: its block's
        // top, and its rows in the block.
        let firstRow = position / pattern.tiles.count * pattern.rows + tile.row
        func rowTop(_ row: Int) -> Double {
          let blockTop = working.insets.top + Double(row / pattern.rows * pattern.rows) * rowPitch
          return blockTop + Double(row % pattern.rows) * rowPitch
        }
        let top = rowTop(firstRow)
        let extent = Double(tile.rowSpan) * cell + Double(tile.rowSpan - 1) * working.rowSpacing
        guard top + extent <= LayoutConfiguration.maximumExtent else {
          throw .heightOverflow(index: position)
        }
        lowest = max(lowest, top + extent)
        let width = ColumnsEngine.width(
          ofSpan: tile.columnSpan, columnWidth: cell, spacing: working.columnSpacing)
        placed.append(
          LayoutElement(
            index: position, column: tile.column, span: tile.columnSpan,
            frame: transform.frame(
              column: tile.column, span: tile.columnSpan, top: top, extent: extent, width: width,
              nextTop: rowTop(firstRow + tile.rowSpan)),
            isEnlarged: tile.columnSpan > 1 || tile.rowSpan > 1, isAligned: false))
      }
    }
    self.lowest = lowest
    let startCount = elements.count
    FallsCore.append(placed, to: &elements)
    index.add(elements[startCount...], axis: configuration.axis)
  }
}
