import FallsCore
import Foundation
import Testing

@testable import FallsFeed

private func read(_ text: String) throws(LayoutDocument.Failure) -> LayoutDocument {
  try LayoutDocument.read(FeedBytes(data: Data(text.utf8)))
}

/// The failure of reading `text`, or `nil` when it reads.
private func failure(_ text: String) -> LayoutDocument.Failure? {
  do {
    _ = try read(text)
    return nil
  } catch {
    return error
  }
}

/// An item's object as falls writes it, its members in falls's order; `replacing` a key's value
/// (the text given) or, with `nil`, leaving the key out.
private func object(index: Int = 3, replacing changes: [String: String?] = [:]) -> String {
  let members: [(String, String)] = [
    ("kind", #""item""#), ("index", String(index)), ("page", "1"), ("column", "1"),
    ("span", "2"), ("x", "10"), ("y", "20.5"), ("width", "100"), ("height", "150"),
    ("enlarged", "true"), ("aligned", "false"), ("img", #""a.jpg""#),
  ]
  let kept = members.compactMap { key, value -> String? in
    guard let change = changes[key] else { return "\"\(key)\":\(value)" }
    return change.map { "\"\(key)\":\($0)" }
  }
  return "{" + kept.joined(separator: ",") + "}"
}

/// `document` with its last `}` replaced by `tail`: more top-level keys after `items`.
private func ending(_ document: String, with tail: String) -> String {
  String(document.dropLast()) + tail
}

/// A document of `objects`, as `falls layout -f json` writes one.
private func document(_ objects: [String], extra: String = #","contentHeight":900"#) -> String {
  #"{"schema":"falls.layout/1","width":375"# + extra + #","items":["#
    + objects.joined(separator: ",") + "]}"
}

@Suite struct LayoutDocumentTests {
  private static let item = LayoutDocument.Item(
    index: 3, frame: Rect(x: 10, y: 20.5, width: 100, height: 150), column: 1, span: 2,
    isEnlarged: true)

  @Test("One document and its lines read as the same items, and only json gives the height")
  func jsonAndLines() throws {
    let json = try read(document([object()]))
    let lines = try read(object() + "\n" + object(index: 4) + "\n")
    #expect(Array(json.items) == [Self.item])
    #expect(json.contentHeight == 900)
    #expect(lines.items.map(\.index) == [3, 4] && lines.items[0] == Self.item)
    #expect(lines.contentHeight == nil)
  }

  @Test("Keys written with escapes are the keys they spell, at the top level and in an item")
  func escapedKeys() throws {
    let object =
      #"{"\u0069ndex":3,"x":10,"\u0079":20.5,"width":100,"height":150,"column":1,"span":2,"#
      + #""enlarge\u0064":true}"#
    let document = try read(#"{"sch\u0065ma":"falls.layout/1","\u0069tems":[\#(object)]}"#)
    #expect(Array(document.items) == [Self.item])
    #expect(Array(try read(object).items) == [Self.item])
  }

  @Test("No bytes, or only blanks, are JSON Lines of no item, as falls writes no items")
  func empty() throws {
    // Found by the document fuzz target: `falls layout --synthetic 0 -f jsonl` writes nothing.
    for text in ["", "\n", " \r\n\t"] {
      let document = try read(text)
      #expect(document.items.isEmpty && document.contentHeight == nil)
    }
  }

  @Test("Keys a diff does not compare may be left out: column, span, enlarged, kind")
  func fewestKeys() throws {
    let lines = try read(#"{"index":0,"x":1,"y":2,"width":3,"height":4}"#)
    #expect(
      Array(lines.items) == [
        LayoutDocument.Item(index: 0, frame: Rect(x: 1, y: 2, width: 3, height: 4))
      ])
  }

  @Test(
    "What is not a layout says why",
    arguments: [
      (#"{"schema":"falls.layout/2","items":[]}"#, #"its schema is "falls.layout/2""#),
      (#"{"schema":7,"items":[]}"#, #"its schema is 7, not "falls.layout/1""#),
      (#"{"items":[]}"#, #"it has no "schema""#),
      (#"{"schema":"falls.layout/1"}"#, #"it has no "items" array"#),
      (#"{"schema":"falls.layout/1","items":{}}"#, #"its "items" is an object, not an array"#),
      (#"{"schema":"falls.layout/1","items":[1]}"#, #"item 0 of "items" is a number"#),
      (#"{"x":1}"#, #"line 1: "index" is missing"#),
      (#"{"index":3,"x":1}"#, #"line 1: "y" is missing; expected a finite number"#),
      (
        "[1]",
        "it is an array, not a layout's JSON object (a document with \"items\", or lines of items)"
      ),
      (
        "{}",
        "it is an empty object, not a layout's JSON object (a document with \"items\", or lines of items)"
      ),
      (#"{"index":1,"x":0,"y":0,"width":1,"height":1} 7"#, "line 1 is a number, not an item"),
      (
        "\n\n" + object() + "\n" + #"{"schema":"falls.layout/1","items":[]}"#,
        "line 4 is a whole document among JSON Lines"
      ),
      (
        #"{"schema":"falls.layout/1","items":[]} {}"#,
        "it is not JSON: line 1, column 40: unexpected '{'"
      ),
    ])
  func notLayouts(text: String, reason: String) {
    let found = failure(text)?.reason ?? "it read"
    #expect(found.contains(reason), "\(found)")
  }

  /// Each rule of an item's values, broken: the key, the value, and the words of the rule.
  static let brokenRules: [(key: String, value: String, expected: String)] = {
    let index = "a whole number from 0 to 9007199254740991"
    let column = "a whole number from 0 to 9999"
    let span = "a whole number from 1 to 10000"
    let finite = "a finite number"
    let size = "a finite number of at least 0"
    return [
      ("index", "-1", index), ("index", "1.5", index), ("index", "9007199254740992", index),
      ("index", #""3""#, index), ("index", "null", index), ("index", "1e400", index),
      ("column", "1e300", column), ("column", "1e400", column), ("column", "-1e19", column),
      ("column", "0.9", column), ("column", "10000", column), ("column", "-1", column),
      ("column", "true", column), ("column", "null", column),
      ("span", "1e20", span), ("span", "0", span), ("span", "10001", span),
      ("span", "1.5", span), ("span", #""full""#, span), ("span", "[2]", span),
      ("x", "1e400", finite), ("x", "-1e400", finite), ("x", #""10""#, finite),
      ("y", "null", finite), ("y", "{}", finite),
      ("width", "-1", size), ("width", "1e309", size), ("height", "-0.5", size),
      ("height", "false", size),
      ("enlarged", "1", "true or false"), ("enlarged", #""true""#, "true or false"),
      ("enlarged", "null", "true or false"),
      ("kind", "1", #""header", "item", "footer", "skipped" or "failedPage""#),
      ("kind", #""itemx""#, #""header", "item", "footer", "skipped" or "failedPage""#),
    ]
  }()

  @Test(
    "A value that breaks its rule is refused, naming the line or the item, the key and the value",
    arguments: brokenRules)
  func brokenRule(key: String, value: String, expected: String) {
    let bad = object(index: 4, replacing: [key: value])
    // The value as a message quotes it: containers are named, strings and numbers written.
    let shown = value == "[2]" ? "an array" : value == "{}" ? "an object" : value
    #expect(
      failure(object() + "\n" + bad + "\n")
        == .invalidValue(.line(2), key: key, value: shown, expected: expected))
    #expect(
      failure(document([object(), bad]))
        == .invalidValue(.item(1), key: key, value: shown, expected: expected))
    let reason = failure(bad)?.reason ?? ""
    #expect(reason == #"line 1: "\#(key)" is \#(shown); expected \#(expected)"#)
  }

  @Test(
    "Values at the edges of their rules read",
    arguments: [
      ("index", "9007199254740991"), ("index", "0"), ("column", "9999"), ("column", "0"),
      ("column", "2.0"), ("span", "10000"), ("span", "1e0"), ("x", "-1e308"),
      ("y", "1.7976931348623157e308"),
      ("width", "0"), ("height", "-0"), ("enlarged", "false"),
    ])
  func edges(key: String, value: String) throws {
    let read = try read(object(replacing: [key: value]))
    #expect(read.items.count == 1)
  }

  @Test("A value is read exactly as JSON gives it: a column is 2, not 2.0 rounded")
  func exactValues() throws {
    let read = try read(
      object(replacing: ["column": "2.0", "span": "1e1", "x": "-0.1", "height": "1e-400"]))
    let item = try #require(read.items.first)
    #expect(item.column == 2 && item.span == 10 && item.frame.x == -0.1 && item.frame.height == 0)
  }

  @Test("A key given twice counts last: an item's, the document's, and items")
  func lastCounts() throws {
    // An item's key: an earlier wrong value is forgotten, and a later one wins.
    let twice = try read(
      #"{"index":1,"x":"abc","x":5,"y":0,"width":1,"height":1,"column":1,"column":2}"#)
    #expect(twice.items.first?.frame.x == 5 && twice.items.first?.column == 2)
    #expect(
      failure(#"{"index":1,"x":5,"x":null,"y":0,"width":1,"height":1}"#)
        == .invalidValue(.line(1), key: "x", value: "null", expected: "a finite number"))
    // The last items counts, its items replacing the earlier ones', wrong ones among them.
    let emptied = try read(ending(document([object()]), with: #","items":[]}"#))
    #expect(emptied.items.isEmpty)
    let replaced = try read(
      ending(document([#"{"index":"bad"}"#, "7"]), with: #","items":[\#(object(index: 9))]}"#))
    #expect(replaced.items.map(\.index) == [9])
    #expect(
      failure(ending(document([object()]), with: #","items":5}"#))
        == .notALayout(#"its "items" is a number, not an array"#))
    // The document's own keys.
    let heights = try read(
      document([object()], extra: #","contentHeight":"abc","contentHeight":5"#))
    #expect(heights.contentHeight == 5)
    let schemas = try read(#"{"schema":"other","schema":"falls.layout/1","items":[]}"#)
    #expect(schemas.items.isEmpty)
  }

  @Test(
    "A content height or width that is not a finite number is refused",
    arguments: ["contentHeight", "contentWidth"], [#""abc""#, "null", "1e400", "true", "[]"])
  func extents(key: String, value: String) {
    let shown = value == "[]" ? "an array" : value
    #expect(
      failure(document([object()], extra: ",\"\(key)\":\(value)"))
        == .invalidValue(nil, key: key, value: shown, expected: "a finite number"))
  }

  @Test("A layout along a horizontal axis is compared by its content width")
  func horizontal() throws {
    let read = try read(
      document([object()], extra: #","contentHeight":667,"axis":"horizontal","contentWidth":812"#))
    #expect(read.contentHeight == 812)
  }

  @Test("Headers and footers are left out, their values checked all the same")
  func headersAndFooters() throws {
    let header = #"{"kind":"header","x":0,"y":0,"width":375,"height":30}"#
    let footer = #"{"kind":"footer","x":0,"y":180,"width":375,"height":20}"#
    let lines = try read([header, object(), footer].joined(separator: "\n"))
    #expect(Array(lines.items) == [Self.item])
    #expect(try read(document([header, object(), footer])).items.count == 1)
    #expect(
      failure(#"{"kind":"header","x":1e400}"# + "\n" + object())
        == .invalidValue(.line(1), key: "x", value: "1e400", expected: "a finite number"))
  }

  @Test("Lines of a skipped item or a failed page are read and left out")
  func notesLeftOut() throws {
    let skipped =
      #"{"kind":"skipped","index":7,"field":"width","key":"width","type":"string","value":"x","#
      + #""reason":"notANumber","error":null}"#
    let failed = #"{"kind":"failedPage","page":3,"pages":4,"error":"GET …: HTTP 500"}"#
    let lines = try read([skipped, failed, object()].joined(separator: "\n"))
    #expect(Array(lines.items) == [Self.item])
  }

  @Test("A line is counted as a text editor counts it, blank lines and objects over several too")
  func lines() {
    let spread = "{\"index\":1,\n\"x\":0,\"y\":0,\"width\":1,\"height\":1}"
    let text = "\n" + object() + "\n\n" + spread + "\n" + object(replacing: ["x": "1e999"])
    #expect(
      failure(text)
        == .invalidValue(.line(6), key: "x", value: "1e999", expected: "a finite number"))
  }

  @Test("Items out of index order are walked in it; an index given twice is refused")
  func order() throws {
    let lines = try read([5, 1, 3].map { object(index: $0) }.joined(separator: "\n"))
    #expect(lines.items.map(\.index) == [5, 1, 3])
    #expect((0..<3).map { lines.items[lines.position(inIndexOrder: $0)].index } == [1, 3, 5])
    let ordered = try read(document([1, 3, 5].map { object(index: $0) }))
    #expect((0..<3).map { ordered.position(inIndexOrder: $0) } == [0, 1, 2])
    #expect(failure(document([1, 3, 1].map { object(index: $0) })) == .repeatedIndex(1))
    #expect(failure([2, 2].map { object(index: $0) }.joined(separator: "\n")) == .repeatedIndex(2))
  }

  @Test("A value from outside is shortened and escaped in the message")
  func escapedValues() {
    // Its text holds ESC, written as JSON escapes it.
    let long = "\"" + String(repeating: "a", count: 1000) + "\\u001b[2J\""
    let reason = failure(object(replacing: ["kind": long]))?.reason ?? ""
    #expect(!reason.contains("\u{1B}") && reason.count < 400, "\(reason)")
    #expect(reason.hasPrefix(#"line 1: "kind" is "aaaa"#))
  }

  @Test("An item is held in 56 bytes, its absent column, span and enlargement read as absent")
  func storage() throws {
    #expect(MemoryLayout<LayoutDocument.Items.Stored>.stride == 56)
    let bare = try read(#"{"index":0,"x":1,"y":2,"width":3,"height":4,"column":0,"span":1}"#)
    #expect(bare.items.first?.column == 0 && bare.items.first?.span == 1)
    #expect(bare.items.first?.isEnlarged == nil)
  }

  @Test("A mapped file reads as the same bytes in memory do, its read pages given back")
  func mapped() throws {
    // Over 4 MiB, so that pages are given back as the lines are read.
    let lines = (0..<25_000).map {
      object(index: $0, replacing: ["img": "\"\(String(repeating: "x", count: 100))\""])
    }
    let text = lines.joined(separator: "\n") + "\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-document-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data(text.utf8).write(to: path)
    let bytes = try FeedReader.load(path: path.path, limitsRegularFile: false)
    #expect(bytes.isFileMapping && bytes.data.count > 4 << 20)
    let mapped = try LayoutDocument.read(bytes)
    let inMemory = try read(text)
    #expect(Array(mapped.items) == Array(inMemory.items))
    #expect(mapped.items.map(\.index) == Array(0..<25_000))
  }

  @Test("Hundreds of random documents read back as written, as json and as jsonl")
  func randomDocuments() throws {
    var random = SplitMix64(seed: 31)
    for _ in 0..<300 {
      let count = Int(random.next() % 6)
      var items: [LayoutDocument.Item] = []
      for position in 0..<count {
        func number() -> Double {
          Double(Int64(bitPattern: random.next()) % 1_000_000) / Double(1 + random.next() % 1000)
        }
        items.append(
          LayoutDocument.Item(
            index: position * 2 + Int(random.next() % 2),
            frame: Rect(x: number(), y: number(), width: abs(number()), height: abs(number())),
            column: random.next() % 3 == 0 ? nil : Int(random.next() % 10_000),
            span: random.next() % 3 == 0 ? nil : 1 + Int(random.next() % 10_000),
            isEnlarged: random.next() % 3 == 0 ? nil : random.next() % 2 == 0))
      }
      // Written here with Swift's own text of each number, not falls's writer.
      let objects = items.map { item in
        var members = [
          "\"index\":\(item.index)", "\"x\":\(item.frame.x)", "\"y\":\(item.frame.y)",
          "\"width\":\(item.frame.width)", "\"height\":\(item.frame.height)",
        ]
        if let column = item.column { members.append("\"column\":\(column)") }
        if let span = item.span { members.append("\"span\":\(span)") }
        if let enlarged = item.isEnlarged { members.append("\"enlarged\":\(enlarged)") }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: ",") + "}"
      }
      #expect(Array(try read(document(objects)).items) == items)
      if !objects.isEmpty {
        #expect(Array(try read(objects.joined(separator: "\n")).items) == items)
      }
    }
  }
}
