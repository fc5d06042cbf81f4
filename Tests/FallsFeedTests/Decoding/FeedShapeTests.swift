import Testing

@testable import FallsFeed

@Suite struct FeedShapeTests {
  @Test(
    "A path is keys joined by dots, none of them empty",
    arguments: [
      ("data", ["data"] as [String]?), ("result.list", ["result", "list"]),
      ("a.b.c", ["a", "b", "c"]), ("", nil), ("a.", nil), ("a..b", nil), ("..a", nil),
      ("键.值", ["键", "值"]), ("images.0.url", ["images", "0", "url"]),
    ])
  func paths(text: String, path: [String]?) {
    #expect(FeedShape.path(text) == path)
    if let path { #expect(FeedShape.text(of: path) == text) }
  }

  @Test(
    "jq's spellings: a leading dot, [N] for .N, . alone for the top level",
    arguments: [
      (".results", ["results"] as [String]?), (".", []), ("a[0]", ["a", "0"]),
      ("[0]", ["0"]), (".[0].b", ["0", "b"]), ("a.[2]", ["a", "2"]),
      ("a[0][12].b", ["a", "0", "12", "b"]),
      (
        "data.preview.images[0].source.url",
        ["data", "preview", "images", "0", "source", "url"]
      ),
      ("a[]", nil), ("a[x]", nil), ("a[0", nil), ("a[0]b", nil), ("a[-1]", nil), ("a[0].", nil),
    ])
  func jqPaths(text: String, path: [String]?) {
    #expect(FeedShape.path(text) == path)
  }

  @Test(
    "A key of digits is an array index; past Int's range no array reaches it",
    arguments: [
      ("0", 0 as Int?), ("12", 12), ("007", 7), ("99999999999999999999", .max), ("", nil),
      ("1a", nil), ("-1", nil), ("١", nil),
    ])
  func arrayIndex(key: String, index: Int?) {
    #expect(FeedShape.arrayIndex(key) == index)
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
