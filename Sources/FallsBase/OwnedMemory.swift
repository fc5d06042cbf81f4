/// Memory for `count` values that this value owns: allocated and initialized when it is made,
/// deinitialized and freed when it ends.
///
/// Its pointer is for code that must reach the values without Swift's help, such as a signal
/// handler; that code must not keep it beyond the value's life.
package struct OwnedMemory<Element>: ~Copyable {
  /// The first of the values.
  package let pointer: UnsafeMutablePointer<Element>
  package let count: Int

  /// `count` copies of `value`.
  package init(repeating value: Element, count: Int) {
    precondition(count > 0, "owned memory holds at least one value")
    pointer = .allocate(capacity: count)
    pointer.initialize(repeating: value, count: count)
    self.count = count
  }

  /// The value at `index`, checked against the count in debug builds.
  package subscript(index: Int) -> Element {
    get {
      assert(index >= 0 && index < count, "index \(index) outside \(count) values")
      return pointer[index]
    }
    nonmutating set {
      assert(index >= 0 && index < count, "index \(index) outside \(count) values")
      pointer[index] = newValue
    }
  }

  deinit {
    pointer.deinitialize(count: count)
    pointer.deallocate()
  }
}
