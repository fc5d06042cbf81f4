import FallsFeed
import FallsFixtures
import Foundation
import Testing

@Suite struct EmbeddedFeedTests {
  @Test("The embedded feed is the seed demo's feed from the fixtures, unchanged")
  func matchesFixture() throws {
    let embedded = try FeedDecoder.decode(Data(EmbeddedFeed.json.utf8))
    let fixture = try Fixtures.feed("jkr-gz-1plist-urldims.json")
    #expect(embedded == fixture)
    #expect(embedded.items.count == 50)
    #expect(EmbeddedFeed.itemCount == embedded.items.count)
    #expect(embedded.problems.isEmpty)
  }
}
