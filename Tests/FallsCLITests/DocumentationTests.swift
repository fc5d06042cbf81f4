import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

/// The repository's root, above `Tests/Fixtures`.
private let root = Documents.root

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
    "Sources/X/Folder/Name.swift", "Tests/XTests/Folder/NameTests.swift", "Name+Part.swift",
    "Formats/SomethingOutput.swift", "Formats/SomethingOutputTests.swift",
    "Sources/FoundationNetworking/URLSession/libcurl/MultiHandle.swift", "repro.swift",
  ]

  @Test(
    "Every source, script and text file a document names is there", arguments: Documents.all)
  func namedFilesExist(document: String) throws {
    let text = try Documents.text(document)
    let pattern = try Regex(#"[A-Za-z0-9_./+-]+\.(swift|py|sh|c|txt)\b"#)
    var names = Set<String>()
    for match in text.matches(of: pattern) { names.insert(String(text[match.range])) }
    if document == "CONTRIBUTING.md" {
      #expect(names.count >= 5, "the pattern found the names")
    }
    for name in names.sorted() where !Self.notFiles.contains(name) {
      let path = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
      // A path names the file at that path, or (in CONTRIBUTING's tree) below its folder; a
      // bare name, a file of that name in any folder.
      let found = repositoryFiles.contains { $0 == path || $0.hasSuffix("/" + path) }
      #expect(found, "\(document) names \(name), which is not in the repository")
    }
  }
}

@Suite struct SourceFileTests {
  /// The files CONTRIBUTING.md lets be longer: a grammar, an algorithm and a table, each one
  /// thing that reads best whole.
  static let longFiles: Set<String> = [
    "Sources/FallsFeed/Decoding/JSONScanner.swift", "Sources/FallsCLI/Output/ShortestDecimal.swift",
    "Sources/FallsCLI/Flags/LayoutFlags.swift",
  ]

  @Test("No source file is over 400 lines but the three CONTRIBUTING.md names")
  func fileLengths() throws {
    let sources = repositoryFiles.filter { $0.hasPrefix("Sources/") && $0.hasSuffix(".swift") }
    #expect(sources.count > 100, "the sources were found")
    for path in sources where !Self.longFiles.contains(path) {
      let text = try String(contentsOf: root.appending(path: path), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      #expect(lines <= 400, "\(path) has \(lines) lines")
    }
    for path in Self.longFiles { #expect(sources.contains(path), "\(path) is there") }
  }
}

@Suite(.tags(.process)) struct ReadmeExampleTests {
  @Test("docs/images.md's falls probe example is what falls probe prints, in a clone")
  func probeExample() async throws {
    let readme = try Documents.text("docs/images.md")
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

@Suite(.tags(.process)) struct ReadmeProbeDocumentTests {
  @Test("docs/images.md's falls.probe/2 document is what falls probe -f json writes")
  func probeDocument() async throws {
    let readme = try Documents.text("docs/images.md")
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

@Suite(.tags(.process)) struct ReadmeShapesTests {
  @Test("docs/feeds.md's commands for Reddit's, Unsplash's and Pexels' shapes lay out every item")
  func apiShapes() async throws {
    let readme = try Documents.text("docs/feeds.md")
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

@Suite(.tags(.process)) struct ReadmeCIStepsTests {
  /// The shell lines of the `run: |` steps of docs/ci.md's CI example, in order.
  private func readmeSteps() throws -> [[String]] {
    let readme = try Documents.text("docs/ci.md")
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

  @Test("docs/ci.md's CI steps, run as written against a feed on the loopback server")
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
    // The golden layout, recorded as docs/ci.md says.
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

/// A command a document shows in a ```` ```sh ```` block: a line that runs falls (it starts with
/// `falls`, or pipes into it), and the status its comment gives (`# exits 1`), else 0.
struct DocumentedCommand: CustomTestStringConvertible, Sendable {
  var document: String
  var line: Int
  var command: String
  var status: Int32

  var testDescription: String { "\(document):\(line): \(command)" }

  /// The commands of a document's `sh` blocks, in order (a line ending in `\` goes on).
  static func all(in document: String) throws -> [DocumentedCommand] {
    var commands: [DocumentedCommand] = []
    var inShell = false
    var pending: (line: Int, text: String)?
    for (number, raw) in try Documents.text(document).split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      let line = String(raw)
      if line.hasPrefix("```") {
        inShell = line == "```sh"
        continue
      }
      guard inShell else { continue }
      let text = (pending?.text ?? "") + line
      if text.hasSuffix("\\") {
        pending = (pending?.line ?? number + 1, String(text.dropLast()))
        continue
      }
      let start = pending?.line ?? number + 1
      pending = nil
      // A comment begins at a `#` after two blanks; it may say the status.
      let comment = text.range(of: "  #")
      let command = String(text[..<(comment?.lowerBound ?? text.endIndex)])
        .trimmingCharacters(in: .whitespaces)
      guard command.hasPrefix("falls ") || command.contains("| falls ") else { continue }
      var status: Int32 = 0
      if let comment, let said = text[comment.upperBound...].firstMatch(of: /exits (\d+)/) {
        status = Int32(said.output.1) ?? 0
      }
      commands.append(
        DocumentedCommand(document: document, line: start, command: command, status: status))
    }
    return commands
  }
}

@Suite(.tags(.process)) struct DocumentedCommandsTests {
  /// What the documents' examples read besides the fixtures: a feed file of their own name.
  private static let files = ["feed.json": "mj-shop-1.json"]

  @Test("README and docs/ show falls commands, the tour among them")
  func found() throws {
    let commands = try Documents.all.flatMap(DocumentedCommand.all(in:))
    #expect(commands.filter { $0.document == "README.md" }.count >= 8)
    #expect(Set(commands.map(\.document)).isSuperset(of: ["README.md", "docs/cli.md"]))
    #expect(commands.contains { $0.status == 1 })
  }

  @Test(
    "Every falls command of README and docs/ exits as its document says, run in order in a clone",
    arguments: Documents.all.filter { $0 == "README.md" || $0.hasPrefix("docs/") })
  func exitAsDocumented(document: String) async throws {
    let commands = try DocumentedCommand.all(in: document)
    guard !commands.isEmpty else { return }
    let server = try await TestServer()
    defer { server.stop() }
    // A folder of its own, with the repository's Tests (the fixtures) and the feed files.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-docs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("Tests"),
      withDestinationURL: Documents.root.appendingPathComponent("Tests"))
    for (name, fixture) in Self.files {
      try Fixtures.data(fixture).write(to: folder.appendingPathComponent(name))
    }
    let tools = try await shell("command -v jq; command -v curl").text
    for documented in commands {
      let command = documented.command
      // The viewer needs a terminal: its tests run it under tmux (ViewCommandTests).
      if command.hasPrefix("falls view") { continue }
      if command.contains("jq "), !tools.contains("/jq") { continue }
      if command.contains("curl "), !tools.contains("/curl") { continue }
      // A line that hands falls's output to the user's shell (`| source`) runs falls's part.
      let script = command.replacingOccurrences(of: " | source", with: "").replacingOccurrences(
        of: "https://example.com", with: server.url("")
      )
      .replacing(#/(^|\| )falls /#) { "\($0.output.1)\"$FALLS\" " }
      let run = try await shell(
        "cd \(shellQuoted(folder.path)) && bash -o pipefail -c \(shellQuoted(script))")
      #expect(
        run.status == documented.status,
        "\(documented.testDescription): status \(run.status): \(run.error)")
      if documented.status == 0 {
        #expect(!run.error.contains("error:"), "\(documented.testDescription): \(run.error)")
      }
    }
  }
}
