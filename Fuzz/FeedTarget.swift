// The feed fuzz target (make fuzz): any bytes, read by every reader of feeds.
//
// - The diagnostic path reads every input without crashing, and the public decoder gives what it
//   gives.
// - The fast parser reads the same items split in two halves (on two threads) as in one.
// - What the fast parser reads, the diagnostic path and Foundation's JSONDecoder (the tests'
//   independent reference) read exactly alike.

import FallsCore
import FallsTestSupport
import Foundation

@testable import FallsFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let bytes = start.map { Data(bytes: $0, count: count) } ?? Data()
  let diagnostic = outcome { () throws(FeedError) in try FeedDecoder.decodeWithDiagnostics(bytes) }
  let decoded = outcome { () throws(FeedError) in try FeedDecoder.decode(bytes) }
  guard decoded == diagnostic else {
    fatalError("the decoder and the diagnostic path disagree: \(decoded) against \(diagnostic)")
  }
  let whole = FastFeedParser.parse(bytes, splittingAbove: .max)
  let halves = FastFeedParser.parse(bytes, splittingAbove: 0)
  guard whole == halves else { fatalError("read in halves, the feed differs") }
  guard let whole else { return 0 }
  guard case .feed(let feed) = diagnostic, feed == whole else {
    fatalError("the fast parser read \(whole), the diagnostic path \(diagnostic)")
  }
  guard FoundationFeedReference.decode(bytes) == .feed(ReferenceFeed(whole)) else {
    fatalError("JSONDecoder reads otherwise: \(FoundationFeedReference.decode(bytes))")
  }
  return 0
}

/// A decode's result, comparable: the feed or the error.
private enum Outcome: Equatable {
  case feed(Feed)
  case failure(FeedError)
}

private func outcome(_ decode: () throws(FeedError) -> Feed) -> Outcome {
  do {
    return .feed(try decode())
  } catch {
    return .failure(error)
  }
}
