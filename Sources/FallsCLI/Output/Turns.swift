import FallsBase
import Foundation

/// Which chunk the next worker takes, whose turn it is to send a formatted chunk to the sink,
/// and the first failure to send.
///
/// `@unchecked Sendable`: its counters are read and written only while ``condition`` is
/// locked, and the sink is used only by the worker whose turn it is. A condition, not a Mutex,
/// because workers wait for their turn.
final class Turns: @unchecked Sendable {
  /// Used by one worker at a time: the one whose turn it is.
  let sink: any ByteSink
  private let condition = NSCondition()
  private var taken = 0
  private var next = 0
  private(set) var failure: SystemError?

  init(sink: any ByteSink) {
    self.sink = sink
  }

  /// The next chunk nobody has taken, if one is left of `count` and sending has not failed.
  func take(below count: Int) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    guard taken < count, failure == nil else { return nil }
    taken += 1
    return taken - 1
  }

  /// Waits until chunk `index` may be sent; false when sending has failed and the work stops.
  func wait(for index: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while next != index && failure == nil { condition.wait() }
    return failure == nil
  }

  /// Records that chunk `index` has been sent.
  func finish(_ index: Int) {
    condition.lock()
    next = index + 1
    condition.broadcast()
    condition.unlock()
  }

  func fail(_ error: SystemError) {
    condition.lock()
    if failure == nil { failure = error }
    condition.broadcast()
    condition.unlock()
  }
}
