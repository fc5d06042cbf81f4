/// Memory for `count` values that this value owns: allocated when it is made, deinitialized and
/// freed when it ends. Every access through it is checked against the count in debug builds.
/// Its members are public and inlinable, so that a caller in another module reads a value as
/// fast as through a pointer of its own: Swift 6.3 inlines no `package` function across modules.
/// No product exports this module.
///
/// Its pointer is for code that must reach the values without Swift's help, such as a signal
/// handler; that code must not keep it beyond the value's life.
public struct OwnedMemory<Element>: ~Copyable {
  /// The first of the values.
  @usableFromInline package let pointer: UnsafeMutablePointer<Element>
  @usableFromInline package let count: Int

  /// `count` copies of `value`.
  @inlinable public init(repeating value: Element, count: Int) {
    precondition(count > 0, "owned memory holds at least one value")
    pointer = .allocate(capacity: count)
    pointer.initialize(repeating: value, count: count)
    self.count = count
  }

  /// The value at `index`.
  @inlinable public subscript(index: Int) -> Element {
    get {
      assert(index >= 0 && index < count, "index \(index) outside \(count) values")
      return pointer[index]
    }
    nonmutating set {
      assert(index >= 0 && index < count, "index \(index) outside \(count) values")
      pointer[index] = newValue
    }
  }

  /// The values in `range`, as a buffer that must not outlive this value.
  @inlinable package func buffer(_ range: Range<Int>) -> UnsafeMutableBufferPointer<Element> {
    assert(range.lowerBound >= 0 && range.upperBound <= count, "\(range) outside \(count) values")
    return UnsafeMutableBufferPointer(start: pointer + range.lowerBound, count: range.count)
  }

  @inlinable deinit {
    pointer.deinitialize(count: count)
    pointer.deallocate()
  }
}

extension OwnedMemory where Element: BitwiseCopyable {
  /// Memory for `count` plain values, none written yet: for an owner that writes each value
  /// before it reads it, and would waste the time of writing them all first.
  @inlinable public init(unwrittenCount count: Int) {
    precondition(count > 0, "owned memory holds at least one value")
    pointer = .allocate(capacity: count)
    self.count = count
  }

  /// Copies the `length` values from `source` over those from `destination`; the two ranges
  /// do not overlap.
  @inlinable public func copy(_ length: Int, from source: Int, to destination: Int) {
    assert(
      source >= 0 && destination >= 0 && max(source, destination) + length <= count,
      "\(length) values from \(source) to \(destination) outside \(count)")
    assert(source + length <= destination || destination + length <= source, "overlapping")
    (pointer + destination).update(from: pointer + source, count: length)
  }
}
