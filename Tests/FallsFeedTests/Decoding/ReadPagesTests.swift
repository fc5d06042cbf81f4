import Foundation
import Testing

@testable import FallsFeed

@Suite struct ReadPagesTests {
  @Test(
    "Only the pages wholly within the range read are given back",
    arguments: [
      // (range, base address, the pages' addresses), pages of 4096 bytes.
      (0..<4095, 0, nil), (0..<4096, 0, 0..<4096), (1..<8192, 0, 4096..<8192),
      (0..<8191, 0, 0..<4096), (100..<12_388, 4000, 8192..<16_384), (5..<5, 0, nil),
      (4096..<4097, 0, nil),
    ] as [(Range<Int>, Int, Range<Int>?)])
  func wholePages(range: Range<Int>, base: Int, pages: Range<Int>?) {
    #expect(ReadPages.wholePages(of: range, at: base, pageSize: 4096) == pages)
  }

  @Test("Pages are given back once a stride of bytes is read, and only when releasing")
  func stride() throws {
    let bytes = [UInt8](repeating: 7, count: 3 * ReadPages.stride)
    try bytes.withUnsafeBufferPointer { buffer in
      // Bytes in memory of their own: never given back (they would read as zeros).
      var kept = ReadPages(of: buffer, from: 0, isReleasing: false)
      kept.read(upTo: 2 * ReadPages.stride)
      #expect(kept.released == 0)
      #expect(buffer.allSatisfy { $0 == 7 })
      let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "falls-pages-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: path) }
      try Data(bytes).write(to: path)
      let mapped = try FeedReader.load(path: path.path, limitsRegularFile: false)
      #expect(mapped.isFileMapping)
      mapped.data.withUnsafeBytes { raw in
        let file = raw.bindMemory(to: UInt8.self)
        var pages = ReadPages(of: file, from: 10, isReleasing: true)
        pages.read(upTo: ReadPages.stride)
        #expect(pages.released == 10)
        pages.read(upTo: ReadPages.stride + 10)
        #expect(pages.released == ReadPages.stride + 10)
        // Given back, the pages of a file read from the file again: the bytes are the same.
        #expect(file.allSatisfy { $0 == 7 })
      }
    }
  }
}
