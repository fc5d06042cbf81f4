import FallsBase
import FallsCore
import Foundation

/// The input, handed to the thread that reads the second half.
///
/// `@unchecked Sendable`: a buffer pointer is not Sendable; these bytes are only ever read,
/// and outlive both threads.
private struct SharedBytes: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
}

/// What the two halves read.
///
/// `@unchecked Sendable` without a lock: each of the two threads writes only its own
/// property, once, and both are read after `concurrentPerform` returns, which orders the
/// writes before the reads. (A Mutex would need the halves' feeds to be copyable.)
private final class Halves: @unchecked Sendable {
  var first: Result<(run: (feed: Feed, reachedBoundary: Bool), end: Int), JSONScanner.Failure>?
  var second: Result<(feed: Feed, end: Int), JSONScanner.Failure>?
}

extension FeedParser.Parser {
  /// The items of an opened array up to its end, or of a stream (each value an item, from
  /// here) up to the end of the bytes.
  ///
  /// A long list is read in two halves on two threads: this one from the first item, the
  /// other from a guess at an item boundary near the middle (a `{` after `}` and the list's
  /// separator; the bytes could also be inside a string). The first half confirms the guess only by reaching it as
  /// the start of an item, reading as it always does; if it steps past it instead, it reads on
  /// to the end and the other half's work is dropped. Either way the items, and the first
  /// error, are those of reading from the start.
  mutating func items(in list: FeedParser.ItemList) throws(JSONScanner.Failure) -> Feed {
    scanner.skipWhitespace()
    let bytes = scanner.bytes
    let start = scanner.position
    guard bytes.count - start > splitThreshold,
      let boundary = itemStart(near: start + (bytes.count - start) / 2, in: list)
    else {
      var feed = try itemRun(in: list).feed
      feed.items.trimCapacity()
      return feed
    }
    let shared = SharedBytes(bytes: bytes)
    let halves = Halves()
    let (releases, shape, allowsMissingSizes) = (releasesReadPages, shape, allowsMissingSizes)
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      var parser = Self(
        scanner: JSONScanner(bytes: shared.bytes), shape: shape,
        allowsMissingSizes: allowsMissingSizes, releasesReadPages: releases)
      parser.scanner.position = half == 0 ? start : boundary
      do throws(JSONScanner.Failure) {
        if half == 0 {
          let run = try parser.itemRun(in: list, stoppingAt: boundary)
          halves.first = .success((run, parser.scanner.position))
        } else {
          halves.second = .success(
            (try parser.itemRun(in: list).feed, parser.scanner.position))
        }
      } catch {
        if half == 0 { halves.first = .failure(error) } else { halves.second = .failure(error) }
      }
    }
    // Taken out of the box so that each array has one owner and grows in place.
    guard let first = halves.first else { preconditionFailure("the first half ran") }
    halves.first = nil
    var (run, end) = try first.get()
    guard run.reachedBoundary else {
      scanner.position = end
      run.feed.items.trimCapacity()
      return run.feed
    }
    guard let second = halves.second else { preconditionFailure("the second half ran") }
    halves.second = nil
    var (rest, restEnd) = try second.get()
    scanner.position = restEnd
    let offset = run.feed.items.count + run.feed.problems.count
    rest.items.offsetIndices(by: offset)
    for position in rest.problems.indices { rest.problems[position].index += offset }
    for position in rest.sizeProblems.indices { rest.sizeProblems[position].index += offset }
    // Moved out of the halves' feeds, so that each array has one owner when joined.
    var firstItems = FeedItems()
    var restItems = FeedItems()
    swap(&firstItems, &run.feed.items)
    swap(&restItems, &rest.items)
    var joined = Feed(
      items: FeedItems.joined(consume firstItems, consume restItems),
      problems: run.feed.problems + rest.problems)
    joined.sizeProblems = run.feed.sizeProblems + rest.sizeProblems
    return joined
  }

  /// The first `{` at or after `guess` whose previous non-blank bytes are the list's
  /// separator and `}` (`,` in an array; in a stream, whitespace, which must be there), within
  /// 64 KiB.
  func itemStart(near guess: Int, in list: FeedParser.ItemList) -> Int? {
    let bytes = scanner.bytes
    let isBlank = JSONScanner.isWhitespace
    var candidate = guess
    while candidate < min(bytes.count, guess + 1 << 16) {
      defer { candidate += 1 }
      guard bytes[candidate] == UInt8(ascii: "{") else { continue }
      var before = candidate - 1
      while before > 0, isBlank(bytes[before]) { before -= 1 }
      switch list {
      case .array:
        guard before > 0, bytes[before] == UInt8(ascii: ",") else { continue }
        before -= 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
      case .stream:
        guard before < candidate - 1 else { continue }
      }
      if bytes[before] == UInt8(ascii: "}") { return candidate }
    }
    return nil
  }
}
