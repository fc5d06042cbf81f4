import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// What reading `data` gives, in one pass or read in two halves at once.
private func parse(_ data: Data, splittingAbove threshold: Int = .max) -> Result<Feed, FeedError> {
  Array(data).withUnsafeBufferPointer { bytes in
    Result { () throws(FeedError) in try FeedParser.parse(bytes, splittingAbove: threshold) }
  }
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
  #expect(parse(data, splittingAbove: 0) == parse(data), sourceLocation: sourceLocation)
}

@Suite struct FeedParserTests {
  @Test("On every real feed it reads exactly what JSONDecoder reads", arguments: Fixtures.feedNames)
  func realFeeds(name: String) throws {
    let data = try Fixtures.data(name)
    let feed = try parse(data).get()
    #expect(feed.problems.isEmpty && !feed.items.isEmpty)
    expectReference(data, reads: feed)
    expectSplitAgrees(data)
  }

  @Test("On generated feeds of every spelling it reads what JSONDecoder reads", arguments: 0..<40)
  func generated(seed: UInt64) throws {
    let data = Data(generatedFeed(seed: seed, count: 30).utf8)
    let feed = try parse(data).get()
    expectReference(data, reads: feed)
    expectSplitAgrees(data)
  }

  @Test(
    "On mutated (broken) feeds, read in halves it reads as in one, and it is JSON where JSONDecoder says so",
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
      // Whether the mutations are all printable ASCII but the backslash, in the fixture, which
      // has no escapes: there Foundation's parser is as strict as falls (it lets raw control
      // characters, broken UTF-8, unknown escapes and halves of surrogate pairs pass).
      var isPrintable = round % 2 == 1
      func isComparable(_ byte: UInt8) -> Bool { (0x20..<0x7F).contains(byte) && byte != 0x5C }
      for _ in 0..<(1 + random.next() % 3) {
        let position = Int(random.next() % UInt64(bytes.count))
        let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
        let kind = random.next() % 3
        if kind != 0, !isComparable(byte) { isPrintable = false }
        if kind != 1, !isComparable(bytes[position]) { isPrintable = false }
        switch kind {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(byte, at: position)
        default: bytes[position] = byte
        }
      }
      let data = Data(bytes)
      expectSplitAgrees(data)
      guard isPrintable else { continue }
      var isJSON = true
      if case .failure(.notJSON) = parse(data) { isJSON = false }
      let isReferenceJSON =
        FoundationFeedReference.decode(data) != .notJSON
        && !FoundationFeedReference.hasTrailingComma(bytes)
      #expect(isJSON == isReferenceJSON, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }

  @Test(
    "Read in two halves, a feed whose strings look like item boundaries reads as in one",
    arguments: [
      #"x},{y"#, #"x} , {y"#, #"\"},{\"img\":\"y"#, #"},{"#, #"}\n,\n{"#, #"a\\"#,
    ])
  func splitTraps(img: String) throws {
    for count in [1, 2, 3, 10, 101] {
      let items = (0..<count).map { index in
        #"{"img":"\#(img)\#(index)","width":"\#(index + 1)","height":"7"}"#
      }
      let text = #"{"data":["# + items.joined(separator: ",") + #"],"after":{"x":"},{"}}"#
      expectSplitAgrees(Data(text.utf8))
      #expect(try parse(Data(text.utf8), splittingAbove: 0).get().items.count == count)
    }
  }

  @Test("A bad item or a syntax error in either half is what reading from the start finds")
  func errorsInHalves() throws {
    let good = (0..<200).map { #"{"img":"u\#($0)","width":"1","height":"2"}"# }
    for broken in [3, 150] {
      var items = good
      items[broken] = #"{"img":"u","width":"x","height":"2"}"#
      let text = #"{"data":["# + items.joined(separator: ",") + "]}"
      let feed = try parse(Data(text.utf8), splittingAbove: 0).get()
      #expect(feed.problems.map(\.index) == [broken] && feed.items.count == 199)
      #expect(feed.items.map(\.index) == Array(0..<200).filter { $0 != broken })
      items[broken] = #"{"img":"u","width":1 2,"height":"2"}"#
      let error = #"{"data":["# + items.joined(separator: ",") + "]}"
      #expect(parse(Data(error.utf8), splittingAbove: 0) == parse(Data(error.utf8)))
      guard case .failure(.notJSON) = parse(Data(error.utf8)) else {
        Issue.record("a syntax error in item \(broken) was not found")
        continue
      }
    }
  }

  @Test(
    "A trailing comma is refused with its line and column, where JSONDecoder would read it",
    arguments: [
      (
        #"{"data":[{"img":"a","width":"1","height":"2",}]}"#,
        "line 1, column 45: a trailing comma before '}'"
      ),
      (
        "{\"data\":[{\"img\":\"a\",\"width\":1,\"height\":2},\n]}",
        "line 1, column 42: a trailing comma before ']'"
      ),
      (#"{"data":[],}"#, "line 1, column 11: a trailing comma before '}'"),
    ])
  func trailingComma(text: String, position: String) {
    #expect(FoundationFeedReference.decode(Data(text.utf8)) != .notJSON)
    #expect(FoundationFeedReference.hasTrailingComma(Array(text.utf8)))
    guard case .failure(.notJSON(let detail)) = parse(Data(text.utf8)) else {
      Issue.record("a trailing comma was read: \(text)")
      return
    }
    #expect(detail.hasPrefix(position), "\(detail)")
  }

  @Test(
    "What the fast parser once gave way on is read in the same pass",
    arguments: [
      // A byte order mark, a key given twice (the last wins), "data" twice, a number out of
      // range in a key no rule reads, deep nesting.
      ("\u{FEFF}{\"data\":[{\"img\":\"b\",\"width\":1,\"height\":1}]}", ["b"]),
      (#"{"data":[{"img":"a","img":"b","width":"1","height":"1"}]}"#, ["b"]),
      (#"{"data":[{"img":"a","width":"1","height":"1"}],"data":[]}"#, []),
      (#"{"data":[{"img":"a","width":"1","height":"1","x":1e999}]}"#, ["a"]),
      (
        "{\"deep\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
          + ",\"data\":[{\"img\":\"c\",\"width\":1,\"height\":1}]}", ["c"]
      ),
    ])
  func onePass(text: String, images: [String]) throws {
    #expect(try parse(Data(text.utf8)).get().items.map(\.img) == images)
  }

  @Test(
    "An invalid item is a problem, with its field and value",
    arguments: [
      (#"{"data":[{"img":"a","width":"x","height":"1"}]}"#, FeedField.width, #""x""#),
      (#"{"data":[{"img":"a","width":"1","height":1e999}]}"#, .height, "1e999"),
      (#"{"data":[{"width":"1","height":"1","img":null}]}"#, .img, "null"),
      (#"{"data":[{"img":"a","width":1,"height":1,"span":0}]}"#, .span, "0"),
      (#"{"data":[{"img":"a","w\u0069dth":"-1","height":"1"}]}"#, .width, #""-1""#),
    ])
  func problems(text: String, field: FeedField, value: String) throws {
    let feed = try parse(Data(text.utf8)).get()
    #expect(feed.items.isEmpty)
    #expect(feed.problems.map(\.field) == [field] && feed.problems.map(\.value) == [value])
  }

  @Test(
    "Bytes that are not JSON are refused whole",
    arguments: [#"{"data":[{"img":"\ud800","width":"1","height":"1"}]}"#, #"{"x":"#])
  func notJSON(text: String) {
    guard case .failure(.notJSON) = parse(Data(text.utf8)) else {
      Issue.record("read as JSON: \(text)")
      return
    }
  }

  @Test(
    "Quotes and backslashes at the edges of strings",
    arguments: [#""a\"b""#, #""a\\""#, #""\\\"""#, #""\"""#, #""x\\\\""#, #""é\"é""#])
  func quoteEdges(img: String) throws {
    let text = #"{"data":[{"img":"# + img + #","width":"1","height":"1"}]}"#
    let data = Data(text.utf8)
    expectReference(data, reads: try parse(data).get())
  }

  @Test("Escapes and non-ASCII text are read as JSONDecoder reads them")
  func strings() throws {
    let text =
      #"{"data":[{"img":"a\"b\\c\/d\n\u00e9\ud83d\ude00 é","width":"1","height":2,"span":"full"}]}"#
    let feed = try parse(Data(text.utf8)).get()
    #expect(feed.items[0].img == "a\"b\\c/d\né😀 é")
    #expect(feed.items[0].span == LayoutItem.fullSpan && feed.items[0].height == 2)
    expectReference(Data(text.utf8), reads: feed)
  }

  /// The items of a finderlist document, each written back as one JSON value: compact, one a
  /// line (JSON Lines, `jq -c '.data[]'`), or pretty-printed over several lines (`jq '.data[]'`).
  static func stream(of data: Data, pretty: Bool) throws -> Data {
    let document = try JSONSerialization.jsonObject(with: data)
    let items = try #require(
      (document as? [String: Any])?["data"] as? [Any] ?? document as? [Any])
    var lines: [Data] = []
    for item in items {
      lines.append(
        try JSONSerialization.data(
          withJSONObject: item,
          options: pretty ? [.prettyPrinted, .fragmentsAllowed] : [.fragmentsAllowed]))
    }
    return Data(lines.joined(separator: Data("\n".utf8))) + Data("\n".utf8)
  }

  @Test(
    "A stream of the items, one value a line or pretty-printed, reads as the document does",
    arguments: Fixtures.feedNames)
  func streams(name: String) throws {
    let data = try Fixtures.data(name)
    let feed = try parse(data).get()
    for pretty in [false, true] {
      let stream = try Self.stream(of: data, pretty: pretty)
      #expect(try parse(stream).get() == feed, "pretty: \(pretty)")
      expectSplitAgrees(stream)
    }
  }

  @Test(
    "A stream's values are items, however separated by whitespace; a stream of one is a document",
    arguments: [
      (
        "{\"img\":\"a\",\"width\":1,\"height\":2}\n{\"img\":\"b\",\"width\":3,\"height\":4}",
        ["a", "b"]
      ),
      (
        "{\"img\":\"a\",\"width\":1,\"height\":2} \t\r\n {\"img\":\"b\",\"width\":3,\"height\":4}\n\n",
        ["a", "b"]
      ),
      (
        "\u{FEFF}{\"img\":\"a\",\"width\":1,\"height\":2}\n{\"img\":\"b\",\"width\":3,\"height\":4}",
        ["a", "b"]
      ),
      // One object with the usual data array, and one lone item, as before and as jq -c prints it.
      ("{\"data\":[{\"img\":\"a\",\"width\":1,\"height\":2}]}\n", ["a"]),
      ("{\"img\":\"a\",\"width\":1,\"height\":2}\n", ["a"]),
      // Objects with data arrays in a stream are items, not pages (they have no img).
      ("{\"data\":[]}\n{\"img\":\"b\",\"width\":3,\"height\":4}", ["b"]),
    ])
  func streamValues(text: String, images: [String]) throws {
    let feed = try parse(Data(text.utf8)).get()
    #expect(feed.items.map(\.img) == images)
    #expect(
      feed.items.map(\.index) == Array(feed.problems.count..<feed.problems.count + images.count))
  }

  @Test("A value of a stream that is not an object is an item problem, numbered as the value")
  func streamProblems() throws {
    let feed = try parse(Data("{\"img\":\"a\",\"width\":1,\"height\":2}\n7\n[1]\n".utf8)).get()
    #expect(feed.items.map(\.img) == ["a"])
    #expect(feed.problems.map(\.index) == [1, 2])
    #expect(
      feed.problems.map(\.message) == [
        "item 1: the item is 7, not an object; expected an object like "
          + "{\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}",
        "item 2: the item is an array, not an object; expected an object like "
          + "{\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}",
      ])
  }

  @Test(
    "A broken value of a stream names its line and column; values must be separated",
    arguments: [
      ("{\"img\":\"a\"}\n{\"img\":\"b\",}\n", "line 2, column 11: a trailing comma before '}'"),
      (
        "{\"img\":\"a\"}\n{\"img\":\n",
        "line 3, column 1: unexpected end of input; expected a value"
      ),
      ("{\"img\":\"a\"}\n}\n", "line 2, column 1: unexpected '}' after the JSON value"),
      (
        "{\"img\":\"a\"}{\"img\":\"b\"}",
        "line 1, column 12: unexpected '{' right after the JSON value; the values of a stream "
          + "are separated by whitespace, one a line in JSON Lines"
      ),
      ("1 2x", "line 1, column 4: unexpected 'x' after the JSON value"),
      ("1 2\"x\"", "line 1, column 4: unexpected '\"' right after the JSON value"),
    ])
  func brokenStreams(text: String, start: String) {
    for threshold in [Int.max, 0] {
      guard case .failure(.notJSON(let detail)) = parse(Data(text.utf8), splittingAbove: threshold)
      else {
        Issue.record("read as JSON: \(text)")
        continue
      }
      #expect(detail.hasPrefix(start), "\(detail)")
    }
  }

  @Test("A long stream read in two halves reads as in one, whatever the guess at the middle")
  func streamHalves() throws {
    // Strings holding "} {" tempt the guess at a boundary inside a value.
    var lines: [String] = []
    for index in 0..<200 {
      let img = index % 3 == 0 ? "x} {\\\"img\\\": \(index)" : "u\(index)"
      lines.append("{\"img\":\"\(img)\",\"width\":\(index + 1),\"height\":\"2\"}")
    }
    for separator in ["\n", " ", "\n  \n"] {
      let data = Data(lines.joined(separator: separator).utf8)
      let feed = try parse(data).get()
      #expect(feed.items.count == 200)
      expectSplitAgrees(data)
    }
  }

  @Test("With a path of items, each value of a stream is a page whose items follow the last's")
  func streamPages() throws {
    let item = { (name: String) in #"{"img":"\#(name)","width":1,"height":2}"# }
    let text = """
      {"results": [\(item("a"))]}
      {"total": 2, "results": [{"img": 1}, \(item("b"))]}

      {"results": []}
      {"results": [\(item("c"))]}
      """
    let feed = try Array(text.utf8).withUnsafeBufferPointer { bytes in
      try FeedParser.parse(bytes, shape: FeedShape(items: ["results"]))
    }
    #expect(feed.items.map(\.img) == ["a", "b", "c"])
    #expect(feed.items.map(\.index) == [0, 2, 3])
    #expect(feed.problems.map(\.index) == [1])
  }

  @Test(
    "A value of a stream without items at the path is named by its line; JSON is checked first",
    arguments: [
      (
        "{\"results\": []}\n\n{\"result\": []}\n{\"results\": []}",
        FeedError.noItemArray(
          path: "results",
          found:
            #"in the value on line 3, the top level has no key "results"; its keys are "result""#)
      ),
      (
        "\n[]\n{\"results\": []}",
        FeedError.noItemArray(
          path: "results",
          found: "in the value on line 2, the top level is an array, not an object with the key "
            + #""results""#)
      ),
      (
        "{\"result\": []}\n{\"results\": [}",
        FeedError.notJSON(detail: "line 2, column 14: unexpected '}'; expected a value")
      ),
    ])
  func streamPageFailures(text: String, error: FeedError) {
    let result = Array(text.utf8).withUnsafeBufferPointer { bytes in
      Result { () throws(FeedError) in
        try FeedParser.parse(bytes, shape: FeedShape(items: ["results"]))
      }
    }
    #expect(result == .failure(error))
  }
}
