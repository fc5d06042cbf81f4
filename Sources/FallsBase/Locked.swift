import Foundation

/// A value that threads share, reached only while its lock is held.
///
/// It stands in for the standard library's `Mutex`, whose lock on Linux waits in futex calls
/// that ThreadSanitizer cannot follow: every value two threads reach through a `Mutex` is
/// reported as a race there (`swift test --sanitize=thread`, which CI runs). This lock is a
/// pthread mutex, which the sanitizer sees.
///
/// A lock that guards no value of its own is an `NSLock`: the sanitizer reports a `Locked(())`
/// as raced, its empty value having no place of its own.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: sending Value) {
    self.value = value
  }

  /// What `body` makes of the value, which it may change; no other thread reaches the value
  /// until `body` returns or throws.
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
