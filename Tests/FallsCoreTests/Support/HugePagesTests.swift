import Foundation
import Testing

@testable import FallsCore

@Suite struct HugePagesTests {
  static let page = UInt(HugePages.size)

  @Test(
    "The advised part is the whole huge pages inside the span, and only of large spans",
    arguments: [
      // Below the threshold: nothing, however aligned.
      (start: 0x4000_0000, byteCount: HugePages.threshold - 1, expected: nil),
      (start: 0x4000_0000, byteCount: 0, expected: nil),
      // Aligned at both ends: all of it.
      (start: 0x4000_0000, byteCount: HugePages.threshold, expected: 0x4000_0000..<0x4040_0000),
      // A malloc'd block: 16 bytes past a page boundary, so the first and last pages are partial.
      (start: 0x4000_0010, byteCount: 6 << 20, expected: 0x4020_0000..<0x4060_0000),
      (start: 0x401F_FFFF, byteCount: 5 << 20, expected: 0x4020_0000..<0x4060_0000),
      // Too close to the top of the address space to round up: nothing.
      (start: UInt.max - 100, byteCount: HugePages.threshold, expected: nil),
    ] as [(start: UInt, byteCount: Int, expected: Range<UInt>?)])
  func alignedRange(start: UInt, byteCount: Int, expected: Range<UInt>?) {
    let range = HugePages.alignedRange(start: start, byteCount: byteCount)
    #expect(range == expected)
    if let range {
      // By an independent rule: aligned ends, inside the span, less than a page lost at each end.
      #expect(range.lowerBound % Self.page == 0 && range.upperBound % Self.page == 0)
      #expect(range.lowerBound >= start && range.upperBound <= start + UInt(byteCount))
      #expect(range.lowerBound - start < Self.page)
      #expect(start + UInt(byteCount) - range.upperBound < Self.page)
    }
  }

  @Test(
    "A large layout's elements are advised to the kernel as huge pages",
    .enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage")))
  func largeLayoutIsAdvised() throws {
    let items = (0..<200_000).map { LayoutItem(width: 100, height: Double(100 + $0 % 97)) }
    // Appended at once (the loop's own array), and reserved, then appended in pages.
    var whole = try WaterfallLayout(LayoutConfiguration(style: .waterfall, columns: 4))
    try whole.append(items)
    var paged = try WaterfallLayout(LayoutConfiguration(style: .irregular, columns: 4))
    paged.reserveCapacity(items.count)
    for start in stride(from: 0, to: items.count, by: 50_000) {
      try paged.append(Array(items[start..<start + 50_000]))
    }
    for layout in [whole, paged] { try Self.expectAdvised(layout) }
  }

  static func expectAdvised(_ layout: WaterfallLayout) throws {
    let byteCount = layout.elements.capacity * MemoryLayout<LayoutElement>.stride
    let base = layout.elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    let range = try #require(HugePages.alignedRange(start: base, byteCount: byteCount))
    // The kernel marks an advised mapping `hg` in /proc/self/smaps.
    #expect(try Self.flags(ofMappingAt: range.lowerBound).contains("hg"))
    #expect(try Self.flags(ofMappingAt: range.upperBound - 1).contains("hg"))
  }

  /// The `VmFlags` of the mapping of this process that holds `address`.
  static func flags(ofMappingAt address: UInt) throws -> [Substring] {
    // Read to the end: String(contentsOfFile:) stops after the first read of a /proc file.
    let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
    let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    var isInside = false
    for line in maps.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if let bounds = fields.first, bounds.contains("-"), !bounds.hasSuffix(":") {
        let ends = bounds.split(separator: "-").compactMap { UInt($0, radix: 16) }
        isInside = ends.count == 2 && ends[0] <= address && address < ends[1]
      } else if isInside, fields.first == "VmFlags:" {
        return Array(fields.dropFirst())
      }
    }
    Issue.record("no mapping holds \(String(address, radix: 16))")
    return []
  }
}
