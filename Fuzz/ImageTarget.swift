// The image fuzz target (make fuzz): any bytes, read by the image header reader.
//
// - It reads every input without crashing, in bounded work, and gives an answer: a header of
//   a positive size, the bytes it still needs, a broken header, or no image.
// - Its asks are bounded (at most 64 KiB at a time) and always beyond the bytes it was given.
// - What a prefix or a part of the input reads as a header is the header the whole input
//   gives: reading more never changes an answer already given.

import Foundation

@testable import FallsFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  let whole = ImageHeaderReader.read(ImageBytes(bytes, isWhole: true))
  switch whole {
  case .header(let header):
    guard header.width > 0, header.height > 0, (1...8).contains(header.orientation) else {
      fatalError("a header of \(header)")
    }
  case .needsBytes(let offset, let needed):
    // Known whole, a file has nothing more to give: the reader must say it is cut short.
    fatalError("a whole file of \(bytes.count) bytes asked for \(needed) at \(offset)")
  case .malformed, .unknown: break
  }
  // Prefixes at a few lengths, not known whole: asks beyond them, or the whole's header.
  for length in [0, 1, 8, 12, 30, 64, bytes.count / 2, bytes.count - 1] where length >= 0 {
    guard length < bytes.count else { continue }
    check(ImageBytes(Array(bytes.prefix(length))), given: length, against: whole)
  }
  // The input with a gap in the middle: what is read around it is the whole's.
  if bytes.count > 40 {
    let gap = (bytes.count / 3)..<(2 * bytes.count / 3)
    var parts = ImageBytes(Array(bytes[..<gap.lowerBound]))
    parts.add(Array(bytes[gap.upperBound...]), at: gap.upperBound)
    parts.length = bytes.count
    let read = ImageHeaderReader.read(parts)
    if case .header = read, read != whole { fatalError("with a gap \(read), whole \(whole)") }
    if case .needsBytes(let offset, _) = read, !gap.contains(offset) {
      fatalError("with a gap \(gap) the reader asked for \(offset)")
    }
  }
  return 0
}

private func check(_ part: ImageBytes, given length: Int, against whole: ImageHeaderReading) {
  let read = ImageHeaderReader.read(part)
  switch read {
  case .needsBytes(let offset, let needed):
    guard offset >= length, needed > 0, needed <= 1 << 16 else {
      fatalError("given \(length) bytes, asked for \(needed) at \(offset)")
    }
  case .header:
    guard read == whole else { fatalError("a prefix of \(length) read \(read), whole \(whole)") }
  case .malformed, .unknown:
    // A prefix decides only what the whole decides too, but the reason may differ where the
    // whole's bytes say more (a broken box seen in full).
    if case .header = whole { fatalError("a prefix of \(length) read \(read), whole \(whole)") }
  }
}
