extension Array {
  /// An array that `initialize` fills, as `init(unsafeUninitializedCapacity:initializingWith:)`
  /// makes it, but always in storage of its own. Asked for a capacity of 0, the standard
  /// library (Swift 6.3) writes the count into the one empty-array storage every array in the
  /// process shares: two threads doing that at once race, and ThreadSanitizer says so. Room for
  /// at least one element avoids it, at the price of an allocation for an empty array.
  @inlinable public init(
    ownStorageFor capacity: Int,
    initializingWith initialize: (inout UnsafeMutableBufferPointer<Element>, inout Int) -> Void
  ) {
    self.init(unsafeUninitializedCapacity: Swift.max(capacity, 1), initializingWith: initialize)
  }
}
