import Dispatch
import FallsBase
import Testing

@Suite struct LockedTests {
  @Test("Changes made at once by many threads are all kept", arguments: [2, 8, 64])
  func noChangeLost(threads: Int) {
    let count = Locked(0)
    let rounds = 5_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<rounds {
        // A read and a write apart: without the lock, increments are lost.
        count.withLock { value in
          let seen = value
          value = seen + 1
        }
      }
    }
    #expect(count.withLock { $0 } == threads * rounds)
  }

  @Test("What the body returns is returned; what it throws is thrown, and the lock is free")
  func returnsAndThrows() {
    struct Refused: Error, Equatable {}
    let words = Locked(["a"])
    let count = words.withLock { value in
      value.append("b")
      return value.count
    }
    #expect(count == 2)
    #expect(throws: Refused()) {
      try words.withLock { (value) throws(Refused) in
        value.append("c")
        throw Refused()
      }
    }
    // Taken again on this thread: a lock left held would never return here.
    #expect(words.withLock { $0 } == ["a", "b", "c"])
  }
}
