import FallsMemory
import Testing

@Suite struct OwnedMemoryTests {
  @Test("Memory made by repeating a value holds that value everywhere, and takes writes")
  func repeating() {
    let memory = OwnedMemory(repeating: 7, count: 5)
    #expect((0..<5).map { memory[$0] } == [7, 7, 7, 7, 7])
    memory[3] = 9
    #expect((0..<5).map { memory[$0] } == [7, 7, 7, 9, 7])
    #expect(memory.count == 5)
  }

  @Test("A copy of a range is the source's values, and the source is left as it was")
  func copy() {
    let memory = OwnedMemory<Double>(unwrittenCount: 8)
    for index in 0..<8 { memory[index] = Double(index) }
    memory.copy(3, from: 1, to: 5)
    #expect((0..<8).map { memory[$0] } == [0, 1, 2, 3, 4, 1, 2, 3])
  }

  @Test("A buffer over a range reads and writes the memory's own values")
  func buffer() {
    let memory = OwnedMemory(repeating: UInt8(0), count: 6)
    let buffer = memory.buffer(2..<5)
    #expect(buffer.count == 3)
    buffer[0] = 4
    buffer[2] = 6
    #expect((0..<6).map { memory[$0] } == [0, 0, 4, 0, 6, 0])
  }
}
