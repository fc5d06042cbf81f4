import FallsFeed
import FallsTestSupport
import Foundation
import Testing

@Suite struct FeedReaderTests {
  @Test("A file is read whole")
  func readsFile() throws {
    let path = Fixtures.path("mj-shop-1.json")
    #expect(try FeedReader.read(path: path) == Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test("A missing file gives the system's reason")
  func missing() {
    #expect(
      throws: FeedError.unreadable(
        path: "/nonexistent/feed.json", reason: "No such file or directory")
    ) {
      try FeedReader.read(path: "/nonexistent/feed.json")
    }
  }

  @Test("A directory is refused")
  func directory() {
    #expect(throws: FeedError.unreadable(path: "/tmp", reason: "it is a directory")) {
      try FeedReader.read(path: "/tmp")
    }
  }

  @Test("A file larger than one read chunk arrives intact")
  func largeFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-reader-\(UInt64.random(in: 0 ... .max)).bin").path
    let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try bytes.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try FeedReader.read(path: path) == bytes)
  }

  @Test(
    "A large feed file is mapped; decoding it gives its pages back, and changes neither the result nor the bytes"
  )
  func mappedFeed() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-mapped-\(UInt64.random(in: 0 ... .max)).json").path
    // About 18 MB: mapped, read in two halves, and each half gives pages back as it reads.
    let items = (0..<220_000).map { index in
      #"{"img":"https://img.example.com/p/\#(index).jpg","width":"\#(100 + index % 1900)","#
        + #""height":"\#(100 + index % 2900)"}"#
    }
    let text = #"{"data":["# + items.joined(separator: ",") + "]}"
    let original = Data(text.utf8)
    try original.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }

    let mapped = try FeedReader.load(path: path)
    #expect(mapped.isFileMapping)
    let fromMapping = try FeedDecoder.decode(mapped)
    #expect(fromMapping == (try FeedDecoder.decode(original)))
    // Pages given back are read from the file again when touched; bytes in memory of their own
    // are never given back (that would zero them).
    // (Compared outside #expect: a failure would otherwise diff 18 MB of bytes.)
    let mappingIntact = mapped.data == original
    let memoryIntact = original == Data(text.utf8)
    #expect(mappingIntact)
    #expect(memoryIntact)
    #expect(fromMapping.items.count == 220_000)
    #expect(fromMapping.items[219_999].img == "https://img.example.com/p/219999.jpg")
    // A small file is read, not mapped.
    let small = try FeedReader.load(path: Fixtures.path("mj-shop-1.json"))
    #expect(!small.isFileMapping)
  }

  @Test("System error texts are the C library's")
  func errorText() {
    #expect(FeedReader.systemError(2) == "No such file or directory")
    #expect(FeedReader.systemError(13) == "Permission denied")
  }
}
