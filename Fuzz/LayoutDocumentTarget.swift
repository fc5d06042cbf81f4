// The layout document fuzz target (make fuzz): any bytes, read as a falls.layout/1 document by
// LayoutDocument, the reader of falls diff.
//
// - It reads every input without crashing: a document, or a failure that says why.
// - What it reads keeps the rules: every number finite, an index, a column and a span whole
//   and within range, a width and a height not negative; the index order is a permutation of
//   the items whose indices rise strictly.
// - Split in two at its first byte 0x1E (or in the middle), the two parts that read are diffed:
//   the counts add up to both layouts' items, and the report, in both formats, is written
//   without a number JSON cannot hold (its JSON reads back with JSONSerialization).
// - A document falls writes reads back: a small layout drawn from the input (style, columns,
//   count, seed, header and footer, axis), written by the CLI in-process as json and as jsonl,
//   reads as the count of items asked for, and the two are the same to the diff (for the
//   inputs whose last byte is a multiple of 4).

import FallsCore
import FallsFeed
import Foundation

@testable import FallsCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayoutDocument(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  _ = checkedRead(bytes)
  let split = bytes.firstIndex(of: 0x1E) ?? bytes.count / 2
  let after = bytes.count > split && bytes[split] == 0x1E ? split + 1 : split
  if let old = checkedRead(Array(bytes[..<split])), let new = checkedRead(Array(bytes[after...])) {
    checkDiff(old, new, tolerance: bytes.first.map { Double($0 % 4) / 2 } ?? 0)
  }
  // A quarter of the inputs: the run of the CLI costs more than the reading.
  if (bytes.last ?? 0) % 4 == 0 { roundTrip(bytes) }
  return 0
}

/// The document `bytes` hold, checked against the rules, or `nil` when they are not one.
private func checkedRead(_ bytes: [UInt8]) -> LayoutDocument? {
  let document: LayoutDocument
  do {
    document = try LayoutDocument.read(FeedBytes(data: Data(bytes)))
  } catch {
    guard !error.reason.isEmpty else { fatalError("a failure without a reason") }
    return nil
  }
  for item in document.items {
    let frame = item.frame
    guard (0..<(1 << 53)).contains(item.index), frame.x.isFinite, frame.y.isFinite,
      frame.width.isFinite, frame.height.isFinite, frame.width >= 0, frame.height >= 0,
      item.column.map({ (0..<LayoutConfiguration.maximumColumns).contains($0) }) ?? true,
      item.span.map(LayoutConfiguration.columnCounts.contains) ?? true
    else { fatalError("an item breaks the rules: \(item)") }
  }
  if let height = document.contentHeight, !height.isFinite {
    fatalError("a content height of \(height)")
  }
  let positions = document.items.indices.map { document.position(inIndexOrder: $0) }
  guard positions.sorted() == Array(document.items.indices),
    zip(positions, positions.dropFirst()).allSatisfy({
      document.items[$0].index < document.items[$1].index
    })
  else { fatalError("the index order is not a rising permutation: \(positions)") }
  return document
}

/// Diffs two documents and writes the report both ways.
private func checkDiff(_ old: LayoutDocument, _ new: LayoutDocument, tolerance: Double) {
  let report = DiffReport(old: old, new: new, tolerance: tolerance)
  guard report.diff.removed + report.diff.common == old.items.count,
    report.diff.added + report.diff.common == new.items.count,
    report.diff.changed <= report.diff.common
  else { fatalError("the counts do not add up: \(report.summary)") }
  for format in DiffCommand.formats {
    let sink = BufferSink()
    do {
      try report.write(format, to: sink)
    } catch {
      fatalError("a buffer refused the report: \(error)")
    }
    guard format == .json else { continue }
    guard (try? JSONSerialization.jsonObject(with: Data(sink.text.utf8))) != nil else {
      fatalError("the report is not JSON: \(sink.text)")
    }
  }
}

/// Lays out a few generated items as the input chooses, as json and as jsonl, and reads both.
private func roundTrip(_ bytes: [UInt8]) {
  func byte(_ position: Int) -> Int { position < bytes.count ? Int(bytes[position]) : 0 }
  let style = LayoutStyle.allCases[byte(0) % LayoutStyle.allCases.count]
  let count = byte(1) % 24
  var arguments = ["layout", "--synthetic", String(count), "--style", style.rawValue]
  if style.drawsAtRandom { arguments += ["--seed", String(byte(3))] }
  if style.family == .columns { arguments += ["-c", String(1 + byte(2) % 6)] }
  if style.options.contains(.sections), byte(4) % 4 == 1 {
    arguments += ["--header-height", "30", "--footer-height", "12.5"]
  }
  if style.options.contains(.axis), byte(4) % 4 == 2 { arguments += ["--axis", "horizontal"] }
  var documents: [LayoutDocument] = []
  for format in ["json", "jsonl"] {
    let (code, output) = run(arguments + ["-f", format])
    // A combination of flags refused (a usage error) wrote nothing to read; any other failure
    // is not the layout's to have.
    guard code == .success else {
      guard code == .usage, output.isEmpty else {
        fatalError("\(arguments) \(format) ended with \(code)")
      }
      return
    }
    do {
      let document = try LayoutDocument.read(FeedBytes(data: Data(output.utf8)))
      guard document.items.count == count else {
        fatalError("\(arguments) \(format): \(document.items.count) items of \(count)")
      }
      documents.append(document)
    } catch {
      fatalError("falls's own \(format) does not read: \(error.reason) for \(arguments)")
    }
  }
  let report = DiffReport(old: documents[0], new: documents[1], tolerance: 0)
  guard report.diff.added == 0, report.diff.removed == 0, report.diff.changed == 0 else {
    fatalError("json and jsonl of \(arguments) differ: \(report.summary)")
  }
}

/// Runs `falls` in-process with `arguments`: its status and standard output.
private func run(_ arguments: [String]) -> (ExitCode, String) {
  let output = BufferSink()
  let environment = CLIEnvironment(
    readStandardInput: { _, _ in FeedBytes(data: Data()) }, standardOutput: output,
    standardError: BufferSink())
  return (runInProcess(arguments, environment: environment) ?? .failure, output.text)
}

/// Starts the concurrency runtime before the first input, so that what it allocates once is
/// not taken for a leak of that input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeLayoutDocumentFuzzing(
  _ argc: UnsafeMutablePointer<Int32>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
  let input: [UInt8] = [0, 3, 2]
  input.withUnsafeBufferPointer { _ = fuzzLayoutDocument($0.baseAddress, $0.count) }
  return 0
}
