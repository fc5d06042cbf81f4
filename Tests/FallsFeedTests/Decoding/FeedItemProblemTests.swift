import FallsFeed
import Foundation
import Testing

@Suite struct FeedItemProblemTests {
  @Test(
    "valueType is the JSON type of the value the feed gave the field",
    arguments: [
      (#""wide""#, "string"), (#""""#, "string"), ("-3", "number"), ("1e999", "number"),
      ("true", "boolean"), ("false", "boolean"), ("null", "null"), (#"{"w": 1}"#, "object"),
      ("[]", "array"), (nil, "missing"),
    ] as [(String?, String)])
  func valueType(width: String?, type: String) throws {
    let item = #"{"img": "a.png", "height": 1"# + (width.map { #", "width": "# + $0 } ?? "") + "}"
    let feed = try FeedDecoder.decode(
      Data(#"{"data": [\#(item)]}"#.utf8), allowingMissingSizes: false)
    let problem = try #require(feed.problems.first)
    #expect(problem.field == .width && problem.valueType == type)
  }
}
