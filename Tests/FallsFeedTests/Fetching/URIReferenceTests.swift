import FallsFeed
import Testing

/// RFC 3986 §5.4's examples, each written out by hand from the RFC's text: the base
/// `http://a/b/c/d;p?q` and the target of each reference.
@Suite struct URIReferenceTests {
  static let base = URIReference("http://a/b/c/d;p?q")

  @Test(
    "RFC 3986 §5.4.1, the normal examples",
    arguments: [
      ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"),
      ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"), ("//g", "http://g"),
      ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
      ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
      ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
      ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
      ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
      ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
    ])
  func normal(reference: String, target: String) {
    #expect(URIReference(reference).resolved(against: Self.base).text == target)
  }

  @Test(
    "RFC 3986 §5.4.2, the abnormal examples (strict: a scheme is never relative)",
    arguments: [
      ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
      ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
      ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
      ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
      ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
      ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
      ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
      ("http:g", "http:g"),
    ])
  func abnormal(reference: String, target: String) {
    #expect(URIReference(reference).resolved(against: Self.base).text == target)
  }

  @Test(
    "The parts, by Appendix B; a scheme only where the grammar allows one",
    arguments: [
      ("HTTP://Example.COM/a?b#c", "http", "Example.COM", "/a", "b", "c"),
      ("file:///etc/passwd", "file", "", "/etc/passwd", nil, nil),
      ("/etc/passwd", nil, nil, "/etc/passwd", nil, nil),
      ("1:2", nil, nil, "1:2", nil, nil), ("a/b:c", nil, nil, "a/b:c", nil, nil),
      ("data:image/png;base64,AAAA", "data", nil, "image/png;base64,AAAA", nil, nil),
      ("", nil, nil, "", nil, nil),
    ] as [(String, String?, String?, String, String?, String?)])
  func parts(
    text: String, scheme: String?, authority: String?, path: String, query: String?,
    fragment: String?
  ) {
    let reference = URIReference(text)
    #expect(reference.scheme == scheme)
    #expect(reference.authority == authority)
    #expect(reference.path == path)
    #expect(reference.query == query)
    #expect(reference.fragment == fragment)
  }

  @Test("Written out again, a reference with a scheme reads as it was written, the scheme lowered")
  func roundTrip() {
    for text in ["http://a/b?c#d", "file:///x", "g:h", "mailto:x@y", "http://a"] {
      #expect(URIReference(text).text == text)
    }
    #expect(URIReference("HtTpS://h/p").text == "https://h/p")
  }

  @Test("A path of many dot segments costs time linear in its length")
  func longPath() {
    let path = "/" + String(repeating: "a/../", count: 200_000) + "g"
    #expect(URIReference(path).resolved(against: Self.base).text == "http://a/g")
  }
}
