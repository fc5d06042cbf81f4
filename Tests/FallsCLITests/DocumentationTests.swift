import FallsTestSupport
import Foundation
import Testing

/// The repository's root, above `Tests/Fixtures`.
private let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

/// Every file of the repository, by its path from the root (build products and git's own files
/// left out).
private let repositoryFiles: [String] = {
  var paths: [String] = []
  let prefix = root.standardizedFileURL.path + "/"
  let enumerator = FileManager.default.enumerator(
    at: root, includingPropertiesForKeys: [.isDirectoryKey])
  while let url = enumerator?.nextObject() as? URL {
    let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
    if path == ".build" || path == ".git" || path.hasPrefix("dist") {
      enumerator?.skipDescendants()
      continue
    }
    paths.append(path)
  }
  return paths
}()

@Suite struct DocumentationTests {
  /// Names the documents use for a file that is not in the repository on purpose: the pattern
  /// of a name, or a file of the toolchain's sources and the reproducer BENCHMARKS.md writes out.
  private static let notFiles: Set<String> = [
    "Sources/X/Folder/Name.swift", "Tests/XTests/Folder/NameTests.swift",
    "Formats/SomethingOutput.swift", "Formats/SomethingOutputTests.swift",
    "Sources/FoundationNetworking/URLSession/libcurl/MultiHandle.swift", "repro.swift",
  ]

  @Test(
    "Every source, script and text file README, CONTRIBUTING and BENCHMARKS name is there",
    arguments: ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md"])
  func namedFilesExist(document: String) throws {
    let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    let pattern = try Regex(#"[A-Za-z0-9_./-]+\.(swift|py|sh|c|txt)\b"#)
    var names = Set<String>()
    for match in text.matches(of: pattern) { names.insert(String(text[match.range])) }
    #expect(names.count >= 5, "the pattern found the names")
    for name in names.sorted() where !Self.notFiles.contains(name) {
      let path = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
      // A path names the file at that path, or (in CONTRIBUTING's tree) below its folder; a
      // bare name, a file of that name in any folder.
      let found = repositoryFiles.contains { $0 == path || $0.hasSuffix("/" + path) }
      #expect(found, "\(document) names \(name), which is not in the repository")
    }
  }
}

@Suite struct ReadmeExampleTests {
  @Test("README's falls probe example is what falls probe prints, in a clone")
  func probeExample() async throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let command = "falls probe Tests/Fixtures/probe-example.json"
    let start = try #require(readme.range(of: "$ \(command)\n"))
    let end = try #require(
      readme.range(of: "\n$ echo $?\n1\n", range: start.upperBound..<readme.endIndex))
    let shown = String(readme[start.upperBound..<end.lowerBound]) + "\n"
    let run = try await shell(
      "cd \(shellQuoted(root.path)) && \"$FALLS\" probe Tests/Fixtures/probe-example.json 2>&1")
    #expect(run.status == 1)
    #expect(run.text == shown)
  }
}
