import FallsBase
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A path in the temporary directory that no other test uses.
private func temporaryPath(_ suffix: String) -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("falls-reader-\(UInt64.random(in: 0 ... .max))\(suffix)").path
}

/// A feed of `count` items, about 90 bytes each.
private func feedText(count: Int) -> String {
  let items = (0..<count).map { index in
    #"{"img":"https://img.example.com/p/\#(index).jpg","width":"\#(100 + index % 1900)","#
      + #""height":"\#(100 + index % 2900)"}"#
  }
  return #"{"data":["# + items.joined(separator: ",") + "]}"
}

@Suite(.tags(.process)) struct FeedReaderTests {
  @Test("A file is read whole")
  func readsFile() throws {
    let path = Fixtures.path("mj-shop-1.json")
    #expect(try FeedReader.load(path: path).data == Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test("A missing file gives the system's reason")
  func missing() {
    #expect(
      throws: FeedError.unreadable(
        path: "/nonexistent/feed.json", reason: "No such file or directory")
    ) {
      try FeedReader.load(path: "/nonexistent/feed.json").data
    }
  }

  @Test("A directory is refused")
  func directory() {
    #expect(throws: FeedError.unreadable(path: "/tmp", reason: "it is a directory")) {
      try FeedReader.load(path: "/tmp").data
    }
  }

  @Test(
    "A file of /proc or /sys is no feed, whatever its length says",
    arguments: [
      "/proc/self/status", "/proc/self/pagemap", "/proc/self/environ", "/sys/kernel/uevent_seqnum",
    ])
  func pseudoFiles(path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else { return }
    #expect {
      try FeedReader.load(path: path, maxBytes: 1 << 20, limitsRegularFile: false).data
    } throws: { error in
      guard case .unreadable(_, let reason) = error as? FeedError else { return false }
      return reason.contains("a view of the system, not a feed file")
    }
  }

  @Test("A file that says it is empty is read as a stream, held to the limit")
  func emptyFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-empty-\(UInt64.random(in: 0 ... .max))").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try FeedReader.load(path: path, maxBytes: 10, limitsRegularFile: false).data.isEmpty)
  }

  @Test("A file larger than one read chunk arrives intact")
  func largeFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-reader-\(UInt64.random(in: 0 ... .max)).bin").path
    let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try bytes.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try FeedReader.load(path: path).data == bytes)
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
    #expect(SystemError(code: 2).message == "No such file or directory")
    #expect(SystemError(code: 13).message == "Permission denied")
  }

  @Test(
    "A regular file larger than the limit is refused before it is read", arguments: [1, 1 << 21])
  func fileOverLimit(size: Int) throws {
    let path = temporaryPath(".json")
    try Data(repeating: 0x20, count: size + 1).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: FeedError.tooLarge(path: path, limit: size)) {
      try FeedReader.load(path: path, maxBytes: size)
    }
    #expect(try FeedReader.load(path: path, maxBytes: size + 1).data.count == size + 1)
  }

  @Test(
    "A device that never ends is read only up to the limit",
    arguments: ["/dev/zero", "/dev/urandom"])
  func endlessDevice(path: String) {
    #expect(throws: FeedError.tooLarge(path: path, limit: 100_000)) {
      try FeedReader.load(path: path, maxBytes: 100_000)
    }
  }

  @Test("A FIFO with no writer fails after --timeout when one is given, and is read when one comes")
  func fifo() throws {
    let path = temporaryPath(".fifo")
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let start = ContinuousClock.now
    #expect {
      try FeedReader.load(path: path, writerTimeout: 0.3)
    } throws: { error in
      guard case .unreadable(_, let reason) = error as? FeedError else { return false }
      return reason == "no writer opened the FIFO within 0.3 s (--timeout)"
    }
    #expect(ContinuousClock.now - start >= .milliseconds(300))
    // A writer that comes in time is read to its end.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
      let descriptor = open(path, O_WRONLY)
      _ = "{\"data\":[]}".withCString { write(descriptor, $0, 11) }
      close(descriptor)
    }
    #expect(try FeedReader.load(path: path, writerTimeout: 10).data == Data("{\"data\":[]}".utf8))
  }

  @Test("A mapped file cut short before it is read is reported as changed, not a crash (SIGBUS)")
  func truncatedUnderMapping() throws {
    let path = temporaryPath(".json")
    let text = feedText(count: 40_000)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let mapped = try FeedReader.load(path: path)
    #expect(mapped.isFileMapping)
    // Cut to 100 bytes: every page past the first now faults when read.
    #expect(truncate(path, 100) == 0)
    #expect {
      try FeedDecoder.decode(mapped)
    } throws: { error in
      guard case .unreadable(let named, let reason) = error as? FeedError else { return false }
      return named == path && reason.hasPrefix("it changed (it was cut short) while it was read")
    }
    // Another mapping of another file is not affected by the first one's fault.
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let again = try FeedReader.load(path: path)
    #expect(try FeedDecoder.decode(again).items.count == 40_000)
  }

  @Test("A file cut short while falls parses it ends with 66 or with the layout, never a signal")
  func truncatedWhileParsing() async throws {
    let path = temporaryPath(".json")
    try Data(feedText(count: 250_000).utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The cut comes as soon as falls has mapped the file: while it parses it.
    let quoted = shellQuoted(path)
    let run = try await shell(
      "\"$FALLS\" layout --feed \(quoted) --max-bytes 1000000000 --format jsonl > /dev/null & "
        + "pid=$!; while ! grep -qF \(quoted) /proc/$pid/maps 2>/dev/null; do "
        + "kill -0 $pid 2>/dev/null || break; done; truncate -s 100 \(quoted); wait $pid")
    #expect(run.status == 66 || run.status == 0, "status \(run.status): \(run.error)")
    if run.status == 66 {
      #expect(run.error.contains("changed (it was cut short) while it was read"), "\(run.error)")
    }
  }
}
