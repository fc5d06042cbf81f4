import FallsMemory
import Testing

@Suite struct ArrayOwnStorageTests {
  @Test("An array of no elements still has storage of its own, and is empty", arguments: [0, 3])
  func ownStorage(capacity: Int) {
    let array = [Int](ownStorageFor: capacity) { buffer, count in
      #expect(buffer.count >= max(capacity, 1))
      for index in 0..<capacity { buffer.initializeElement(at: index, to: index * 10) }
      count = capacity
    }
    #expect(array == (0..<capacity).map { $0 * 10 })
    #expect(array.capacity >= 1)
  }

  @Test("Arrays of no elements made on many threads at once are all empty")
  func concurrent() async {
    // Under ThreadSanitizer this is the race the storage of their own avoids.
    let counts = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<16 {
        group.addTask {
          (0..<200).reduce(0) { total, _ in
            total + [UInt8](ownStorageFor: 0) { _, count in count = 0 }.count
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(counts == 0)
  }
}
