import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pages of a mapped file that a reader has read, given back to the system as it reads on,
/// so that a large file is never all in memory at once.
///
/// For a read-only private mapping of a file only (``FeedBytes/isFileMapping``): a page given
/// back is read from the file again if it is touched again, so the bytes never change. For
/// bytes in memory of their own, ``isReleasing`` is false and nothing is given back (their
/// pages would read as zeros).
///
///     var pages = ReadPages(of: bytes, from: start, isReleasing: input.isFileMapping)
///     while … { read an item; pages.read(upTo: scanner.position) }
struct ReadPages {
  /// The bytes read.
  let bytes: UnsafeBufferPointer<UInt8>
  /// Whether pages are given back.
  let isReleasing: Bool
  /// Where the bytes not yet given back start.
  private(set) var released: Int

  /// How many bytes are read between two givings back: few calls, and little held.
  static let stride = 1 << 22

  /// A reader of `bytes` from `start`, giving back what it reads when `isReleasing`.
  init(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, isReleasing: Bool) {
    self.bytes = bytes
    self.isReleasing = isReleasing
    released = start
  }

  /// Notes that the bytes up to `position` are read: once ``stride`` bytes are, their whole
  /// pages are given back.
  ///
  /// - Complexity: O(1); a system call once every ``stride`` bytes.
  @inline(__always)
  mutating func read(upTo position: Int) {
    guard isReleasing, position - released >= Self.stride else { return }
    Self.release(released..<position, of: bytes)
    released = position
  }

  /// Gives back the whole pages of `bytes` within `range`.
  static func release(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress,
      let pages = wholePages(
        of: range, at: Int(bitPattern: base), pageSize: Int(sysconf(Int32(_SC_PAGESIZE)))),
      let start = UnsafeMutableRawPointer(bitPattern: pages.lowerBound)
    else { return }
    madvise(start, pages.count, MADV_DONTNEED)
  }

  /// The addresses of the whole pages within `range` of bytes that start at address `base`, or
  /// `nil` when no page lies wholly within it: a page is given back only when every byte of it
  /// is read.
  static func wholePages(of range: Range<Int>, at base: Int, pageSize: Int) -> Range<Int>? {
    let low = (base + range.lowerBound + pageSize - 1) / pageSize * pageSize
    let high = (base + range.upperBound) / pageSize * pageSize
    return high > low ? low..<high : nil
  }
}
