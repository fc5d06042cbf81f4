import FallsBase
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A feed's bytes, and the file mapping they are, if they are one: its pages can be given back
/// once read (they are read from the file again if touched again).
public struct FeedBytes: Sendable {
  /// The bytes.
  public var data: Data
  /// The read-only mapping of a file that `data` is, or `nil` for bytes in memory of their own.
  let mapping: FileMapping?

  /// Where the bytes came from, which the feed's images are read against.
  public var location: FeedLocation

  /// Whether `data` maps a file, read-only.
  public var isFileMapping: Bool { mapping != nil }

  /// Bytes in memory of their own, from `location`.
  public init(data: Data, location: FeedLocation = .currentFolder) {
    self.data = data
    self.location = location
    mapping = nil
  }

  /// The bytes of a mapping, which lives as long as they do.
  init(mapping: FileMapping) {
    self.mapping = mapping
    location = .currentFolder
    data = Data(
      bytesNoCopy: mapping.base, count: mapping.count,
      deallocator: .custom { _, _ in withExtendedLifetime(mapping) {} })
  }
}
