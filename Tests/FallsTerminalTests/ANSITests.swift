import Testing

@testable import FallsTerminal

@Suite struct ANSITests {
  @Test("Cursor moves count from 1")
  func move() {
    #expect(ANSI.move(row: 3, column: 1) == "\u{1B}[3;1H")
  }
}
