import FallsFeed
import Foundation
import Testing

/// Where an `img` points, by the one rule: each expected target written out by hand from RFC
/// 3986 §5 and the rules of what a feed from where may reach.
@Suite struct ImageSourceTests {
  static let remote = FeedLocation.web(url("http://feeds.example/v1/list.json?page=2"))
  static let folder = FileManager.default.currentDirectoryPath

  static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/") }
  static func web(_ text: String) -> ImageSource { .web(url(text)) }

  @Test(
    "A remote feed's references are its server's, as a browser reads them",
    arguments: [
      ("a.png", web("http://feeds.example/v1/a.png")),
      ("/a.png", web("http://feeds.example/a.png")),
      ("../x", web("http://feeds.example/x")),
      ("../../../../etc/passwd", web("http://feeds.example/etc/passwd")),
      ("/etc/passwd", web("http://feeds.example/etc/passwd")),
      ("//cdn.example/i.jpg", web("http://cdn.example/i.jpg")),
      ("?w=2", web("http://feeds.example/v1/list.json?w=2")),
      ("HTTP://Cdn.Example/I.JPG", web("http://Cdn.Example/I.JPG")),
      ("https://cdn.example/a/./b/../c.png", web("https://cdn.example/a/c.png")),
      ("data:image/png;base64,AA/../BB", .data("data:image/png;base64,AA/../BB")),
      ("DATA:image/gif,x", .data("DATA:image/gif,x")),
      // An authority with no host (a fuzz finding): never an image without a host.
      ("//:/A%", .refused("it is not a valid http URL")),
    ])
  func remote(reference: String, source: ImageSource) {
    #expect(ImageSource(reference, in: Self.remote) == source)
  }

  @Test(
    "A remote feed may not name a file of this machine, unless the user trusts it",
    arguments: ["file:///etc/passwd", "FILE:///etc/hostname", "file://localhost/etc/passwd"])
  func remoteFile(reference: String) {
    guard case .refused(let why) = ImageSource(reference, in: Self.remote) else {
      Issue.record("\(reference) was not refused")
      return
    }
    #expect(why.contains("--allow-local-images"))
    let trusted = ImageSource(reference, in: Self.remote, allowingLocal: true)
    #expect(
      trusted == .file(path: reference.hasSuffix("hostname") ? "/etc/hostname" : "/etc/passwd"))
  }

  @Test(
    "Refused wherever the feed came from: a NUL, another scheme, a file of another host",
    arguments: [
      ("/x.png\u{0}.jpg", "NUL"), ("a\u{0}", "NUL"), ("ftp://h/x.png", "scheme 'ftp'"),
      ("javascript:alert(1)", "scheme 'javascript'"), ("gopher://h/", "scheme 'gopher'"),
      ("file://other.host/etc/passwd", "another host"), ("file:///a%00b", "NUL"),
      ("http:g", "not a valid http URL"), ("https:///x", "not a valid https URL"),
      ("http://:/x", "not a valid http URL"),
    ])
  func refused(reference: String, reason: String) {
    for location in [Self.remote, .file(path: "/srv/feeds/f.json"), .currentFolder] {
      guard case .refused(let why) = ImageSource(reference, in: location, allowingLocal: true)
      else {
        Issue.record("\(reference) was not refused in \(location)")
        continue
      }
      #expect(why.contains(reason), "\(why)")
    }
  }

  @Test(
    "A feed file's references are read against its folder; a path's bytes are its own",
    arguments: [
      ("a.png", "/srv/feeds/a.png"), ("img/a.png", "/srv/feeds/img/a.png"),
      ("../a.png", "/srv/a.png"), ("/etc/x.png", "/etc/x.png"),
      ("file:///etc/x.png", "/etc/x.png"), ("my photo.png", "/srv/feeds/my photo.png"),
      ("%E4%B8%AD.png", "/srv/feeds/中.png"), ("100%.png", "/srv/feeds/100%.png"),
      ("中.png", "/srv/feeds/中.png"), ("a#b.png", "/srv/feeds/a"),
    ])
  func localFile(reference: String, path: String) {
    #expect(ImageSource(reference, in: .file(path: "/srv/feeds/f.json")) == .file(path: path))
  }

  @Test("A feed file's folder may itself hold what a URI escapes; standard input's is here")
  func folders() {
    #expect(
      ImageSource("a.png", in: .file(path: "/srv/my feeds/100%/#1/f.json"))
        == .file(path: "/srv/my feeds/100%/#1/a.png"))
    #expect(ImageSource("a.png", in: .currentFolder) == .file(path: Self.folder + "/a.png"))
    #expect(
      ImageSource("a.png", in: .file(path: "feeds/f.json"))
        == .file(path: Self.folder + "/feeds/a.png"))
    #expect(ImageSource("http://h/a.png", in: .currentFolder) == Self.web("http://h/a.png"))
  }
}
