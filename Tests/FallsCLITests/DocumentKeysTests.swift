import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// Every key of a JSON document, by its path (`items[].x`, `insets.top`; an array's elements are
/// `[]`), with the types seen there: `string`, `integer` (a whole number), `number`, `boolean`,
/// `null`, `object`, `array`.
private func keyTypes(of text: String) throws -> [String: Set<String>] {
  var found: [String: Set<String>] = [:]
  func walk(_ value: Any, _ path: String) {
    switch value {
    case let object as [String: Any]:
      found[path, default: []].insert("object")
      for (key, member) in object { walk(member, path.isEmpty ? key : path + "." + key) }
    case let array as [Any]:
      found[path, default: []].insert("array")
      for element in array { walk(element, path + "[]") }
    case is String:
      found[path, default: []].insert("string")
    case is NSNull:
      found[path, default: []].insert("null")
    case let number as NSNumber:
      // Foundation on Linux reads true and false as a boolean kind of NSNumber.
      if String(describing: type(of: number)).contains("Boolean") {
        found[path, default: []].insert("boolean")
      } else {
        let value = number.doubleValue
        found[path, default: []].insert(
          value.rounded() == value && abs(value) < 0x1p53 ? "integer" : "number")
      }
    default:
      found[path, default: []].insert("unknown \(type(of: value))")
    }
  }
  for line in text.split(separator: "\n") {
    walk(try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]), "")
  }
  return found
}

/// docs/output.md's table of the keys of `document`: the table whose header starts
/// `| key of \`document\``, a row a key (several keys a row, and `{a,b}` for either) with its
/// types (`number or null`).
private func readmeKeys(of document: String) throws -> [String: Set<String>] {
  let readme = try Documents.text("docs/output.md")
  let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
  let header = try #require(
    lines.firstIndex { $0.hasPrefix("| key of `\(document)`") },
    "docs/output.md's table of \(document)")
  var keys: [String: Set<String>] = [:]
  for line in lines[(header + 2)...] {
    guard line.hasPrefix("|") else { break }
    let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let types = Set(
      cells[2].replacingOccurrences(of: " or ", with: ", ").split(separator: ", ").map(String.init)
    )
    for key in cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter(
      { $0.offset % 2 == 1 })
    {
      for expanded in expand(String(key.element)) { keys[expanded, default: []].formUnion(types) }
    }
  }
  return keys
}

/// `text` with its first `{a,b}` replaced by each choice in turn, and so on.
private func expand(_ text: String) -> [String] {
  guard let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") else {
    return [text]
  }
  let choices = text[text.index(after: open)..<close].split(
    separator: ",", omittingEmptySubsequences: false)
  return choices.flatMap { choice in
    expand(String(text[..<open]) + choice + String(text[text.index(after: close)...]))
  }
}

/// Whether `seen` keeps `described`: each key seen is described, with each type seen among the
/// described ones (a whole number is a number too), an object or array seen only as the parent
/// of keys described; and each key described is seen.
private func expectMatches(
  _ seen: [String: Set<String>], _ described: [String: Set<String>], _ document: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for (path, types) in seen.sorted(by: { $0.key < $1.key }) where !path.isEmpty {
    guard let allowed = described[path] else {
      let isParent = described.keys.contains {
        $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[]")
      }
      #expect(
        isParent && types.isSubset(of: ["object", "array"]),
        "\(document): \(path) (\(types.sorted())) is not in docs/output.md's table",
        sourceLocation: sourceLocation)
      continue
    }
    for type in types where !allowed.contains(type) {
      let isWholeNumber = type == "integer" && allowed.contains("number")
      let isParent =
        (type == "object" || type == "array")
        && described.keys.contains { $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[]") }
      #expect(
        isWholeNumber || isParent,
        "\(document): \(path) is \(type), docs/output.md says \(allowed.sorted())",
        sourceLocation: sourceLocation)
    }
  }
  for path in described.keys.sorted() where seen[path] == nil {
    Issue.record(
      "\(document): docs/output.md's \(path) is in no document written",
      sourceLocation: sourceLocation)
  }
}

/// The keys of every document written by `runs`, each run's standard output one document or
/// one a line.
private func keyTypes(ofRuns runs: [[String]]) async throws -> [String: Set<String>] {
  var all: [String: Set<String>] = [:]
  for arguments in runs {
    let result = await runCLI(arguments)
    #expect(!result.standardOutput.isEmpty, "\(arguments): \(result.standardError)")
    all.merge(try keyTypes(of: result.standardOutput)) { $0.union($1) }
  }
  return all
}

@Suite(.tags(.process)) struct DocumentKeysTests {
  /// Layouts that between them write every key: skipped items, a ring style, the horizontal
  /// axis, headers and footers, an alignment that a distortion bounds.
  private static let layouts = [
    [Fixtures.path("invalid-items.json"), "--skip-invalid"],
    [Fixtures.path("mj-shop-1.json"), "--align", "planned"],
    [Fixtures.path("mj-shop-1.json"), "--style", "circle"],
    [Fixtures.path("mj-shop-1.json"), "--axis", "horizontal", "--height", "500"],
    [Fixtures.path("mj-shop-1.json"), "--header-height", "44", "--footer-height", "30"],
  ]

  /// A URL feed whose page 3 of 4 fails, with --keep-partial.
  private static func partial(_ server: TestServer) -> [String] {
    [
      server.url("/failing/3/{page}?size={size}"), "--pages", "4", "--retries", "0",
      "--keep-partial",
    ]
  }

  @Test("falls layout -f json: every key as docs/output.md's table gives it")
  func layoutJSON() async throws {
    let server = try await TestServer()
    let seen = try await keyTypes(
      ofRuns: (Self.layouts + [Self.partial(server)]).map { ["layout", "-f", "json"] + $0 })
    expectMatches(seen, try readmeKeys(of: LayoutReport.schema), LayoutReport.schema)
    #expect(seen["schema"] == ["string"] && seen["items[].index"] == ["integer"])
  }

  @Test("falls layout -f jsonl: every key of every line as docs/output.md's table gives it")
  func layoutJSONLines() async throws {
    let server = try await TestServer()
    let seen = try await keyTypes(
      ofRuns: (Self.layouts + [Self.partial(server)]).map { ["layout", "-f", "jsonl"] + $0 })
    expectMatches(seen, try readmeKeys(of: "falls layout -f jsonl"), "jsonl")
    #expect(seen["kind"] == ["string"] && seen["index"] == ["integer"])
  }

  @Test("falls layout --quality -f json: every key as docs/output.md's table gives it")
  func quality() async throws {
    let seen = try await keyTypes(ofRuns: [["layout", "--quality", "-f", "json"]])
    expectMatches(seen, try readmeKeys(of: "falls layout --quality -f json"), "--quality")
    #expect(seen.count == LayoutQuality.names.count + 1)
  }

  @Test("falls diff -f json: every key as docs/output.md's table gives it")
  func diff() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "falls-keys-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Old: items 0 to 4 of 3 columns; new: items 1 to 5 of 2, so that each kind of difference
    // is there.
    let old = folder.appendingPathComponent("old.json").path
    let new = folder.appendingPathComponent("new.jsonl").path
    #expect(await runCLI(["layout", "--synthetic", "5", "-f", "json", "-o", old]).code == .success)
    let lines = await runCLI(["layout", "--synthetic", "6", "-c", "2", "-f", "jsonl"])
    try Data(lines.standardOutput.split(separator: "\n").dropFirst().joined(separator: "\n").utf8)
      .write(to: URL(fileURLWithPath: new))
    let seen = try await keyTypes(ofRuns: [
      ["diff", old, new, "-f", "json"], ["diff", old, old, "-f", "json", "--tolerance", "0.5"],
    ])
    expectMatches(seen, try readmeKeys(of: DiffReport.schema), DiffReport.schema)
    // The jsonl layout gives no content height; the json one does.
    #expect(seen["contentHeight.new"]?.contains("null") == true)
    #expect(seen["contentHeight.old"]?.isDisjoint(with: ["null", "string"]) == true)
  }

  @Test(
    "falls check -f json: every key of every kind of problem as docs/output.md's table gives it")
  func check() throws {
    let image = FeedItem(index: 2, img: "http://a.test/2.png", width: 100, height: 150)
    let mismatch = ProbedItem(
      image,
      probe: ImageProbe(.header(ImageHeader(format: .png, width: 100, height: 100)), bytesRead: 33),
      tolerance: 0.01)
    let unreachable = ProbedItem(
      image, probe: ImageProbe(.unreachable("HTTP 404 Not Found"), bytesRead: 0), tolerance: 0.01)
    let skipped = FeedItemProblem(
      index: 4, field: .img, value: "\"http://a.test/4.png\"",
      reason: .imageUnreachable("HTTP 404 Not Found"))
    let invalid = FeedItemProblem(index: 5, field: .width, value: nil, reason: .missing)
    let limit = CheckReport.Check(
      name: "maxDistortion", value: 0.25,
      limit: CheckLimit(figure: .maxDistortion, comparison: .atMost, value: 0.2))
    let report = CheckReport(
      checks: [CheckReport.Check(name: "noOverlap", value: 1, limit: nil), limit],
      problems: [
        .rule(.noOverlap, indices: [3, 7]), .image(mismatch), .image(unreachable),
        .skipped(skipped), .skipped(invalid),
      ], skipped: [skipped, invalid],
      failedPage: LayoutReport.FailedPage(page: 3, pages: 4, error: "GET …: HTTP 500"))
    let sink = BufferSink()
    try report.write(.json, to: sink)
    let seen = try keyTypes(of: sink.text)
    expectMatches(seen, try readmeKeys(of: CheckReport.schema), CheckReport.schema)
    #expect(seen["checks[].limit.value"] == ["integer", "number"])
    #expect(seen["problems[].kind"] == ["string"] && seen["problems[].indices[]"] == ["integer"])
  }
}
