import FallsFeed
import Testing

@Suite struct FeedShapeTests {
  @Test(
    "A path is keys joined by dots, none of them empty",
    arguments: [
      ("data", ["data"] as [String]?), ("result.list", ["result", "list"]),
      ("a.b.c", ["a", "b", "c"]), ("", nil), (".a", nil), ("a.", nil), ("a..b", nil),
      ("键.值", ["键", "值"]),
    ])
  func paths(text: String, path: [String]?) {
    #expect(FeedShape.path(text) == path)
    if let path { #expect(FeedShape.text(of: path) == text) }
  }

  @Test("The finderlist's shape: data, and each field at its own name")
  func finderlist() {
    let shape = FeedShape.finderlist
    #expect(shape.items == nil)
    for field in [FeedField.img, .width, .height, .span] {
      #expect(shape.path(of: field) == [field.rawValue])
    }
    #expect(shape.path(of: .item).isEmpty)
  }
}
