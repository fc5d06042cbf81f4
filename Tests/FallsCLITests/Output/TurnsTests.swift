import FallsBase
import Foundation
import Testing

@testable import FallsCLI

@Suite struct TurnsTests {
  @Test("Chunks are taken once each, in order, and none past the count")
  func taking() {
    let turns = Turns(sink: BufferSink())
    #expect((0..<4).map { _ in turns.take(below: 3) } == [0, 1, 2, nil])
  }

  @Test("Workers that finish out of order still send in order", arguments: [1, 2, 8])
  func order(workers: Int) {
    let sink = BufferSink()
    let turns = Turns(sink: sink)
    let count = 200
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while let index = turns.take(below: count) {
        // A later chunk may be ready first; it waits for its turn.
        if index % 7 == 0 { usleep(50) }
        guard turns.wait(for: index) else { return }
        do throws(SystemError) { try turns.sink.write("\(index)\n") } catch { turns.fail(error) }
        turns.finish(index)
      }
    }
    #expect(sink.text == (0..<count).map { "\($0)\n" }.joined())
    #expect(turns.failure == nil)
  }

  @Test("The first failure stops the taking and the waiting")
  func failure() {
    let turns = Turns(sink: BufferSink())
    #expect(turns.take(below: 5) == 0)
    turns.fail(SystemError(code: EIO))
    turns.fail(SystemError(code: ENOSPC))
    #expect(turns.failure == SystemError(code: EIO))
    #expect(turns.take(below: 5) == nil)
    #expect(turns.wait(for: 3) == false)
  }
}
