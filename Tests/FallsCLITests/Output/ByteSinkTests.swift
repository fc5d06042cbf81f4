import FallsBase
import Foundation
import Testing

@testable import FallsCLI

@Suite struct ByteSinkTests {
  @Test("A descriptor sink writes every byte into a pipe")
  func pipe() throws {
    let pipe = Pipe()
    let sink = FileDescriptorSink(descriptor: pipe.fileHandleForWriting.fileDescriptor)
    let text = String(repeating: "瀑布流 waterfall\n", count: 1_000)
    try sink.write(text)
    try pipe.fileHandleForWriting.close()
    let read = pipe.fileHandleForReading.readDataToEndOfFile()
    #expect(String(decoding: read, as: UTF8.self) == text)
  }

  @Test("A full device reports ENOSPC")
  func fullDevice() throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    defer { try? handle.close() }
    let sink = FileDescriptorSink(descriptor: handle.fileDescriptor)
    #expect(throws: SystemError(code: 28)) { try sink.write("x") }
  }

  @Test("A buffer sink keeps what it is given")
  func buffer() throws {
    let sink = BufferSink()
    try sink.write("a")
    try sink.write("é")
    #expect(sink.text == "aé")
    #expect(sink.bytes == [0x61, 0xC3, 0xA9])
  }
}
