import FallsCore
import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// The outcome of a decode, comparable across the two paths: the feed, or the kind of error.
private enum Outcome: Equatable {
  case feed(Feed)
  case notJSON
  case noDataArray
  case other(FeedError)

  init(_ decode: () throws(FeedError) -> Feed) {
    do {
      self = .feed(try decode())
    } catch {
      switch error {
      case .notJSON: self = .notJSON
      case .noDataArray: self = .noDataArray
      default: self = .other(error)
      }
    }
  }
}

/// The fast path (with its fallback) and the diagnostic path alone on the same bytes.
private func bothPaths(_ data: Data) -> (Outcome, Outcome) {
  (
    Outcome { () throws(FeedError) in try FeedDecoder.decode(data) },
    Outcome { () throws(FeedError) in try FeedDecoder.decodeWithDiagnostics(data) }
  )
}

/// Expects Foundation's JSONDecoder, the independent reference, to read `feed` from `data`.
private func expectReference(
  _ data: Data, reads feed: Feed, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    FoundationFeedReference.decode(data) == .feed(ReferenceFeed(feed)),
    sourceLocation: sourceLocation)
}

/// A feed in many spellings: sizes as strings or numbers, spans, escapes, non-ASCII text,
/// unknown keys with nested values, varied whitespace.
private func generatedFeed(seed: UInt64, count: Int) -> String {
  var random = SplitMix64(seed: seed)
  func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
  let images = [
    #""https://a.example/1.jpg""#, #""https:\/\/a.example\/2.jpg""#, #""caf\u00e9 \ud83d\ude00""#,
    #""line\nbreak \"quoted\" back\\slash""#, "\"café 瀑布流 😀\"", #""""#,
  ]
  let sizes = [#""1200""#, "1200", "12.5", #""2249.75""#, "1e3", #""3E2""#, "0.5", #""007""#]
  let spans = [
    "", #","span":2"#, #","span":"3""#, #","span":"full""#, #","span":null"#, #","span":1.0"#,
  ]
  let extras = [
    "", #","tags":["a",{"b":[1,2,{"c":null}]},true,false]"#, #","price":-12.5e-3"#,
    #","meta":{"w":"x","nested":{"deep":[[]]}}"#,
  ]
  let spaces = ["", " ", "\n  ", "\t"]
  var items: [String] = []
  for _ in 0..<count {
    let space = pick(spaces)
    let fields = [
      "\"img\":\(space)\(pick(images))", "\"width\":\(pick(sizes))",
      "\"height\":\(space)\(pick(sizes))",
    ].shuffled(using: &random)
    items.append("{" + fields.joined(separator: ",\(space)") + pick(spans) + pick(extras) + "}")
  }
  return "{\(pick(spaces))\"before\":[1,\"x\"],\"data\":[" + items.joined(separator: ",") + "]}"
}

/// Expects reading `data` in two halves at once to give exactly what reading it in one does.
private func expectSplitAgrees(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
  let whole = FastFeedParser.parse(data, splittingAbove: .max)
  let halves = FastFeedParser.parse(data, splittingAbove: 0)
  #expect(halves == whole, sourceLocation: sourceLocation)
}

@Suite struct FastFeedParserTests {
  @Test(
    "On every real feed the fast path reads exactly what the diagnostic path and JSONDecoder read",
    arguments: Fixtures.feedNames)
  func realFeeds(name: String) throws {
    let data = try Fixtures.data(name)
    let fast = try #require(FastFeedParser.parse(data))
    #expect(fast == (try FeedDecoder.decodeWithDiagnostics(data)))
    expectReference(data, reads: fast)
    expectSplitAgrees(data)
  }

  @Test("On generated feeds of every spelling the two paths agree", arguments: 0..<40)
  func generated(seed: UInt64) throws {
    let data = Data(generatedFeed(seed: seed, count: 30).utf8)
    let (fast, slow) = bothPaths(data)
    #expect(fast == slow)
    expectSplitAgrees(data)
    // The fast path itself read it (rather than falling back).
    let feed = try #require(FastFeedParser.parse(data))
    expectReference(data, reads: feed)
  }

  @Test(
    "On mutated (broken) feeds the two paths agree, item for item or error for error",
    arguments: 0..<30)
  func mutated(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 1_000)
    let sources = [
      Array(generatedFeed(seed: seed, count: 8).utf8), Array(try Fixtures.data("zx-shopdata.json")),
    ]
    let alphabet =
      Array(#"{}[],:"\ 0123456789.eE+-tfnulx/ufull"#.utf8) + [0xC3, 0xA9, 0xFF, 0x00, 0x0A]
    for round in 0..<150 {
      var bytes = sources[round % 2]
      for _ in 0..<(1 + random.next() % 3) {
        let position = Int(random.next() % UInt64(bytes.count))
        let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
        switch random.next() % 3 {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(byte, at: position)
        default: bytes[position] = byte
        }
      }
      let (fast, slow) = bothPaths(Data(bytes))
      #expect(fast == slow, "\(String(decoding: bytes, as: UTF8.self))")
      expectSplitAgrees(Data(bytes))
    }
  }

  @Test(
    "Read in two halves, a feed whose strings look like item boundaries reads as in one",
    arguments: [
      #"x},{y"#, #"x} , {y"#, #"\"},{\"img\":\"y"#, #"},{"#, #"}\n,\n{"#, #"a\\"#,
    ])
  func splitTraps(img: String) {
    for count in [1, 2, 3, 10, 101] {
      let items = (0..<count).map { index in
        #"{"img":"\#(img)\#(index)","width":"\#(index + 1)","height":"7"}"#
      }
      let text = #"{"data":["# + items.joined(separator: ",") + #"],"after":{"x":"},{"}}"#
      expectSplitAgrees(Data(text.utf8))
      #expect(FastFeedParser.parse(Data(text.utf8), splittingAbove: 0)?.items.count == count)
    }
  }

  @Test(
    "The fast path gives way on what only the diagnostic path should judge",
    arguments: [
      #"{"data":[{"img":"a","width":"1","height":"1"},]}"#,  // trailing comma
      "\u{FEFF}{\"data\":[]}",  // byte order mark
      #"{"data":[{"img":"a","width":"x","height":"1"}]}"#,  // invalid item
      #"{"data":[{"img":"a","img":"b","width":"1","height":"1"}]}"#,  // duplicate key
      #"{"data":[],"data":[]}"#,  // duplicate data
      #"{"data":[{"img":"a","width":"1","height":"1","x":1e999}]}"#,  // number out of range
      #"{"data":[{"img":"\ud800","width":"1","height":"1"}]}"#,  // lone surrogate
      #"{"x":"#,  // broken
      "{\"deep\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        + ",\"data\":[]}",
    ])
  func givesWay(text: String) {
    #expect(FastFeedParser.parse(Data(text.utf8)) == nil)
    let (fast, slow) = bothPaths(Data(text.utf8))
    #expect(fast == slow)
  }

  @Test(
    "Quotes and backslashes at the edges of strings",
    arguments: [#""a\"b""#, #""a\\""#, #""\\\"""#, #""\"""#, #""x\\\\""#, #""é\"é""#])
  func quoteEdges(img: String) throws {
    let text = #"{"data":[{"img":"# + img + #","width":"1","height":"1"}]}"#
    let data = Data(text.utf8)
    let fast = try #require(FastFeedParser.parse(data))
    #expect(fast == (try FeedDecoder.decodeWithDiagnostics(data)))
    expectReference(data, reads: fast)
  }

  @Test("Escapes and non-ASCII text are read as JSONDecoder reads them")
  func strings() throws {
    let text =
      #"{"data":[{"img":"a\"b\\c\/d\n\u00e9\ud83d\ude00 é","width":"1","height":2,"span":"full"}]}"#
    let feed = try #require(FastFeedParser.parse(Data(text.utf8)))
    #expect(feed.items[0].img == "a\"b\\c/d\né😀 é")
    #expect(feed.items[0].span == LayoutItem.fullSpan && feed.items[0].height == 2)
  }
}
