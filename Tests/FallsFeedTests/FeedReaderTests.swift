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

  @Test("System error texts are the C library's")
  func errorText() {
    #expect(FeedReader.systemError(2) == "No such file or directory")
    #expect(FeedReader.systemError(13) == "Permission denied")
  }
}
