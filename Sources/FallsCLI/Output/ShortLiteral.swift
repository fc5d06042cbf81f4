/// A literal of at most eight bytes chosen at run time, such as a list's separator, held in a
/// register: written with one store, where a `StaticString` chosen at run time is copied by a
/// loop that asks its length.
struct ShortLiteral {
  /// The bytes, the first in the lowest byte.
  let bytes: UInt64
  let count: Int

  init(_ text: StaticString) {
    precondition(text.utf8CodeUnitCount <= 8, "a short literal has at most eight bytes")
    var bytes: UInt64 = 0
    var count = 0
    text.withUTF8Buffer { utf8 in
      for byte in utf8.reversed() { bytes = bytes << 8 | UInt64(byte) }
      count = utf8.count
    }
    self.bytes = bytes
    self.count = count
  }
}
