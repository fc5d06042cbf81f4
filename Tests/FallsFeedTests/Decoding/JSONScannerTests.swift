import FallsBase
import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// The first syntax error in `bytes`, as "line L, column C: what", or `nil` for valid JSON: the
/// document read whole, every value skipped.
private func firstError(in bytes: some Collection<UInt8>) -> String? {
  Array(bytes).withUnsafeBufferPointer { bytes in
    var scanner = JSONScanner(bytes: bytes)
    do throws(JSONScanner.Failure) {
      try scanner.skip(try scanner.documentValue())
      try scanner.documentEnd()
      return nil
    } catch {
      return error.message
    }
  }
}

@Suite struct JSONScannerTests {
  @Test(
    "Valid JSON has no syntax error",
    arguments: [
      "{}", "[]", " {\"a\": [1, -2.5e+3, true, false, null, \"x\\n\\u00e9\"]} ", "0", "\"\"",
      "{\"data\": [{\"img\": \"\", \"width\": \"1\"}]}", "[1e999]",
      "\u{FEFF}{}", #"["\ud83d\ude00 \uD83D\uDE00 é 瀑 😀 \u0000"]"#, "[[[[{\"a\":[{}]}]]]]",
    ])
  func valid(text: String) {
    #expect(firstError(in: Array(text.utf8)) == nil)
  }

  @Test("The real feeds are valid", arguments: Fixtures.feedNames)
  func realFeeds(name: String) throws {
    #expect(firstError(in: try Fixtures.data(name)) == nil)
  }

  @Test(
    "Errors name the line, the column and what was expected",
    arguments: [
      ("{\"a\" 1}", "line 1, column 6: unexpected '1'; expected ':' after the key"),
      ("{a: 1}", "line 1, column 2: unexpected 'a'; expected a quoted key"),
      ("[1 2]", "line 1, column 4: unexpected '2'; expected ',' or ']'"),
      ("{\"a\": 1 \"b\": 2}", "line 1, column 9: unexpected '\"'; expected ',' or '}'"),
      ("[01]", "line 1, column 2: a number must not start with 0"),
      // A trailing comma, refused as jq refuses it, and named at the comma.
      ("[1,]", "line 1, column 3: a trailing comma before ']'; JSON allows none, remove the ','"),
      (
        "{\"a\": 1,\n }",
        "line 1, column 8: a trailing comma before '}'; JSON allows none, remove the ','"
      ),
      (
        "[[1],[2,],3]",
        "line 1, column 8: a trailing comma before ']'; JSON allows none, remove the ','"
      ),
      ("[1,,]", "line 1, column 4: unexpected ','; expected a value"),
      ("[1.]", "line 1, column 4: expected a digit after the decimal point"),
      ("[tru]", "line 1, column 5: unexpected ']'; expected true"),
      (
        "\"ab", "line 1, column 4: unexpected end of input inside a string; expected a closing '\"'"
      ),
      ("\"a\\qb\"", "line 1, column 4: invalid escape \\'q' in a string"),
      ("[\n\n  1.5e]", "line 3, column 7: expected a digit in the exponent"),
      (
        "[\"\u{1B}\"]",
        "line 1, column 3: a control character (byte 0x1b) inside a string must be escaped"
      ),
      (
        #"["\ud83d"]"#,
        "line 1, column 3: the escape \\ud83d is half of a surrogate pair without its other half, which is not a character"
      ),
      ("[\"é\", x]", "line 1, column 7: unexpected 'x'; expected a value"),
    ])
  func errors(text: String, message: String) {
    #expect(firstError(in: Array(text.utf8)) == message)
  }

  @Test("It agrees with Foundation on which mutated feeds are JSON", arguments: 0..<10)
  func agreesWithFoundation(seed: UInt64) throws {
    let original = Array(try Fixtures.data("zx-shopdata.json"))
    var random = SplitMix64(seed: seed)
    let alphabet = Array("{}[],:\"\\ 0123456789.eE+-tfnulx".utf8)
    for _ in 0..<200 {
      var bytes = original
      for _ in 0..<(1 + random.next() % 3) {
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
        default: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        }
      }
      // Foundation reads a trailing comma, which falls refuses as jq does.
      let foundationValid =
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        && !FoundationFeedReference.hasTrailingComma(bytes)
      let ours = firstError(in: bytes)
      #expect(
        (ours == nil) == foundationValid,
        "\(String(decoding: bytes, as: UTF8.self)): \(ours ?? "valid")")
    }
  }

}
