import FallsBase
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct SystemErrorTests {
  @Test("An error says what the system says of it")
  func message() {
    #expect(SystemError(code: ENOENT).message == "No such file or directory")
    #expect(SystemError(code: EPIPE).message == "Broken pipe")
  }

  @Test("A pipe is read up to the limit and no further")
  func pipeOverLimit() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // More than the limit, in a pipe whose writer stays open: reading stops at the limit.
    let chunk = [UInt8](repeating: 0x41, count: 4096)
    for _ in 0..<10 { _ = chunk.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
    #expect(try readAll(ends[0], maxBytes: 10_000) == nil)
    close(ends[1])
  }

  @Test("A pipe is read to its end within the limit")
  func pipeWithinLimit() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let text = Array("瀑布流".utf8)
    _ = text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    #expect(try readAll(ends[0], maxBytes: text.count).map(Array.init) == text)
  }

  @Test("A descriptor that cannot be read reports its error")
  func badDescriptor() {
    #expect(throws: SystemError(code: EBADF)) { try readAll(-1) }
  }
}
