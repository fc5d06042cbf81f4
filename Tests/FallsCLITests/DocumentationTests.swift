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

@Suite struct ReadmeProbeDocumentTests {
  @Test("README's falls.probe/2 document is what falls probe -f json writes for its example")
  func probeDocument() async throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let intro = try #require(readme.range(of: "`-f json` writes one document of schema"))
    let start = try #require(
      readme.range(of: "```json\n", range: intro.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
    // The items left out are shown as a line "…,".
    let shownText = readme[start.upperBound..<end.lowerBound].split(separator: "\n")
      .filter { $0.trimmingCharacters(in: .whitespaces) != "…," }.joined(separator: "\n")
    let shown = try #require(
      try JSONSerialization.jsonObject(with: Data(shownText.utf8)) as? NSDictionary)
    let run = try await shell(
      "cd \(shellQuoted(root.path)) && \"$FALLS\" probe Tests/Fixtures/probe-example.json -f json")
    #expect(run.status == 1)
    let written = try #require(
      try JSONSerialization.jsonObject(with: Data(run.text.utf8)) as? NSDictionary)
    #expect(
      Set(shown.allKeys.compactMap { $0 as? String }) == [
        "schema", "feed", "tolerance", "summary", "items",
      ])
    #expect(
      Set(written.allKeys.compactMap { $0 as? String })
        == Set(shown.allKeys.compactMap { $0 as? String }))
    for key in ["schema", "feed", "tolerance", "summary"] {
      #expect(shown[key] as? NSObject == written[key] as? NSObject, "\(key)")
    }
    // Each item shown is the item of its index, key for key and value for value.
    let shownItems = try #require(shown["items"] as? [NSDictionary])
    let writtenItems = try #require(written["items"] as? [NSDictionary])
    #expect(shownItems.count >= 2)
    for item in shownItems {
      let index = try #require(item["index"] as? Int)
      #expect(writtenItems.indices.contains(index) && item == writtenItems[index], "item \(index)")
    }
  }
}

@Suite struct ReadmeShapesTests {
  @Test("README's commands for Reddit's, Unsplash's and Pexels' shapes lay out every item")
  func apiShapes() async throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let commands = readme.split(separator: "\n").filter { line in
      line.hasPrefix("falls layout Tests/Fixtures/")
        && ["reddit", "unsplash", "pexels"].contains { line.contains($0) }
    }
    #expect(commands.count == 3)
    for command in commands {
      let run = try await shell(
        "cd \(shellQuoted(root.path)) && \"$FALLS\"" + command.dropFirst("falls".count)
          + " -f jsonl --fields index,img 2>&1")
      #expect(run.status == 0, "\(command): \(run.text)")
      let lines = run.text.split(separator: "\n")
      #expect(
        lines.count == 6 && lines.allSatisfy { $0.contains(#""img":"https://"#) }, "\(run.text)")
    }
  }
}

@Suite struct ReadmeCIStepsTests {
  /// The shell lines of the `run: |` steps of README's CI example, in order.
  private func readmeSteps() throws -> [[String]] {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "```yaml\n"))
    let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
    var steps: [[String]] = []
    for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
      if line.hasPrefix("  run: |") {
        steps.append([])
      } else if line.hasPrefix("    "), !steps.isEmpty {
        steps[steps.count - 1].append(String(line.dropFirst(4)))
      }
    }
    return steps
  }

  @Test("README's CI steps, run as written against a feed on the loopback server")
  func steps() async throws {
    let server = try await TestServer()
    let steps = try readmeSteps()
    #expect(steps.count == 2)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-ci-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("golden"), withIntermediateDirectories: true)
    // 24 items whose images are the server's own, their sizes right.
    let feed = server.url("/slow-images/24/0")
    func run(_ lines: [String]) async throws -> ShellRun {
      let script = lines.map { $0.replacingOccurrences(of: "falls ", with: "\"$FALLS\" ") }
        .joined(separator: "\n")
      return try await shell(
        "cd \(shellQuoted(folder.path)) && export FEED_URL=\(shellQuoted(feed)) && set -e && \(script)"
      )
    }
    // The golden layout, recorded as the README says.
    let record = try await run(["falls layout \"$FEED_URL\" -f jsonl > golden/layout.jsonl"])
    #expect(record.status == 0)
    let check = try await run(steps[0])
    #expect(check.status == 0, "\(check.error)")
    #expect(check.text.contains("pass images") && check.text.contains("pass items 24 >= 20"))
    let diff = try await run(steps[1])
    #expect(diff.status == 0, "\(diff.error)")
    #expect(diff.text == "same: 24 items\n")
    // A golden layout of other columns fails the step, with what moved.
    let other = try await run(["falls layout \"$FEED_URL\" -f jsonl -c 4 > golden/layout.jsonl"])
    #expect(other.status == 0)
    let moved = try await run(steps[1])
    #expect(moved.status == 1)
    #expect(moved.text.hasPrefix("differ: "))
  }
}
