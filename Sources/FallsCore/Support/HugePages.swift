// The one place the engine speaks to the C library: a hint that a large array it is about to fill
// should be backed by transparent huge pages. A million elements take 48 MB of new memory, and
// faulting it in 4 KiB at a time costs more than placing the items (BENCHMARKS.md); the hint
// changes no byte of any array.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Asks the kernel to back the large arrays the engine fills at once with huge pages.
enum HugePages {
  /// The size of a transparent huge page on x86-64 and on arm64 with 4 KiB base pages.
  static let size = 2 << 20
  /// Arrays smaller than this are left alone: they hold at most one whole huge page.
  static let threshold = 4 << 20

  /// The huge-page-aligned part of `byteCount` bytes from `start`, as addresses, or `nil` when
  /// the span is under ``threshold`` or holds no whole huge page.
  static func alignedRange(start: UInt, byteCount: Int) -> Range<UInt>? {
    guard byteCount >= threshold else { return nil }
    let mask = UInt(size - 1)
    let (end, overflow) = start.addingReportingOverflow(UInt(byteCount))
    guard !overflow, start <= UInt.max - mask else { return nil }
    let lower = (start + mask) & ~mask
    let upper = end & ~mask
    return lower < upper ? lower..<upper : nil
  }

  /// Advises huge pages for the aligned part of `byteCount` bytes from `base`; does nothing
  /// where the platform has no such advice. Memory already touched keeps its pages.
  static func advise(_ base: UnsafeMutableRawPointer, byteCount: Int) {
    #if os(Linux)
      guard
        let range = alignedRange(start: UInt(bitPattern: base), byteCount: byteCount),
        let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound)
      else { return }
      // Only a hint: a kernel without transparent huge pages says EINVAL, which changes nothing.
      _ = madvise(start, Int(range.upperBound - range.lowerBound), MADV_HUGEPAGE)
    #endif
  }

  /// Advises huge pages for the memory of `buffer`, about to be written.
  static func advise<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    guard let base = buffer.baseAddress else { return }
    advise(UnsafeMutableRawPointer(base), byteCount: buffer.count * MemoryLayout<Element>.stride)
  }

  /// Advises huge pages for the whole capacity of `array`, elements and room alike.
  static func advise<Element>(_ array: inout [Element]) {
    let byteCount = array.capacity * MemoryLayout<Element>.stride
    guard byteCount >= threshold else { return }
    array.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      advise(UnsafeMutableRawPointer(base), byteCount: byteCount)
    }
  }
}
