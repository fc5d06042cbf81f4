// The feed fuzz target (make fuzz): any bytes, read by the feed's one reader.
//
// - It reads every input without crashing, and says where bytes stop being JSON.
// - Read in two halves (on two threads), a feed reads exactly as in one.
// - What it reads as a feed, Foundation's JSONDecoder (the tests' independent reference) reads
//   alike, where the two read JSON alike: when no object gives a key twice (JSONDecoder keeps
//   the first value, falls the last, as jq does). JSONDecoder also reads a trailing comma,
//   which falls refuses as jq does; such input is not a feed to falls, so it is not compared.
//   A stream of values (JSON Lines), or a lone object without "data", is a list of items to
//   falls: JSONDecoder reads the same values as one array, `[v1,v2,…]`.

import FallsCore
import FallsTestSupport
import Foundation

@testable import FallsFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  func parse(splittingAbove threshold: Int) -> Result<Feed, FeedError> {
    bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(FeedError) in try FeedParser.parse(bytes, splittingAbove: threshold) }
    }
  }
  let whole = parse(splittingAbove: .max)
  guard parse(splittingAbove: 0) == whole else { fatalError("read in halves, the feed differs") }
  guard case .success(let feed) = whole, !givesAKeyTwice(bytes) else { return 0 }
  var reference = FoundationFeedReference.decode(Data(bytes))
  if reference != .feed(ReferenceFeed(feed)), let values = valueRanges(bytes),
    values.count != 1 || reference == .noDataArray
  {
    // A stream (of no value too: nothing, or spaces), or a lone item: its values as the
    // elements of an array.
    let array =
      "["
      + values.map { String(decoding: bytes[$0], as: UTF8.self) }
      .joined(separator: ",") + "]"
    reference = FoundationFeedReference.decode(Data(array.utf8))
  }
  guard reference == .feed(ReferenceFeed(feed)) else {
    fatalError("falls read \(feed), JSONDecoder \(reference)")
  }
  return 0
}

/// Where each top-level value of the JSON `bytes` lies: one for a document, several for a
/// stream of values separated by whitespace, none for spaces alone; `nil` where the bytes are
/// no such thing.
private func valueRanges(_ bytes: [UInt8]) -> [Range<Int>]? {
  bytes.withUnsafeBufferPointer { bytes in
    var scanner = JSONScanner(bytes: bytes)
    var ranges: [Range<Int>] = []
    do throws(JSONScanner.Failure) {
      scanner.skipWhitespace()
      if scanner.atEnd { return [] }
      var start = scanner.position
      try scanner.skip(try scanner.documentValue())
      ranges.append(start..<scanner.position)
      while try scanner.streamGoesOn() {
        start = scanner.position
        try scanner.skip(try scanner.value())
        ranges.append(start..<scanner.position)
      }
    } catch {
      return nil
    }
    return ranges
  }
}

/// Whether any object of the JSON `bytes`, in any value of a stream, gives a key twice.
private func givesAKeyTwice(_ bytes: [UInt8]) -> Bool {
  bytes.withUnsafeBufferPointer { bytes in
    var scanner = JSONScanner(bytes: bytes)
    // The keys of each open object, innermost last; nil for an array.
    var open: [Set<String>?] = []
    func opened(_ token: JSONScanner.Token) -> Bool {
      switch token {
      case .object(let key): open.append([scanner.text(of: key)])
      case .array: open.append(nil)
      default: return false
      }
      return true
    }
    do throws(JSONScanner.Failure) {
      var value = try scanner.documentValue()
      while true {
        _ = opened(value)
        while let keys = open.last {
          if try !opened(scanner.value()) {
            while let innermost = open.last {
              switch try scanner.next(in: innermost == nil ? .array : .object) {
              case .member(let key):
                guard open[open.count - 1]?.insert(scanner.text(of: key)).inserted == true else {
                  return true
                }
              case .element: break
              case .end:
                open.removeLast()
                continue
              }
              break
            }
          }
          _ = keys
        }
        guard try scanner.streamGoesOn() else { break }
        value = try scanner.value()
      }
    } catch {
      return false
    }
    return false
  }
}
