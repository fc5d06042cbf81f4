import FallsCore
import FallsFeed
import Testing

@testable import FallsCLI

/// The message of the usage error `body` throws, or `nil`.
private func message(_ body: () throws(CLIError) -> Void) -> String? {
  do {
    try body()
    return nil
  } catch {
    guard case .usage(let message, _) = error else { return nil }
    return message
  }
}

/// The refusal of a `--keys` value whose key of `field` is no path.
private func pathRefusal(_ value: String, field: String, example: String) -> String {
  "invalid value '\(value)' for '--keys'; expected the key of \(field) as keys joined by dots, "
    + "none of them empty, an array's element by its index from 0 in brackets or after a dot "
    + "(e.g. --keys \(example))"
}

@Suite struct FlagValueTests {
  @Test(
    "Each kind of value, read and refused",
    arguments: [
      ("x", "invalid value 'x' for '--f'; expected a decimal number (e.g. --f 7)"),
      ("1,2", "invalid value '1,2' for '--f'; expected a decimal number (e.g. --f 7)"),
    ])
  func numbers(text: String, expected: String) throws {
    #expect(try FlagValue(flag: "f", text: "2.5").number(example: "7") == 2.5)
    #expect(
      message { () throws(CLIError) in _ = try FlagValue(flag: "f", text: text).number(example: "7")
      } == expected)
  }

  @Test("A whole number in range, and the range said when it is not")
  func whole() throws {
    #expect(try FlagValue(flag: "n", text: "3").whole(in: 1...5, example: "2") == 3)
    for text in ["0", "6", "2.0", "", "x"] {
      #expect(
        message { () throws(CLIError) in
          _ = try FlagValue(flag: "n", text: text).whole(in: 1...5, example: "2")
        }
          == "invalid value '\(text)' for '--n'; expected a whole number from 1 to 5 (e.g. --n 2)")
    }
  }

  @Test("A choice names its cases: two as 'A or B', more as 'one of A, B, C'")
  func choices() throws {
    #expect(try FlagValue(flag: "axis", text: "horizontal").choice(LayoutAxis.self) == .horizontal)
    #expect(
      message { () throws(CLIError) in
        _ = try FlagValue(flag: "axis", text: "up").choice(LayoutAxis.self)
      }
        == "invalid value 'up' for '--axis'; expected vertical or horizontal")
    #expect(
      message { () throws(CLIError) in
        _ = try FlagValue(flag: "order", text: "x").choice(PlacementOrder.self)
      }
        == "invalid value 'x' for '--order'; expected one of shortest, left-to-right, right-to-left"
    )
  }

  @Test("Lists of numbers: as many as asked, separated by commas")
  func lists() throws {
    #expect(try FlagValue(flag: "o", text: "1,2").numbers(counts: [1, 2], example: "0") == [1, 2])
    #expect(
      message { () throws(CLIError) in
        _ = try FlagValue(flag: "o", text: "1,2,3").numbers(counts: [1, 2], example: "0")
      }
        == "invalid value '1,2,3' for '--o'; expected one number or 2 numbers, separated by commas (e.g. --o 0)"
    )
  }

  @Test("Messages show a control character escaped and a password hidden")
  func shown() {
    let value = FlagValue(flag: "feed", text: "https://u:secret@host/\u{1B}[2J")
    #expect(
      message { () throws(CLIError) in throw value.invalid(expected: "a feed") }
        == "invalid value 'https://u:***@host/\\u001b[2J' for '--feed'; expected a feed")
  }

  @Test("A pattern's spans, and what is wrong with a pattern that does not fit")
  func patterns() throws {
    #expect(try FlagValue(flag: "pattern", text: "2X2,1x1").pattern(columns: 3).tiles.count == 2)
    #expect(
      message { () throws(CLIError) in
        _ = try FlagValue(flag: "pattern", text: "4x1").pattern(columns: 3)
      }
        == "--pattern '4x1': tile 1 is wider than the 3 columns")
  }

  @Test(
    "--keys: fields at dotted keys; each field once, and no key another's or its start",
    arguments: [
      ("width=size.w,height=size.h", nil as String?),
      ("img=url", nil), ("span=layout.columns,img=media.src", nil),
      (
        "size=w",
        "invalid value 'size=w' for '--keys'; expected FIELD=KEY separated by commas, "
          + "each FIELD one of img, width, height, span (e.g. --keys img=url,width=size.w,height=size.h)"
      ),
      (
        "width",
        "invalid value 'width' for '--keys'; expected FIELD=KEY separated by commas, "
          + "each FIELD one of img, width, height, span (e.g. --keys img=url,width=size.w,height=size.h)"
      ),
      ("width=a,width=b", "--keys gives width twice; give each field once"),
      (
        "width=size..w", pathRefusal("width=size..w", field: "width", example: "width=size.w")
      ),
      (
        // "." is the top level: an item's field needs a key.
        "img=.", pathRefusal("img=.", field: "img", example: "img=size.i")
      ),
      (
        "img=a[-1].url", pathRefusal("img=a[-1].url", field: "img", example: "img=size.i")
      ),
      (
        "width=size,height=size.h",
        "--keys: 'size' is the key of width and the start of height's 'size.h'; each field "
          + "needs a key of its own"
      ),
      (
        "width=s,height=s",
        "--keys: 's' is the key of width and of height; each field needs a key of its own"
      ),
      (
        "img=width",
        "--keys: 'width' is the key of img and of width; each field needs a key of its own"
      ),
    ])
  func itemKeys(text: String, refusal: String?) throws {
    var shape = FeedShape(items: ["x"])
    let value = FlagValue(flag: "keys", text: text)
    #expect(message { () throws(CLIError) in try value.itemKeys(into: &shape) } == refusal)
    guard refusal == nil else {
      #expect(shape == FeedShape(items: ["x"]), "a refused value changes nothing")
      return
    }
    for part in text.split(separator: ",") {
      let sides = part.split(separator: "=")
      let field = try #require(FeedField(rawValue: String(sides[0])))
      #expect(shape.path(of: field) == sides[1].split(separator: ".").map(String.init))
    }
    #expect(shape.items == ["x"], "--keys keeps --items")
  }

  @Test(
    "--items: keys joined by dots",
    arguments: [
      ("a.b", ["a", "b"] as [String]?), ("a..b", nil), (".results[0]", ["results", "0"]),
      (".", []),
    ])
  func keyPath(text: String, path: [String]?) {
    var read: [String]?
    let refusal = message { () throws(CLIError) in
      read = try FlagValue(flag: "items", text: text).keyPath()
    }
    #expect(read == path)
    #expect((refusal == nil) == (path != nil))
  }
}
