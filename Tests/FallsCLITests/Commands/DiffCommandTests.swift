import FallsCore
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// A folder of its own for a test's layouts.
private func folder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "falls-diff-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// `falls layout arguments` written to `name` in `folder`.
private func layout(_ arguments: [String], _ name: String, in folder: URL) async throws -> String {
  let result = await runCLI(["layout"] + arguments)
  #expect(result.code == .success)
  let path = folder.appendingPathComponent(name).path
  try Data(result.standardOutput.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// What `falls diff -f json` printed, decoded.
private struct DiffDocument: Decodable {
  struct Item: Decodable, Equatable {
    var index: Int
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var span: Int?
    var enlarged: Bool?
  }
  struct Change: Decodable {
    var index: Int
    var old: Item
    var new: Item
  }
  struct Heights: Decodable {
    var old: Double?
    var new: Double?
  }
  var schema: String
  var same: Bool
  var added: [Item]
  var removed: [Item]
  var changed: [Change]
  var contentHeight: Heights
}

@Suite struct DiffCommandTests {
  @Test("The same layout as json and as jsonl, in either order, is the same: status 0")
  func same() async throws {
    let here = try folder()
    let json = try await layout(["-f", "json"], "a.json", in: here)
    let jsonl = try await layout(["-f", "jsonl"], "a.jsonl", in: here)
    for (old, new) in [(json, json), (json, jsonl), (jsonl, json), (jsonl, jsonl)] {
      let result = await runCLI(["diff", old, new])
      #expect(result.code == .success && result.standardOutput == "same: 50 items\n")
    }
    // Standard input for one of them.
    let input = try String(contentsOfFile: jsonl, encoding: .utf8)
    #expect(await runCLI(["diff", "-", json], input: input).code == .success)
  }

  @Test("Moved items are changed, with old and new; the content heights are compared")
  func moved() async throws {
    let here = try folder()
    let old = try await layout(["-f", "json"], "old.json", in: here)
    let new = try await layout(["-f", "json", "--row-spacing", "12"], "new.json", in: here)
    let result = await runCLI(["diff", old, new, "-f", "json"])
    #expect(result.code == .failure)
    #expect(result.standardError.hasPrefix("falls: error: the layouts differ: "))
    let document = try JSONDecoder().decode(
      DiffDocument.self, from: Data(result.standardOutput.utf8))
    #expect(document.schema == "falls.diff/1" && !document.same)
    #expect(document.added.isEmpty && document.removed.isEmpty && !document.changed.isEmpty)
    let first = try #require(document.changed.first)
    #expect(first.old.index == first.index && first.new.index == first.index)
    #expect(first.old != first.new)
    #expect(document.contentHeight.old != document.contentHeight.new)
    #expect(document.contentHeight.old != nil)
  }

  @Test("Within the tolerance is the same; a hair past it is not")
  func tolerance() async throws {
    let here = try folder()
    let old = try await layout(["-f", "jsonl", "--insets", "10"], "old.jsonl", in: here)
    let new = try await layout(["-f", "jsonl", "--insets", "10.5,10,10,10"], "new.jsonl", in: here)
    // Every item is 0.5 lower; nothing else moves.
    #expect(await runCLI(["diff", old, new]).code == .failure)
    #expect(await runCLI(["diff", old, new, "--tolerance", "0.5"]).code == .success)
    #expect(await runCLI(["diff", old, new, "--tolerance", "0.4999"]).code == .failure)
  }

  @Test("Items only in the old are removed, only in the new added")
  func addedRemoved() async throws {
    let here = try folder()
    let all = try await layout(["-f", "jsonl"], "all.jsonl", in: here)
    let lines = try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n")
    let fewer = here.appendingPathComponent("fewer.jsonl").path
    try Data((lines.prefix(45).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: fewer))
    let removed = await runCLI(["diff", all, fewer, "-f", "json"])
    let gone = try JSONDecoder().decode(DiffDocument.self, from: Data(removed.standardOutput.utf8))
    #expect(gone.removed.map(\.index) == Array(45..<50) && gone.added.isEmpty)
    let added = await runCLI(["diff", fewer, all])
    #expect(added.code == .failure)
    #expect(added.standardOutput.hasPrefix("differ: 5 added\n"))
  }

  @Test(
    "What is not a layout is 65, naming which and why; an unreadable one 66; usage 64",
    arguments: [
      ("not json", ExitCode.dataError, "is not a falls.layout/1 document: it is not JSON"),
      (#"{"schema": "falls.probe/1", "items": []}"#, .dataError, #"its schema is "falls.probe/1""#),
      (#"{"data": [{"img": "a", "width": 1, "height": 1}]}"#, .dataError, "has no \"index\""),
      (#"{"index": 3, "x": 1}"#, .dataError, "line 1 (index 3) has no whole frame"),
      ("[1, 2]", .dataError, "it is an array, not a layout's JSON object"),
    ])
  func notALayout(text: String, code: ExitCode, reason: String) async throws {
    let here = try folder()
    let good = try await layout(["-f", "json"], "good.json", in: here)
    let bad = here.appendingPathComponent("bad.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: bad))
    let result = await runCLI(["diff", good, bad])
    #expect(result.code == code && result.standardOutput.isEmpty)
    #expect(
      result.standardError.contains("'\(bad)' \(reason)") || result.standardError.contains(reason),
      "\(result.standardError)")
  }

  @Test("Usage: two inputs, standard input once, the flags of the help")
  func usage() async {
    #expect(await runCLI(["diff", "a.json"]).code == .usage)
    #expect(await runCLI(["diff", "-", "-"]).code == .usage)
    #expect(await runCLI(["diff", "a", "b", "--columns", "3"]).code == .usage)
    #expect(await runCLI(["diff", "a", "b", "-f", "svg"]).code == .usage)
    #expect(await runCLI(["diff", "/nonexistent/a.json", "/nonexistent/b.json"]).code == .noInput)
    #expect(await runCLI(["diff", "--help"]).standardOutput == DiffCommand.help)
  }
}
