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
    "The scheme and the host are in lower case; the user, the password, the path are not",
    arguments: [
      ("HTTP://Example.COM/A?B=C", "http://example.com/A?B=C"),
      ("Https://User:PaSS@Host.Example:8080/P", "https://User:PaSS@host.example:8080/P"),
      ("http://127.0.0.1:80/{page}", "http://127.0.0.1:80/{page}"),
      ("hTtP://X#Frag", "http://x#Frag"),
    ])
  func lowerCase(text: String, expected: String) throws {
    #expect(try FeedURLTemplate(text).text == expected)
  }

  @Test(
    "A placeholder other than {page} and {size} is refused, by its name",
    arguments: [
      ("http://h/{pg}", "pg"), ("http://h/?p={page}&s={Size}", "Size"),
      ("http://h/{page}/{offset}", "offset"),
    ])
  func unknownPlaceholder(text: String, name: String) {
    #expect(throws: FeedURLTemplate.Problem.unknownPlaceholder(name)) {
      try FeedURLTemplate(text)
    }
  }

  @Test(
    "A path that starts like a host is taken for a URL without its scheme",
    arguments: [
      ("127.0.0.1:8080/x.json", "http://127.0.0.1:8080/x.json"),
      ("www.example.com/feed.json", "http://www.example.com/feed.json"),
      ("localhost:8080/feed", "http://localhost:8080/feed"),
      ("feed.json", nil), ("./feed.json", nil), ("../x/feed.json", nil), ("/tmp/x.json", nil),
      ("dir/feed.json", nil), ("host:abc/x", nil),
    ])
  func meantURL(path: String, url: String?) {
    #expect(FeedURLTemplate.url(meantBy: path) == url)
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
