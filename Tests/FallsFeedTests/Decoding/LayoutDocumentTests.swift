import FallsCore
import FallsFeed
import Foundation
import Testing

private func read(_ text: String) throws(LayoutDocument.Failure) -> LayoutDocument {
  try LayoutDocument.read(FeedBytes(data: Data(text.utf8)))
}

@Suite struct LayoutDocumentTests {
  private static let item = LayoutDocument.Item(
    index: 3, frame: Rect(x: 10, y: 20.5, width: 100, height: 150), column: 1, span: 2,
    isEnlarged: true)

  @Test("One document and its lines read as the same items, and only json gives the height")
  func jsonAndLines() throws {
    let object =
      #"{"kind":"item","index":3,"page":1,"column":1,"span":2,"x":10,"y":20.5,"width":100,"#
      + #""height":150,"enlarged":true,"aligned":false,"img":"a.jpg"}"#
    let document = try read(
      #"{"schema":"falls.layout/1","contentHeight":900,"items":[\#(object)]}"#)
    let lines = try read(object + "\n" + object.replacingOccurrences(of: "3", with: "4") + "\n")
    #expect(document.items == [Self.item])
    #expect(document.contentHeight == 900)
    #expect(lines.items.map(\.index) == [3, 4] && lines.items[0] == Self.item)
    #expect(lines.contentHeight == nil)
  }

  @Test("Keys written with escapes are the keys they spell, at the top level and in an item")
  func escapedKeys() throws {
    let object =
      #"{"\u0069ndex":3,"x":10,"\u0079":20.5,"width":100,"height":150,"column":1,"span":2,"#
      + #""enlarge\u0064":true}"#
    let document = try read(#"{"sch\u0065ma":"falls.layout/1","\u0069tems":[\#(object)]}"#)
    #expect(document.items == [Self.item])
    #expect(try read(object).items == [Self.item])
  }

  @Test(
    "What is not a layout says why",
    arguments: [
      (#"{"schema":"falls.layout/2","items":[]}"#, #"its schema is "falls.layout/2""#),
      (#"{"items":[]}"#, #"it has no "schema""#),
      (#"{"schema":"falls.layout/1"}"#, #"it has no "items" array"#),
      (#"{"x":1}"#, #"line 1 has no "index""#),
    ])
  func notLayouts(text: String, reason: String) {
    #expect {
      try read(text)
    } throws: { error in
      (error as? LayoutDocument.Failure)?.reason.contains(reason) == true
    }
  }
}
