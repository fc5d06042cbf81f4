import FallsBase
import FallsFeed
import FallsFixtures
import Foundation
import Testing

private func decode(_ json: String) throws(FeedError) -> Feed {
  try FeedDecoder.decode(Data(json.utf8))
}

/// The problem of the single item in `{"data": [item]}`, without what a message says of a
/// missing field's surroundings (tested on their own: `missingHints`, `missingAtPath`).
private func problem(_ item: String) throws -> FeedItemProblem? {
  var problem = try decode("{\"data\": [\(item)]}").problems.first
  problem?.hint = nil
  problem?.stop = nil
  return problem
}

@Suite struct FeedDecoderTests {
  @Test(
    "The real feeds decode whole, with the counts and the ratio ranges their README gives",
    arguments: [
      ("jkr-finderlist-excerpt.json", 3, 1.00, 1.87),
      ("mj-shop-1.json", 50, 1.00, 1.77), ("mj-shop-2.json", 50, 1.00, 1.77),
      ("mj-shop-3.json", 50, 1.00, 1.77), ("xr-waterfall.json", 42, 1.15, 1.78),
      ("jkr-gz-1plist-urldims.json", 50, 1.00, 1.77), ("zx-shopdata.json", 21, 0.25, 1.38),
    ])
  func realFeeds(name: String, count: Int, lowest: Double, highest: Double) throws {
    let feed = try Fixtures.feed(name)
    #expect(feed.problems.isEmpty)
    #expect(feed.items.count == count)
    #expect(feed.items.map(\.index) == Array(0..<count))
    // The README gives one range for the three mj-shop pages together.
    let ratios = feed.items.map { $0.height / $0.width }
    #expect(ratios.allSatisfy { $0 >= lowest - 0.005 && $0 <= highest + 0.005 })
    if !name.hasPrefix("mj-shop-") || name == "mj-shop-1.json" {
      #expect(abs((ratios.min() ?? 0) - lowest) < 0.006)
      #expect(abs((ratios.max() ?? 0) - highest) < 0.006)
    }
    #expect(feed.items.allSatisfy { $0.img.hasPrefix("http") })
  }

  @Test("The seed's first item reads as the numbers its strings hold")
  func seedItem() throws {
    let feed = try Fixtures.feed("jkr-finderlist-excerpt.json")
    #expect(feed.items[0].width == 1200 && feed.items[0].height == 2249)
    #expect(feed.items[2].width == 700 && feed.items[2].height == 701)
  }

  @Test(
    "Sizes may be decimal strings or JSON numbers",
    arguments: [
      ("\"1200\"", 1200.0), ("\"12.5\"", 12.5), ("\"1e3\"", 1000), ("\"+7\"", 7), ("\".5\"", 0.5),
      ("1200", 1200), ("12.25", 12.25), ("2E2", 200), ("\"007\"", 7),
    ])
  func sizeForms(text: String, value: Double) throws {
    let feed = try decode("{\"data\": [{\"img\": \"a\", \"width\": \(text), \"height\": \(text)}]}")
    #expect(Array(feed.items) == [FeedItem(index: 0, img: "a", width: value, height: value)])
  }

  @Test(
    "Invalid items are reported with index, field, value and reason",
    arguments: [
      (#"{"img": "a", "height": "1"}"#, FeedField.width, nil, FeedItemProblem.Reason.missing),
      (#"{"img": "a", "width": null, "height": "1"}"#, .width, "null", .missing),
      (#"{"img": "a", "width": "abc", "height": "1"}"#, .width, #""abc""#, .notANumber),
      (#"{"img": "a", "width": "", "height": "1"}"#, .width, #""""#, .notANumber),
      (#"{"img": "a", "width": " 12", "height": "1"}"#, .width, #"" 12""#, .notANumber),
      (#"{"img": "a", "width": "0x10", "height": "1"}"#, .width, #""0x10""#, .notANumber),
      (#"{"img": "a", "width": "nan", "height": "1"}"#, .width, #""nan""#, .notANumber),
      (#"{"img": "a", "width": "inf", "height": "1"}"#, .width, #""inf""#, .notANumber),
      (#"{"img": "a", "width": true, "height": "1"}"#, .width, "true", .notANumber),
      (#"{"img": "a", "width": [1], "height": "1"}"#, .width, "an array", .notANumber),
      (#"{"img": "a", "width": "1", "height": "0"}"#, .height, #""0""#, .notPositive),
      (#"{"img": "a", "width": "1", "height": -5}"#, .height, "-5", .notPositive),
      (#"{"img": "a", "width": "1", "height": "-0.5"}"#, .height, #""-0.5""#, .notPositive),
      (#"{"img": "a", "width": "1", "height": "1e999"}"#, .height, #""1e999""#, .notFinite),
      (#"{"img": "a", "width": "1", "height": 1e999}"#, .height, "1e999", .notFinite),
      (#"{"img": "a", "width": "1", "height": -0.0}"#, .height, "-0.0", .notPositive),
      (#"{"width": "1", "height": "1"}"#, .img, nil, .missing),
      (#"{"img": 3, "width": "1", "height": "1"}"#, .img, "3", .notAString),
      (#""just a string""#, .item, #""just a string""#, .notAnObject),
      ("[1, 2]", .item, "an array", .notAnObject),
    ] as [(String, FeedField, String?, FeedItemProblem.Reason)])
  func invalidItems(item: String, field: FeedField, value: String?, reason: FeedItemProblem.Reason)
    throws
  {
    #expect(
      try problem(item) == FeedItemProblem(index: 0, field: field, value: value, reason: reason))
  }

  @Test(
    "A span is a whole number, as a number or a string, or \"full\"",
    arguments: [
      ("", 1), (#", "span": null"#, 1), (#", "span": 2"#, 2), (#", "span": "3""#, 3),
      (#", "span": "full""#, Int.max), (#", "span": "FULL""#, Int.max), (#", "span": 1.0"#, 1),
    ])
  func spans(field: String, span: Int) throws {
    let feed = try decode(#"{"data": [{"img": "a", "width": "1", "height": "1"\#(field)}]}"#)
    #expect(feed.items.first?.span == span)
    #expect(feed.items.first?.layoutItem.span == span)
  }

  @Test(
    "A span that is not a whole number of at least 1 is refused, naming it",
    arguments: [
      (#"0"#, "0"), (#"-2"#, "-2"), (#"1.5"#, "1.5"), (#""wide""#, #""wide""#), (#"true"#, "true"),
    ])
  func badSpans(value: String, quoted: String) throws {
    let problem = try problem(#"{"img": "a", "width": "1", "height": "1", "span": \#(value)}"#)
    #expect(problem == FeedItemProblem(index: 0, field: .span, value: quoted, reason: .invalidSpan))
  }

  @Test("Valid items are kept with their feed index when others are invalid")
  func mixed() throws {
    let feed = try decode(
      #"{"data": [{"img": "a", "width": "1", "height": "2"}, {"img": "b", "width": "x", "height": "2"}, 5, {"img": "d", "width": 3, "height": 4, "extra": {"ignored": true}}]}"#
    )
    #expect(feed.items.map(\.index) == [0, 3])
    #expect(feed.items.map(\.img) == ["a", "d"])
    #expect(feed.problems.map(\.index) == [1, 2])
  }

  @Test("An empty data array is a feed with no items")
  func emptyData() throws {
    #expect(try decode(#"{"data": []}"#) == Feed(items: []))
  }

  @Test(
    "A document without a data array says what it has instead",
    arguments: [
      ("3", "the top level is a number"), (#""feed""#, "the top level is a string"),
      ("null", "the top level is null"), (#"{"items": []}"#, "has no \"data\" key"),
      (#"{"data": {}}"#, "\"data\" is an object"), (#"{"data": "x"}"#, "\"data\" is a string"),
      (#"{"data": null}"#, "\"data\" is null"),
    ])
  func noData(json: String, phrase: String) {
    #expect {
      try decode(json)
    } throws: { error in
      guard case .noDataArray(let found, _) = error as? FeedError else { return false }
      return found.contains(phrase)
    }
  }

  @Test("A top-level array is the feed's items, as the data array would be")
  func topLevelArray() throws {
    let items =
      #"[{"img": "a", "width": "1", "height": "2"}, {"img": "b", "width": 3, "height": 4}]"#
    #expect(try decode(items) == decode(#"{"data": \#(items)}"#))
    #expect(try decode(items).items.count == 2)
    #expect(try decode("[]") == Feed(items: []))
    // An invalid item of it is reported as one of data's.
    let feed = try decode(#"[{"img": "a", "width": "1", "height": "2"}, 7]"#)
    #expect(feed.items.count == 1 && feed.problems.map(\.index) == [1])
  }

  @Test(
    "--items: the array at a path of keys, the last of a key given twice",
    arguments: [
      (#"{"result": {"list": [ITEM]}}"#, ["result", "list"]),
      (#"{"a": 1, "result": {"x": [], "list": [ITEM]}, "z": null}"#, ["result", "list"]),
      (#"{"result": {"list": []}, "result": {"list": [ITEM]}}"#, ["result", "list"]),
      (#"{"data": [], "items": [ITEM]}"#, ["items"]),
      (#"{"a": {"b": {"c": {"d": [ITEM, ITEM]}}}}"#, ["a", "b", "c", "d"]),
    ])
  func itemsAtPath(json: String, path: [String]) throws {
    let item = #"{"img": "u", "width": "100", "height": "150"}"#
    let feed = try FeedDecoder.decode(
      Data(json.replacingOccurrences(of: "ITEM", with: item).utf8),
      shape: FeedShape(items: path))
    #expect(feed.problems.isEmpty)
    #expect(!feed.items.isEmpty)
    #expect(feed.items.allSatisfy { $0.width == 100 && $0.height == 150 })
  }

  @Test(
    "--items: a path that leads nowhere says where it stops and what is there",
    arguments: [
      (#"{"result": {"lists": []}}"#, "\"result\" has no key \"list\"; its keys are \"lists\""),
      (
        #"{"res": 1, "other": 2}"#,
        "the top level has no key \"result\"; its keys are \"res\", \"other\""
      ),
      (#"{"result": {"list": {}}}"#, "\"result.list\" is an object, not an array"),
      (#"{"result": []}"#, "\"result\" is an array, not an object with the key \"list\""),
      (#"{"result": {}}"#, "\"result\" is an empty object, without the key \"list\""),
      (#"[1, 2]"#, "the top level is an array, not an object with the key \"result\""),
      (
        #"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}"#,
        "the top level has no key \"result\"; its keys are \"a\", \"b\", \"c\", \"d\", \"e\" and 2 more"
      ),
    ])
  func itemsPathFails(json: String, found: String) {
    #expect {
      try FeedDecoder.decode(Data(json.utf8), shape: FeedShape(items: ["result", "list"]))
    } throws: { error in
      guard case .noItemArray(let path, let got) = error as? FeedError else { return false }
      return path == "result.list" && got == found
    }
  }

  @Test("Keys are told apart by their bytes: NFC é and NFD é are two keys, as jq reads them")
  func keysAreBytes() throws {
    let (composed, decomposed) = ("\u{E9}", "e\u{301}")
    #expect(composed == decomposed, "Swift's == calls them equal; the reader must not")
    let json = """
      {"\(decomposed)": [{"img": "nfd", "w\(decomposed)": "1", "height": "2"}],
       "\(composed)": [{"img": "nfc", "w\(composed)": "3", "w\(decomposed)": "5", "height": "4"}]}
      """
    for (key, image, width) in [(composed, "nfc", 3.0), (decomposed, "nfd", 1)] {
      let feed = try FeedDecoder.decode(
        Data(json.utf8), shape: FeedShape(items: [key], width: ["w" + key]))
      #expect(feed.items.map(\.img) == [image])
      #expect(feed.items.first?.width == width)
    }
    // The last of a key given twice counts; a key made the same by escapes is the same key.
    let escaped = #"{"d\u0061ta": [{"img": "a", "width": "1", "height": "1"}], "x": 1}"#
    #expect(try FeedDecoder.decode(Data(escaped.utf8)).items.map(\.img) == ["a"])
    // The Kelvin sign is canonically equivalent to K, and is not K.
    #expect {
      try FeedDecoder.decode(
        Data(#"{"\u212A": []}"#.utf8), shape: FeedShape(items: ["K"]))
    } throws: { error in
      if case .noItemArray = error as? FeedError { true } else { false }
    }
  }

  @Test("A path of 100,000 keys into a document as deep is read, and where it stops said")
  func longPaths() throws {
    let depth = 100_000
    let item = #"{"img": "u", "width": "1", "height": "1"}"#
    let nested =
      String(repeating: #"{"a":"#, count: depth) + "[\(item)]"
      + String(repeating: "}", count: depth)
    let path = Array(repeating: "a", count: depth)
    let feed = try FeedDecoder.decode(Data(nested.utf8), shape: FeedShape(items: path))
    #expect(feed.items.map(\.img) == ["u"])
    // One key more than the document is deep: it stops at the array, named by its path.
    #expect {
      try FeedDecoder.decode(Data(nested.utf8), shape: FeedShape(items: path + ["b"]))
    } throws: { error in
      guard case .noItemArray(_, let found) = error as? FeedError else { return false }
      return found.hasSuffix("is an array, not an object with the key \"b\"")
        && found.count > 2 * depth
    }
    // --keys as deep, inside an item.
    let deepItem =
      #"[{"img": "v", "height": "2", "w": "# + String(repeating: #"{"a":"#, count: depth) + "3"
      + String(repeating: "}", count: depth) + "}]"
    let keyed = try FeedDecoder.decode(
      Data(deepItem.utf8), shape: FeedShape(width: ["w"] + path))
    #expect(keyed.items.first?.width == 3)
  }

  @Test("Text that is not JSON is refused as such before any path is followed")
  func pathAfterSyntax() {
    #expect {
      try FeedDecoder.decode(Data(#"{"a": 1,}"#.utf8), shape: FeedShape(items: ["b"]))
    } throws: { error in
      if case .notJSON = error as? FeedError { true } else { false }
    }
  }

  @Test("--keys: each field at its own path inside the item, nested to any depth")
  func keysAtPaths() throws {
    let shape = FeedShape(
      img: ["media", "url"], width: ["size", "w"], height: ["size", "h"], span: ["cols"])
    let json = #"""
      [{"media": {"url": "a", "alt": "x"}, "size": {"w": "100", "h": 200}, "cols": 2},
       {"size": {"w": 1}, "size": {"h": "5"}, "media": {"url": "b"}},
       {"media": {"url": "c"}, "size": {"w": "1", "h": "0"}},
       {"media": "d", "size": {"w": "1", "h": "1"}},
       {"img": "e", "width": "1", "height": "1"}]
      """#
    let feed = try FeedDecoder.decode(Data(json.utf8), shape: shape)
    #expect(feed.items.count == 1)
    let first = try #require(feed.items.first)
    #expect(first.img == "a" && first.width == 100 && first.height == 200 && first.span == 2)
    // A nested object given twice counts whole, as its last: item 1's first size is forgotten.
    let problems = feed.problems.map { "\($0.index) \($0.message)" }
    #expect(
      problems == [
        "1 item 1: \"size.w\" is missing: \"size\" has no key \"w\"; its keys are \"h\"; expected a "
          + "positive number, as a string like \"1200\" or a JSON number",
        "2 item 2: \"size.h\" is \"0\"; expected a positive number, as a string like \"1200\" or a JSON number",
        "3 item 3: \"media.url\" is missing: \"media\" is a string, not an object with the key "
          + "\"url\"; expected a string, the image's URL",
        "4 item 4: \"size.w\" is missing: the item has no key \"size\"; its keys are \"img\", "
          + "\"width\", \"height\"; expected a positive number, as a string like \"1200\" or a JSON "
          + "number",
      ])
  }

  @Test("The default shape is the finderlist's, read alike by either path of the reader")
  func defaultShape() throws {
    let json = try Fixtures.data("mj-shop-1.json")
    // The same keys written as a shape that the reader cannot tell is the default: items at
    // ["data"] read by the path-following code.
    let byPath = try FeedDecoder.decode(json, shape: FeedShape(items: ["data"]))
    #expect(try FeedDecoder.decode(json) == byPath)
  }

  @Test(
    "Nothing, or spaces alone, is a stream of no values: a feed of no items",
    arguments: ["", " ", "\n\n", "\r\n\t "])
  func emptyStream(text: String) throws {
    let feed = try decode(text)
    #expect(feed.items.isEmpty && feed.problems.isEmpty)
  }

  @Test(
    "Text that is not JSON is named with its line and column",
    arguments: [
      ("<html>", "line 1, column 1: unexpected '<'; expected a value"),
      ("{\"data\":", "line 1, column 9: unexpected end of input; expected a value"),
      ("{\n  \"data\": [1,,]\n}", "line 2, column 14: unexpected ','; expected a value"),
      ("{\"data\": []} x", "line 1, column 14: unexpected 'x' after the JSON value"),
    ])
  func notJSON(text: String, detail: String) {
    #expect(throws: FeedError.notJSON(detail: detail)) { try decode(text) }
  }

  @Test(
    "Bytes that are not JSON are refused whole, with where and why, never as an item's value",
    arguments: [
      ("{\"data\": [{\"img\": \"a\u{0}b\"}]}", "line 1, column 21: a control character (byte 0x0)"),
      ("{\"data\": [{\"img\": \"\u{1B}[2J\"}]}", "column 20: a control character (byte 0x1b)"),
      ("{\"data\": [{\"img\": \"a\u{FF}\"}]}", "column 21: invalid UTF-8 in a string (byte 0xff)"),
      ("{\"data\": [{\"img\": \"\u{C0}\u{AF}\"}]}", "invalid UTF-8 in a string (byte 0xc0)"),
      ("{\"data\": [{\"img\": \"\u{ED}\u{A0}\u{80}\"}]}", "invalid UTF-8 in a string (byte 0xed)"),
      (
        "{\"data\": [{\"img\": \"\u{F4}\u{90}\u{80}\u{80}\"}]}",
        "invalid UTF-8 in a string (byte 0xf4)"
      ),
      ("{\"data\": [{\"\u{FF}\": 1}]}", "invalid UTF-8 in a string (byte 0xff)"),
      (
        #"{"data": [{"img": "\ud800x"}]}"#,
        "column 20: the escape \\ud800 is half of a surrogate pair"
      ),
      (#"{"data": [{"img": "\udc00"}]}"#, "the escape \\udc00 is half of a surrogate pair"),
      (#"{"data": [{"img": "\ud800\u0041"}]}"#, "the escape \\ud800 is half of a surrogate pair"),
      (#"{"data": [{"img": "a", "width": 007}]}"#, "column 33: a number must not start with 0"),
      ("{\"data\": [\u{FF}]}", "column 11: unexpected byte 0xff; expected a value"),
      ("\u{C3}\u{A9}", "column 1: unexpected byte 0xc3; expected a value"),
    ] as [(String, String)])
  func notJSONAtAll(text: String, detail: String) {
    // Built from bytes: the text's scalars U+0080…U+00FF stand for single bytes here.
    let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    #expect {
      try FeedDecoder.decode(Data(bytes))
    } throws: { error in
      guard case .notJSON(let found) = error as? FeedError else { return false }
      return found.contains(detail)
    }
  }

  @Test("A key given twice takes its last value, as JavaScript, Python and jq read it")
  func duplicateKeys() throws {
    let feed = try decode(
      #"{"data": [{"img": "a", "img": "b", "width": "x", "width": "2", "height": "3", "height": 4}]}"#
    )
    #expect(Array(feed.items) == [FeedItem(index: 0, img: "b", width: 2, height: 4)])
    let twice = try decode(
      #"{"data": [{"img": "a", "width": 1, "height": 1}], "data": [{"img": "z", "width": 5, "height": 6}]}"#
    )
    #expect(Array(twice.items) == [FeedItem(index: 0, img: "z", width: 5, height: 6)])
    let problem = try decode(
      #"{"data": [{"img": "a", "width": "2", "width": "wide", "height": "3"}]}"#
    ).problems
    #expect(
      problem == [FeedItemProblem(index: 0, field: .width, value: #""wide""#, reason: .notANumber)])
  }

  @Test("A missing or null img says what an img must be")
  func missingImage() throws {
    for item in [#"{"width": "1", "height": "1"}"#, #"{"img": null, "width": "1", "height": "1"}"#]
    {
      let message = try #require(try problem(item)).message
      #expect(
        message.hasSuffix("\"img\" is missing; expected a string, the image's URL"), "\(message)")
    }
  }

  @Test("Nesting of any depth is read without recursion: 100,000 levels, valid and not")
  func deepNesting() throws {
    let depth = 100_000
    let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let valid =
      #"{"deep": "# + deep + #", "data": [{"img": "a", "width": 1, "height": 1, "x": "#
      + deep + "}]}"
    #expect(try decode(valid).items.count == 1)
    let broken = #"{"data": "# + String(repeating: "[", count: depth) + "}"
    #expect {
      try decode(broken)
    } throws: { error in
      guard case .notJSON(let detail) = error as? FeedError else { return false }
      return detail.hasPrefix("line 1, column \(10 + depth): unexpected '}'")
    }
  }

  @Test(
    "A key of digits reaches into an array; an object's key of digits still matches as a key",
    arguments: [
      (#"{"pages": [{"list": []}, {"list": [ITEM]}]}"#, "pages.1.list"),
      (#"{"pages": {"1": {"list": [ITEM]}}}"#, "pages.1.list"),
      (#"[[], [ITEM]]"#, "1"),
      (#"{"results": [ITEM]}"#, ".results"),
      (#"{"a": [[0, {"b": [ITEM]}]]}"#, "a[0][1].b"),
      (#"{"a": [{"b": 1}, {"b": [ITEM]}], "a": [{}, {"b": [ITEM, ITEM]}]}"#, "a.1.b"),
    ])
  func itemsInArrays(json: String, path: String) throws {
    let item = #"{"img": "u", "width": 1, "height": 2}"#
    let text = json.replacingOccurrences(of: "ITEM", with: item)
    let shape = FeedShape(items: try #require(FeedShape.path(path)))
    let feed = try FeedDecoder.decode(Data(text.utf8), shape: shape)
    #expect(
      feed.items.map(\.img) == Array(repeating: "u", count: text.hasPrefix(#"{"a": [{"#) ? 2 : 1))
  }

  @Test(
    "A path into arrays that stops says where and what is there",
    arguments: [
      (
        #"{"images": [{"url": "a"}]}"#, "images.3.url",
        #""images" has no element 3: the array has 1 element"#
      ),
      (#"{"images": []}"#, "images.0", #""images" has no element 0: the array is empty"#),
      (
        #"{"images": [1, 2]}"#, "images.x", #""images" is an array, not an object with the key "x""#
      ),
      (
        #"{"images": "none"}"#, "images.0",
        #""images" is a string, not an object or an array with the key or element 0"#
      ),
      (#"[[1]]"#, "0.0", #""0.0" is a number, not an array"#),
      (
        #"[1, 2, 3]"#, "99999999999999999999",
        "the top level has no element 99999999999999999999: the array has 3 elements"
      ),
    ])
  func itemsPathInArraysFails(json: String, path: String, found: String) throws {
    let shape = FeedShape(items: try #require(FeedShape.path(path)))
    #expect {
      try FeedDecoder.decode(Data(json.utf8), shape: shape)
    } throws: { error in
      guard case .noItemArray(_, let got) = error as? FeedError else { return false }
      return got == found
    }
  }

  @Test("--keys reach into arrays: the Reddit listing's image, its size beside it")
  func keysInArrays() throws {
    let json = #"""
      {"data": {"children": [{"kind": "t3", "data": {"preview": {"images": [{"source":
        {"url": "https://i.example/a.jpg", "width": 640, "height": 480}}]}}}]}}
      """#
    let base = ["data", "preview", "images", "0", "source"]
    let shape = FeedShape(
      items: ["data", "children"], img: base + ["url"], width: base + ["width"],
      height: base + ["height"])
    let feed = try FeedDecoder.decode(Data(json.utf8), shape: shape)
    #expect(feed.items.map(\.img) == ["https://i.example/a.jpg"])
    #expect(feed.items.first.map { [$0.width, $0.height] } == [640, 480])
  }

  @Test(
    "A missing field at a path says where the path stops in the item",
    arguments: [
      (
        #"{"preview": {"images": [{"source": {"url": "a"}}]}}"#, "preview.images.3.source.url",
        #"item 0: "preview.images.3.source.url" is missing: "preview.images" has no element 3: "#
          + #"the array has 1 element; expected a string, the image's URL"#
      ),
      (
        #"{"size": "big"}"#, "size.w",
        #"item 0: "size.w" is missing: "size" is a string, not an object with the key "w"; "#
          + #"expected a string, the image's URL"#
      ),
      (
        #"{"a": 1}"#, "size.w",
        #"item 0: "size.w" is missing: the item has no key "size"; its keys are "a", "width", "#
          + #""height"; "#
          + #"expected a string, the image's URL"#
      ),
    ])
  func missingAtPath(item: String, path: String, message: String) throws {
    let shape = FeedShape(img: try #require(FeedShape.path(path)))
    let json = #"{"data": [ITEM]}"#.replacingOccurrences(
      of: "ITEM", with: item.dropLast() + #", "width": 1, "height": 1}"#)
    let feed = try FeedDecoder.decode(Data(json.utf8), shape: shape)
    #expect(feed.problems.map(\.message) == [message])
  }

  @Test("A path of 100,000 array indices into arrays as deep is read, and where it stops said")
  func longArrayPaths() throws {
    let depth = 100_000
    let item = #"{"img": "u", "width": "1", "height": "1"}"#
    let nested =
      String(repeating: "[", count: depth) + "[\(item)]" + String(repeating: "]", count: depth)
    let path = Array(repeating: "0", count: depth)
    #expect(
      try FeedDecoder.decode(Data(nested.utf8), shape: FeedShape(items: path)).items.count == 1)
    #expect {
      try FeedDecoder.decode(Data(nested.utf8), shape: FeedShape(items: path + ["1"]))
    } throws: { error in
      guard case .noItemArray(_, let found) = error as? FeedError else { return false }
      return found.hasSuffix("has no element 1: the array has 1 element") && found.count > 2 * depth
    }
  }

  @Test("Bytes that are not JSON: a URL's answer is the server's fault, markup is named as such")
  func pageNotJSON() throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/feed?page=2"))
    func read(_ text: String, from location: FeedLocation) -> FeedReadError? {
      do throws(FeedReadError) {
        _ = try FeedDecoder.decodePage(FeedBytes(data: Data(text.utf8), location: location))
        return nil
      } catch {
        return error
      }
    }
    guard case .fetch(let failure) = read("<html>busy</html>", from: .web(url)) else {
      Issue.record("a URL's markup is not a fetch failure")
      return
    }
    #expect(failure.url == url.absoluteString && failure.attempts == 1)
    guard case .invalidJSON = failure.cause else {
      Issue.record("\(failure.cause)")
      return
    }
    let cases: [(String, FeedLocation, String?)] = [
      (
        "\u{FEFF}  <!DOCTYPE html>\n<p>", .file(path: "saved.json"),
        "the file 'saved.json' looks like an HTML or XML page (it starts \"<!DOCTYPE html>\")"
      ),
      ("<?xml version=\"1.0\"?>", .currentFolder, "standard input looks like an HTML or XML page"),
      ("{\"data\": [}", .file(path: "broken.json"), nil),
    ]
    for (text, location, said) in cases {
      guard case .feed(.notJSON(let detail)) = read(text, from: location) else {
        Issue.record("\(text) from \(location) is not a feed's notJSON")
        continue
      }
      if let said {
        #expect(detail.hasPrefix(said), "\(detail)")
      } else {
        #expect(!detail.contains("HTML"), "\(detail)")
      }
    }
    // A feed reads as decode reads it, its location kept.
    let feed = try FeedDecoder.decodePage(
      FeedBytes(
        data: Data(#"[{"img": "a.png", "width": 1, "height": 2}]"#.utf8), location: .web(url)))
    #expect(feed.items.count == 1 && feed.location == .web(url))
  }
}
