/// The bytes of an image known so far: pieces read from where the header reader asked, each at
/// its offset in the file, and whether the file is known to end somewhere.
///
/// A reader that skips a JPEG segment by its length asks for the bytes after it; the bytes in
/// between are never read, so the pieces may leave gaps.
public struct ImageBytes: Sendable {
  /// The pieces, by their start, none overlapping another.
  private var pieces: [(start: Int, bytes: [UInt8])] = []
  /// The file's length, once known (an answer ended, or a `Content-Range` gave it); never
  /// negative (a negative one set is no length known).
  public var length: Int? {
    didSet { if let length, length < 0 { self.length = nil } }
  }

  /// No bytes yet.
  public init() {}

  /// The first `bytes` of a file; `isWhole` when they are all of it.
  public init(_ bytes: [UInt8], isWhole: Bool = false) {
    add(bytes, at: 0)
    if isWhole { length = bytes.count }
  }

  /// How many bytes the pieces hold.
  public var count: Int { pieces.reduce(0) { $0 + $1.bytes.count } }

  /// Adds `bytes` read at `offset`; where they overlap bytes already there, the new ones count.
  public mutating func add(_ bytes: [UInt8], at offset: Int) {
    guard !bytes.isEmpty else { return }
    var kept: [(start: Int, bytes: [UInt8])] = []
    var merged = (start: offset, bytes: bytes)
    for piece in pieces {
      let pieceEnd = piece.start + piece.bytes.count
      if pieceEnd < merged.start || piece.start > merged.start + merged.bytes.count {
        kept.append(piece)
        continue
      }
      // Touching or overlapping: one piece, the new bytes over the old.
      let start = min(piece.start, merged.start)
      let stop = max(pieceEnd, merged.start + merged.bytes.count)
      var joined = [UInt8](repeating: 0, count: stop - start)
      joined.replaceSubrange(
        (piece.start - start)..<(pieceEnd - start), with: piece.bytes)
      joined.replaceSubrange(
        (merged.start - start)..<(merged.start - start + merged.bytes.count), with: merged.bytes)
      merged = (start, joined)
    }
    kept.append(merged)
    kept.sort { $0.start < $1.start }
    pieces = kept
  }

  /// Where the first byte at or after `offset` that is not known lies.
  public func firstMissing(from offset: Int) -> Int {
    for piece in pieces where piece.start <= offset && offset < piece.start + piece.bytes.count {
      return piece.start + piece.bytes.count
    }
    return offset
  }

  /// The `count` bytes at `offset`, when all are known.
  func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
    guard offset >= 0, count >= 0 else { return nil }
    if count == 0 { return [] }
    // Compared without adding, so that no offset a header claims can overflow.
    for piece in pieces
    where piece.start <= offset && count <= piece.bytes.count - (offset - piece.start) {
      let from = offset - piece.start
      return piece.bytes[from..<(from + count)]
    }
    return nil
  }

  /// Whether the file is known to end before `offset + count`.
  func endsBefore(_ offset: Int, count: Int) -> Bool {
    // Compared without subtracting past Int's range: a count a header claims may be any.
    length.map { offset > $0 || count > $0 - offset } ?? false
  }
}
