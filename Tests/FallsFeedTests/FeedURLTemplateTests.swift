import FallsFeed
import Testing

@Suite struct FeedURLTemplateTests {
  @Test("{page} and {size} are filled in")
  func placeholders() throws {
    let template = try FeedURLTemplate(
      "https://example.com/list?page={page}&per={size}&again={page}")
    #expect(template.isPaginated)
    #expect(
      template.url(page: 3, size: 20).absoluteString
        == "https://example.com/list?page=3&per=20&again=3")
  }

  @Test("Without {page} every page is the same URL")
  func samePage() throws {
    let template = try FeedURLTemplate("http://127.0.0.1:8080/finderlist")
    #expect(!template.isPaginated)
    #expect(template.url(page: 1, size: 20) == template.url(page: 9, size: 20))
  }

  @Test(
    "Only http and https URLs with a host are feeds",
    arguments: [
      ("ftp://example.com/feed", FeedURLTemplate.Problem.unsupportedScheme("ftp")),
      ("file:///tmp/feed.json", .unsupportedScheme("file")),
      ("http://", .noHost),
      ("http:/feed.json", .noHost),
      ("http://exa mple.com/", .unparseable),
    ])
  func invalid(text: String, problem: FeedURLTemplate.Problem) {
    #expect(throws: problem) { try FeedURLTemplate(text) }
  }

  @Test(
    "Texts meant as URLs are told from paths",
    arguments: [
      ("https://example.com/a", true), ("HTTP://x", true), ("http:/x", true), ("ftp://x", true),
      ("feed.json", false), ("./http/feed.json", false), ("-", false), ("C:\\feed.json", false),
      ("dir/with://inside", false),
    ])
  func looksLikeURL(text: String, isURL: Bool) {
    #expect(FeedURLTemplate.looksLikeURL(text) == isURL)
  }
}
