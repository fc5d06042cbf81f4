import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

#if canImport(Glibc)
  import Glibc
#endif

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

@Suite(.tags(.process)) struct DiffCommandTests {
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
    // A difference is what diff finds, not an error: status 1, standard error quiet.
    #expect(result.code == .failure)
    #expect(result.standardError.isEmpty)
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

  @Test("A difference is no error: the summary on standard output, alone with -o FILE")
  func differenceIsNoError() async throws {
    let here = try folder()
    let old = try await layout(["-f", "jsonl"], "old.jsonl", in: here)
    let new = try await layout(["-f", "jsonl", "-c", "4"], "new.jsonl", in: here)
    let table = await runCLI(["diff", old, new])
    #expect(table.code == .failure && table.standardError.isEmpty)
    let summary = try #require(table.standardOutput.split(separator: "\n").first)
    #expect(summary.hasPrefix("differ: "))
    let report = here.appendingPathComponent("report.txt").path
    let toFile = await runCLI(["diff", old, new, "-o", report])
    #expect(toFile.code == .failure && toFile.standardError.isEmpty)
    #expect(toFile.standardOutput == summary + "\n")
    #expect(try String(contentsOfFile: report, encoding: .utf8) == table.standardOutput)
    // The same layouts: status 0, and nothing but the file.
    let same = await runCLI(["diff", old, old, "-o", report])
    #expect(same.code == .success && same.standardOutput.isEmpty && same.standardError.isEmpty)
  }

  @Test("-o FILE names the format by its extension; -f wins; a format diff does not write is 64")
  func outputExtension() async throws {
    let here = try folder()
    let old = try await layout(["-f", "jsonl"], "old.jsonl", in: here)
    let new = try await layout(["-f", "jsonl", "-c", "4"], "new.jsonl", in: here)
    let json = here.appendingPathComponent("d.JSON").path
    #expect(await runCLI(["diff", old, new, "-o", json]).code == .failure)
    let document = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    #expect((document as? [String: Any])?["schema"] as? String == "falls.diff/1")
    let table = here.appendingPathComponent("d.json").path
    #expect(await runCLI(["diff", old, new, "-f", "table", "-o", table]).code == .failure)
    #expect(try String(contentsOfFile: table, encoding: .utf8).hasPrefix("differ: "))
    for name in ["d.jsonl", "d.svg", "d.html"] {
      let path = here.appendingPathComponent(name).path
      let refused = await runCLI(["diff", old, new, "-o", path])
      #expect(refused.code == .usage && refused.standardOutput.isEmpty)
      #expect(
        refused.standardError.hasPrefix("falls: error: -o '\(path)': falls diff does not write "),
        "\(refused.standardError)")
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  @Test("A jsonl layout of --skip-invalid reads: its skipped lines are left out")
  func skippedLines() async throws {
    let here = try folder()
    let feed = Fixtures.path("invalid-items.json")
    let jsonl = try await layout([feed, "--skip-invalid", "-f", "jsonl"], "a.jsonl", in: here)
    let json = try await layout([feed, "--skip-invalid", "-f", "json"], "a.json", in: here)
    #expect(try String(contentsOfFile: jsonl, encoding: .utf8).hasPrefix(#"{"kind":"skipped""#))
    let result = await runCLI(["diff", jsonl, json])
    #expect(result.code == .success, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("same: "))
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
    "What is not a layout is 65, naming which and why",
    arguments: [
      ("not json", ExitCode.dataError, "is not a falls.layout/1 document: it is not JSON"),
      (#"{"schema": "falls.probe/1", "items": []}"#, .dataError, #"its schema is "falls.probe/1""#),
      (
        #"{"data": [{"img": "a", "width": 1, "height": 1}]}"#, .dataError,
        #"line 1: "index" is missing"#
      ),
      (#"{"index": 3, "x": 1}"#, .dataError, #"line 1: "y" is missing; expected a finite number"#),
      (
        "[1, 2]", .dataError,
        "it is an array, not a layout's JSON object (a document with \"items\", or lines of items)"
      ),
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

  @Test(
    "Usage: two inputs, standard input once, the flags of the help; each refusal says why",
    arguments: [
      (["a.json"], "give two layouts, OLD and NEW; 1 is given"),
      (["-", "-"], "standard input (-) can be only one of the two layouts"),
      (
        ["a", "b", "--columns", "3"],
        "--columns is an option of 'falls layout', 'falls view' and 'falls check', not of "
          + "'falls diff'"
      ),
      (
        ["a", "b", "--tolerence", "3"], "unknown option '--tolerence'; did you mean '--tolerance'?"
      ),
      (["a", "b", "--colums", "3"], "unknown option '--colums'"),
      (
        ["a", "b", "-f", "svg"], "--format svg is for falls layout; falls diff writes table or json"
      ),
      (
        ["--tolerance", "x", "a", "b"],
        "invalid value 'x' for '--tolerance'; expected a decimal number (e.g. --tolerance 0.5)"
      ),
      (
        ["a", "b", "--tolerance", "-1"],
        "invalid value '-1' for '--tolerance'; expected a number from 0 to 1000000000"
      ),
    ] as [([String], String)])
  func usage(arguments: [String], message: String) async {
    let result = await runCLI(["diff"] + arguments)
    #expect(result.code == .usage && result.standardOutput.isEmpty)
    // Each points to diff's own help.
    let expected: String = "falls: error: " + message + "\nSee 'falls diff --help' for usage.\n"
    #expect(result.standardError == expected, "\(result.standardError)")
  }

  @Test("Layouts that differ, the report to a file and standard output closed: 1, not 74")
  func differWithClosedOutput() async throws {
    let here = try folder()
    let old = try await layout(["-f", "json"], "old.json", in: here)
    let new = try await layout(["-f", "json", "-c", "2"], "new.json", in: here)
    let report = here.appendingPathComponent("report.txt").path
    let result = await runCLI(["diff", old, new, "-o", report]) {
      $0.standardOutputIsClosed = true
      $0.standardOutput = ClosedSink()
    }
    #expect(result.code == .failure && result.standardError.isEmpty, "\(result)")
    #expect(try String(contentsOfFile: report, encoding: .utf8).hasPrefix("differ: "))
  }

  @Test("An input that cannot be read is 66; --help prints diff's own help")
  func unreadableAndHelp() async {
    let missing = await runCLI(["diff", "/nonexistent/a.json", "/nonexistent/b.json"])
    #expect(missing.code == .noInput && missing.standardError.contains("/nonexistent/a.json"))
    let help = await runCLI(["diff", "--help"])
    #expect(help.code == .success && help.standardOutput.hasPrefix("OVERVIEW: "))
    // Its usage line and each of its flags, as typed here.
    #expect(help.standardOutput.contains("USAGE: falls diff OLD NEW"))
    for flag in ["--tolerance PT", "--max-bytes N", "-f, --format table|json", "-o, --output FILE"]
    {
      #expect(help.standardOutput.contains(flag), "\(flag)")
    }
  }

  /// Two items as `falls layout -f jsonl` writes them, the second's `key` given `value`.
  private static func lines(_ key: String = "column", _ value: String = "1") -> String {
    let second =
      #"{"kind":"item","index":1,"column":1,"span":1,"x":120,"y":10,"width":100,"#
      + #""height":150,"enlarged":false}"#
    return #"{"kind":"item","index":0,"column":0,"span":1,"x":10,"y":10,"width":100,"#
      + #""height":150,"enlarged":false}"# + "\n"
      + second.replacingOccurrences(of: "\"\(key)\":", with: "\"\(key)\":\(value),\"was\":")
      + "\n"
  }

  @Test(
    "A number falls would not write is 65, naming the input, the line, the key and the value",
    arguments: [
      ("column", "1e300", "a whole number from 0 to 9999"),
      ("column", "1e400", "a whole number from 0 to 9999"),
      ("column", "-1e19", "a whole number from 0 to 9999"),
      ("column", "0.9", "a whole number from 0 to 9999"),
      ("span", "1e20", "a whole number from 1 to 10000"),
      ("x", "1e400", "a finite number"),
      ("height", "-1", "a finite number of at least 0"),
    ])
  func outOfRange(key: String, value: String, expected: String) async throws {
    let here = try folder()
    let base = here.appendingPathComponent("base.jsonl").path
    let bad = here.appendingPathComponent("c.jsonl").path
    try Data(Self.lines().utf8).write(to: URL(fileURLWithPath: base))
    try Data(Self.lines(key, value).utf8).write(to: URL(fileURLWithPath: bad))
    #expect(await runCLI(["diff", base, base]).code == .success)
    for pair in [[base, bad], [bad, base]] {
      for format in ["table", "json"] {
        let result = await runCLI(["diff"] + pair + ["-f", format])
        #expect(result.code == .dataError && result.standardOutput.isEmpty)
        #expect(
          result.standardError
            == "falls: error: '\(bad)' is not a falls.layout/1 document: line 2: \"\(key)\" is "
            + "\(value); expected \(expected)\n")
      }
    }
  }

  @Test("A new layout whose content height is not a number is 65, not the same")
  func contentHeight() async throws {
    let here = try folder()
    let old = try await layout(["-f", "json"], "old.json", in: here)
    let text = try String(contentsOfFile: old, encoding: .utf8)
    let height = try #require(text.firstRange(of: /"contentHeight":[0-9.]+/))
    for value in [#""abc""#, "null", "1e400"] {
      let new = here.appendingPathComponent("new.json").path
      try Data(text.replacingCharacters(in: height, with: "\"contentHeight\":\(value)").utf8)
        .write(to: URL(fileURLWithPath: new))
      let result = await runCLI(["diff", old, new])
      #expect(result.code == .dataError)
      #expect(
        result.standardError.contains(
          "'\(new)' is not a falls.layout/1 document: \"contentHeight\" is \(value); expected a "
            + "finite number"), "\(result.standardError)")
    }
  }

  @Test("items given twice: the last counts, so an empty second one removes every item")
  func itemsTwice() async throws {
    let here = try folder()
    let old = try await layout(["-f", "json"], "old.json", in: here)
    let text = try String(contentsOfFile: old, encoding: .utf8)
    let new = here.appendingPathComponent("new.json").path
    try Data((text.dropLast(2) + #","items":[]}"# + "\n").utf8).write(to: URL(fileURLWithPath: new))
    let result = await runCLI(["diff", old, new])
    #expect(result.code == .failure)
    #expect(result.standardOutput.hasPrefix("differ: 50 removed\n"))
    // An empty one first, the layout's own last: the same.
    let first = here.appendingPathComponent("first.json").path
    try Data((#"{"items":[],"# + text.dropFirst()).utf8).write(to: URL(fileURLWithPath: first))
    #expect(await runCLI(["diff", old, first]).standardOutput == "same: 50 items\n")
  }

  @Test("Every layout falls writes reads back, and is the same as itself, in json and jsonl")
  func everyStyle() async throws {
    let here = try folder()
    var runs = LayoutStyle.allCases.map { ["--style", $0.rawValue] }
    runs += [["--header-height", "30", "--footer-height", "20"], ["--axis", "horizontal"]]
    runs += [["--fields", "index,x,y,width,height"], ["--synthetic", "2000", "-c", "7"]]
    // No items: jsonl is empty (found by the document fuzz target).
    runs += [["--synthetic", "0"]]
    for arguments in runs {
      let json = try await layout(arguments + ["-f", "json"], "a.json", in: here)
      let jsonl = try await layout(arguments + ["-f", "jsonl"], "a.jsonl", in: here)
      let result = await runCLI(["diff", json, jsonl])
      #expect(result.code == .success, "\(arguments): \(result.standardError)")
      #expect(result.standardOutput.hasPrefix("same: "), "\(arguments)")
    }
  }

  @Test("Items in any order are matched by index; an index given twice is 65")
  func order() async throws {
    let here = try folder()
    let json = try await layout(["-f", "json"], "a.json", in: here)
    let jsonl = try await layout(["-f", "jsonl"], "a.jsonl", in: here)
    let lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
    let reversed = here.appendingPathComponent("reversed.jsonl").path
    try Data(lines.reversed().joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: reversed))
    #expect(await runCLI(["diff", json, reversed]).standardOutput == "same: 50 items\n")
    let twice = here.appendingPathComponent("twice.jsonl").path
    try Data((lines + [lines[7]]).joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: twice))
    let result = await runCLI(["diff", json, twice])
    #expect(result.code == .dataError)
    #expect(
      result.standardError.contains(
        "'\(twice)' is not a falls.layout/1 document: two items have the index 7"))
  }

  @Test(
    "--max-bytes holds standard input and, given, a regular file; its value is layout's",
    arguments: ["--max-bytes", "--max-bytes="])
  func maxBytes(spelling: String) async throws {
    func flag(_ value: String) -> [String] {
      spelling.hasSuffix("=") ? [spelling + value] : [spelling, value]
    }
    let here = try folder()
    let jsonl = try await layout(["-f", "jsonl"], "a.jsonl", in: here)
    let text = try String(contentsOfFile: jsonl, encoding: .utf8)
    // Standard input that is not a file: at most the limit.
    let piped = await runCLI(["diff", "-", jsonl] + flag("1000"), input: text)
    #expect(piped.code == .noInput && piped.standardOutput.isEmpty)
    #expect(
      piped.standardError
        == "falls: error: standard input holds more than --max-bytes 1000 bytes; give a larger "
        + "--max-bytes to read it\n")
    #expect(
      await runCLI(["diff", "-", jsonl] + flag("\(text.utf8.count)"), input: text).code == .success)
    // A regular file: read whatever its size, unless --max-bytes is given.
    let file = await runCLI(["diff", jsonl, jsonl] + flag("1000"))
    #expect(file.code == .noInput)
    #expect(
      file.standardError.contains(
        "the layout '\(jsonl)' is more than --max-bytes 1000 bytes; give a larger --max-bytes"))
    // The values layout's --max-bytes takes, and its words; the help pointed to is diff's.
    for value in ["0", "x", "1099511627777", "-5"] {
      let result = await runCLI(["diff", jsonl, jsonl] + flag(value))
      #expect(result.code == .usage)
      #expect(
        result.standardError
          == "falls: error: invalid value '\(value)' for '--max-bytes'; expected a whole number "
          + "from 1 to 1099511627776 (e.g. --max-bytes 1048576)\nSee 'falls diff --help' for "
          + "usage.\n")
    }
  }

  @Test("A flag of other commands names them; a bad value points to diff's help")
  func usageWords() async {
    let unknown = await runCLI(["diff", "a", "b", "--columns", "3"])
    #expect(
      unknown.standardError.hasPrefix(
        "falls: error: --columns is an option of 'falls layout', 'falls view' and 'falls check', "
          + "not of 'falls diff'\n"))
    let tolerance = await runCLI(["diff", "a", "b", "--tolerance", "x"])
    #expect(tolerance.code == .usage)
    #expect(tolerance.standardError.hasSuffix("See 'falls diff --help' for usage.\n"))
  }

  @Test("/dev/zero, an endless pipe and an endless FIFO stop at --max-bytes with 66")
  func endlessInputs() async throws {
    let here = try folder()
    let jsonl = try await layout(["-f", "jsonl"], "a.jsonl", in: here)
    let fifo = here.appendingPathComponent("fifo").path
    let limit = "standard input holds more than --max-bytes 67108864 bytes"
    for (command, message) in [
      (
        "\"$FALLS\" diff /dev/zero \(shellQuoted(jsonl))",
        "the layout '/dev/zero' is more than --max-bytes 67108864 bytes"
      ),
      ("yes | \"$FALLS\" diff - \(shellQuoted(jsonl))", limit),
      ("\"$FALLS\" diff \(shellQuoted(jsonl)) - < /dev/zero", limit),
      (
        "mkfifo \(shellQuoted(fifo)) && { yes > \(shellQuoted(fifo)) & } && "
          + "\"$FALLS\" diff \(shellQuoted(fifo)) \(shellQuoted(jsonl)) --max-bytes 1000000",
        "the layout '\(fifo)' is more than --max-bytes 1000000 bytes"
      ),
    ] {
      let run = try await shell(command, timeout: 60)
      #expect(run.status == 66, "\(command): \(run.error)")
      #expect(run.error.contains(message), "\(run.error)")
      #expect(run.output.isEmpty)
    }
  }

  @Test("A FIFO that no writer opens ends at falls layout's default --timeout, 15 s, with 66")
  func writerlessFIFO() async throws {
    let here = try folder()
    let jsonl = try await layout(["-f", "jsonl"], "a.jsonl", in: here)
    let fifo = here.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let start = Date()
    let run = try await shell(
      "\"$FALLS\" diff \(shellQuoted(fifo)) \(shellQuoted(jsonl))", timeout: 60)
    #expect(run.status == 66, "\(run.error)")
    #expect(run.error.contains("no writer opened the FIFO within 15 s"), "\(run.error)")
    #expect(Date().timeIntervalSince(start) >= 14.5)
  }

  @Test(
    "Two layouts of 100,000 items each cost less memory than half their files; a sparse 2 GiB file is not read whole",
    .disabled(if: isSanitized, "a sanitizer's allocator has its own overhead"))
  func memory() async throws {
    let here = try folder()
    let (json, jsonl) = (
      here.appendingPathComponent("a.json").path, here.appendingPathComponent("a.jsonl").path
    )
    for (path, format) in [(json, "json"), (jsonl, "jsonl")] {
      let run = try await shell(
        "\"$FALLS\" layout --synthetic 100000 -f \(format) > \(shellQuoted(path))", timeout: 300)
      #expect(run.status == 0)
    }
    let size = try [json, jsonl].reduce(0) {
      $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
    }
    let small = try await layout(["-f", "jsonl", "--synthetic", "1"], "small.jsonl", in: here)
    let base = try await measuredRun(["diff", small, small])
    let run = try await measuredRun(["diff", json, jsonl], timeout: 300)
    #expect(run.status == 0 && base.status == 0, "\(run.error)")
    // Each item is held in 56 bytes (a tenth of its text), the files' pages given back as they
    // are read: about 0.25. When the files stayed in memory and each item took 72 bytes, 1.27.
    let cost = Double(run.peakBytes - base.peakBytes) / Double(size)
    #expect(cost < 0.5, "\(run.peakBytes >> 20) MiB for \(size >> 20) MiB of layouts")
    // A regular file is read whatever its size: mapped, its first byte says it is not JSON.
    let sparse = here.appendingPathComponent("sparse.json").path
    #expect(FileManager.default.createFile(atPath: sparse, contents: Data("x".utf8)))
    #expect(truncate(sparse, 2 << 30) == 0)
    let big = try await measuredRun(["diff", sparse, jsonl], timeout: 60)
    #expect(big.status == 65, "\(big.error)")
    #expect(big.error.contains("it is not JSON: line 1, column 1: unexpected 'x'"), "\(big.error)")
    #expect(big.peakBytes > 0 && big.peakBytes < 200 << 20, "\(big.peakBytes) bytes")
    try? FileManager.default.removeItem(at: here)
  }
}
