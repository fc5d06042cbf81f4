import Testing

@testable import FallsCore

/// Columns in the state that `bottoms` and `flags` give (a column is reachable at its bottom
/// unless it is empty), between the two NaN sentinels, with a top inset of 10 and a row spacing
/// of 4; calls `body` with their view.
func withColumns<Result>(
  bottoms: [Double], flags: [UInt8], _ body: (ColumnView) -> Result
) -> Result {
  var state = ColumnState(
    LayoutConfiguration(columns: bottoms.count, insets: EdgeInsets(all: 10)))
  state.bottoms = [.nan] + bottoms + [.nan]
  state.reachable =
    [.nan] + zip(bottoms, flags).map { $1 & ColumnState.empty != 0 ? .nan : $0 } + [.nan]
  state.flags = [0] + flags + [0]
  return state.withView(insetTop: 10, rowSpacing: 4, body)
}

@Suite struct ColumnStateTests {
  @Test("Empty columns start at the top inset, between sentinels that equal nothing")
  func emptyState() {
    let state = ColumnState(LayoutConfiguration(columns: 3, insets: EdgeInsets(all: 7)))
    #expect(state.bottoms.count == 5 && state.bottoms[1...3].allSatisfy { $0 == 7 })
    #expect(state.bottoms[0].isNaN && state.bottoms[4].isNaN)
    #expect(state.reachable.allSatisfy { $0.isNaN })
    #expect(state.flags == [0, ColumnState.empty, ColumnState.empty, ColumnState.empty, 0])
    #expect(state.columnBottoms == [nil, nil, nil])
    #expect(state.lowest == -.infinity && state.previousEnlarged == 0 && state.cursor == 0)
  }

  @Test("An item starts at the top inset in an empty column, else row spacing below its bottom")
  func tops() {
    withColumns(bottoms: [10, 50, 80, 20], flags: [ColumnState.empty, 0, 0, 0]) { view in
      #expect(view.top(of: 0, bottom: 10) == 10)
      #expect(view.top(of: 1, bottom: 50) == 54)
      // Across columns: below the lowest of their tops.
      #expect(view.top(of: 0, span: 2) == 54)
      #expect(view.top(of: 1, span: 3) == 84)
      #expect(view.top(of: 0, span: 4) == 84)
      #expect(view.maxBottom(from: 2, span: 2) == 80)
      #expect(view.maxBottom(from: 0, span: 1) == 10)
    }
  }
}
