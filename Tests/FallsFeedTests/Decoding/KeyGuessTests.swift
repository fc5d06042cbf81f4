import FallsFeed
import Foundation
import Testing

/// The guessing rule's cases, read through the decoder, each message with its exact text.
@Suite struct KeyGuessTests {
  @Test(
    "An item missing a field under its name lists its keys, and the --keys of a plain guess",
    arguments: [
      (
        #"{"id": "x", "urls": {"raw": "https://a/r", "small": "https://a/s"}, "w": 1200, "h": 800}"#,
        FeedShape.finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + #"JSON number; the item's keys are "id", "urls", "w", "h"; try "#
          + "--keys img=urls.small,width=w,height=h"
      ),
      (
        #"{"url": "https://a/1", "size": {"w": "1200", "h": "800"}}"#, .finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + #"JSON number; the item's keys are "url", "size"; try "#
          + "--keys img=url,width=size.w,height=size.h"
      ),
      (
        // Sizes in place, the image under another name: only img is guessed.
        #"{"link": "https://a/1", "width": 3, "height": 4}"#, .finderlist,
        #"item 0: "img" is missing; expected a string, the image's URL; the item's keys are "#
          + #""link", "width", "height"; try --keys img=link"#
      ),
      (
        // A field the user placed keeps its place in the guess.
        #"{"link": "https://a/1", "size": {"width": 3}, "height": 4}"#,
        FeedShape(width: ["size", "width"]),
        #"item 0: "img" is missing; expected a string, the image's URL; the item's keys are "#
          + #""link", "size", "height"; try --keys img=link,width=size.width"#
      ),
      (
        // Two URLs, neither "small": no guess.
        #"{"kind": "t3", "data": {"url": "https://a/1", "thumbnail": "https://a/t"}}"#, .finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + #"JSON number; the item's keys are "kind", "data"; say where its fields are with "#
          + "--keys img=KEY,width=KEY,height=KEY"
      ),
      (
        // Two widths: no guess.
        #"{"src": "https://a/1", "w": 1, "thumb": {"w": 2}, "h": 3}"#, .finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + #"JSON number; the item's keys are "src", "w", "thumb", "h"; say where its fields "#
          + "are with --keys img=KEY,width=KEY,height=KEY"
      ),
      (
        #"{}"#, .finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + "JSON number; the item is an empty object"
      ),
      (
        #"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}"#, .finderlist,
        #"item 0: "width" is missing; expected a positive number, as a string like "1200" or a "#
          + #"JSON number; the item's keys are "a", "b", "c", "d", "e" and 1 more; say where "#
          + "its fields are with --keys img=KEY,width=KEY,height=KEY"
      ),
    ])
  func missingHints(item: String, shape: FeedShape, message: String) throws {
    let feed = try FeedDecoder.decode(Data("[\(item)]".utf8), shape: shape)
    #expect(feed.problems.map(\.message) == [message])
  }
}
