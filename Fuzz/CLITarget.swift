// The command-line fuzz target (make fuzz): bytes read as an argument list, run in-process.
//
// - falls never crashes, whatever the arguments.
// - It ends with one of the documented exit statuses. A failure prints nothing on standard
//   output and one error on standard error, starting "falls: error: "; a success prints no
//   error. Nothing printed for people holds a raw control or format character (ESC, CR, U+202E, …).
//
// The arguments are built from the flags of `falls layout` and a vocabulary of values, with
// runs of the fuzzer's own bytes mixed in; feeds come from the fixtures or standard input, any
// URL meets a transport that refuses to connect, and --output writes only inside a scratch
// folder, so that a run touches nothing outside it.

import FallsBase
import FallsCore
import FallsFeed
import Foundation

@testable import FallsCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let start else { return 0 }
  var input = Input(UnsafeBufferPointer(start: start, count: count))
  let arguments = input.arguments()
  let output = BufferSink()
  let error = BufferSink()
  // Held as bytes, made into a Data only when read: LeakSanitizer cannot follow a Data's
  // storage through its tagged pointer, and would take the feed of a run still being torn down
  // for a leak.
  let feed = Fixtures.standardInput[Int(input.byte()) % Fixtures.standardInput.count]
  let environment = CLIEnvironment(
    readStandardInput: { _, _ in FeedBytes(data: Data(feed)) }, standardOutput: output,
    standardError: error, transport: RefusingTransport(), backoff: 0)
  let code = runInProcess(arguments, environment: environment)
  check(arguments, code: code, output: output.text, error: error.text)
  return 0
}

private func check(_ arguments: [String], code: ExitCode?, output: String, error: String) {
  guard let code else { fatalError("no exit status for \(arguments)") }
  let errors = error.components(separatedBy: "falls: error: ").count - 1
  let isInformational =
    code == .success
    && (arguments.contains("--help") || arguments.contains("-h")
      || arguments.contains("--version") || arguments.first == "help" || arguments.isEmpty
      || arguments.first == "completions" || arguments.first == "manual")
  switch code {
  case .success:
    guard errors == 0 else { fatalError("success with an error for \(arguments): \(error)") }
  case .usage, .dataError, .noInput, .unavailable, .cannotCreate, .ioError:
    // Notes on the feed (skipped items, clamped spans) may come before the one error.
    let notes = error.components(separatedBy: "falls: error: ").first ?? ""
    guard output.isEmpty, errors == 1,
      notes.split(separator: "\n").allSatisfy({ $0.hasPrefix("falls: ") })
    else {
      fatalError("status \(code) for \(arguments) printed \(errors) errors: \(error)")
    }
  case .failure where arguments.first == "diff":
    // A difference is no error: the report says it, standard error nothing.
    guard errors == 0 else {
      fatalError("status 1 for \(arguments) printed \(errors) errors: \(error)")
    }
  case .failure where ["probe", "check"].contains(arguments.first ?? ""):
    // Their report is printed, and a last line says the verdict: a verdict, not an error.
    let last = error.split(separator: "\n").last ?? ""
    guard errors == 0, last.hasPrefix("falls: "),
      last.contains(" not ok") || last.contains(" failed")
    else {
      fatalError("status 1 for \(arguments) printed \(errors) errors: \(error)")
    }
  case .failure, .brokenPipe, .interrupted:
    fatalError("status \(code) for \(arguments): \(error)")
  }
  // Messages and notes for people never carry a raw control or format character but newlines;
  // neither does a table. (JSON escapes its own; SVG and HTML are markup.)
  let isTable =
    !arguments.contains { $0.hasPrefix("--format") || $0.hasPrefix("-f") }
    || arguments.contains("table")
  for (name, text) in [("standard error", error), ("the table", isTable ? output : "")]
  where text.unicodeScalars.contains(where: { $0 != "\n" && isEscapedForPeople($0) }) {
    if isInformational { continue }
    fatalError("a raw control or format character in \(name) for \(arguments)")
  }
}

/// Reads the fixtures and starts the concurrency runtime before the first input, so that what
/// they allocate once is not taken for a leak of that input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeCLIFuzzing(
  _ argc: UnsafeMutablePointer<Int32>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
  _ = Fixtures.standardInput
  _ = Fixtures.scratch
  let input: [UInt8] = [0, 1, 2]
  input.withUnsafeBufferPointer { _ = fuzzCLI($0.baseAddress, $0.count) }
  return 0
}

/// The network, refused: no test reaches any address.
private struct RefusingTransport: HTTPTransport {
  func get(_ url: URL, headers: [String: String], timeout: Double, maxBytes: Int)
    async throws(TransportFailure) -> HTTPResponse
  {
    throw .cannotConnect(detail: "the fuzzer has no network")
  }
}

private enum Fixtures {
  static let folder = "Tests/Fixtures"
  /// What standard input holds: a real feed, a broken one, one with invalid items, nothing.
  /// (Byte arrays: LeakSanitizer cannot see a Data's storage through its tagged pointer, and
  /// would take these for leaks.)
  static let standardInput: [[UInt8]] = [
    Array(FileManager.default.contents(atPath: folder + "/mj-shop-1.json") ?? Data()),
    Array(FileManager.default.contents(atPath: folder + "/invalid-items.json") ?? Data()),
    Array(#"{"data":[{"img":"a\u001b[2J","width":"1","height":"2","span":"full"},7]}"#.utf8),
    Array("{\"data\":[".utf8), [],
  ]
  /// A folder of the run's own for --output.
  static let scratch: String = {
    let path = NSTemporaryDirectory() + "falls-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()
}

/// The fuzzer's bytes, read as choices.
private struct Input {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

  /// Up to 16 bytes of the input, as text (invalid UTF-8 repaired, as argv would give it).
  mutating func raw() -> String {
    let length = Int(byte()) % 16
    var text: [UInt8] = []
    for _ in 0..<length { text.append(byte()) }
    return String(decoding: text, as: UTF8.self)
  }

  static let values = [
    "0", "1", "3", "-1", "2.5", "1e9", "1e308", "-0", "nan", "inf", "", " 4", "0x10", "1,2",
    "0,0,375,812", "10,10,10,10", "2x2,1x1", "3x1", "table", "json", "jsonl", "svg", "html",
    "irregular", "waterfall", "grid", "circle", "cube", "sphere", "ltr", "rtl", "horizontal",
    "shortest", "left-to-right", "right-to-left", "0.67", "0.999", "1000", "18446744073709551615",
    "\u{1B}[2J", "a\nb",
  ]

  mutating func value(for flag: String) -> String {
    switch flag {
    case "feed":
      return pick([
        "-", Fixtures.folder + "/mj-shop-2.json", Fixtures.folder + "/invalid-items.json",
        "/nonexistent/feed.json", "http://127.0.0.1:9/{page}?size={size}",
        "https://user:secret@example.invalid/feed", "gopher://x/", "ftp:", "",
      ])
    case "output":
      return pick([Fixtures.scratch + "/out", "-", "/dev/null", Fixtures.scratch, ""])
    case "synthetic":
      // Small enough that a run stays quick.
      return pick(["0", "1", "50", "2000", "-3", "x", "100000001"])
    default:
      return byte() < 200 ? pick(Self.values) : raw()
    }
  }

  mutating func arguments() -> [String] {
    var arguments: [String] = [
      pick([
        "layout", "layout", "layout", "help", "--version", "nope", "completions", "manual",
        "probe", "check", "diff",
      ])
    ]
    let flags = LayoutFlag.all.map(\.name.rawValue)
    for _ in 0..<(Int(byte()) % 10) {
      switch byte() % 10 {
      case 0: arguments.append(raw())
      case 1: arguments.append("--" + raw())
      case 2:
        // A flag's one-letter form, its value attached or apart, or none.
        let flag = pick(LayoutFlag.all.filter { $0.short != nil })
        guard let letter = flag.short else { continue }
        let value = flag.value == nil ? "" : value(for: flag.name.rawValue)
        if byte() % 2 == 0 {
          arguments.append("-\(letter)\(value)")
        } else {
          arguments += ["-\(letter)"] + (flag.value == nil ? [] : [value])
        }
      case 3: arguments.append(pick(["--", "-", value(for: "feed")]))
      default:
        let flag = pick(flags)
        guard (flag != "help" && flag != "version") || byte() % 8 == 0 else { continue }
        guard LayoutFlag.named(flag)?.value != nil else {
          arguments.append("--" + flag)
          continue
        }
        let value = value(for: flag)
        // --synthetic 100000001 is refused; a large count that is accepted would be slow.
        if flag == "synthetic", let count = Int(value), count > 2000, count <= 100_000_000 {
          continue
        }
        if byte() % 3 == 0 {
          arguments.append("--\(flag)=\(value)")
        } else {
          arguments += ["--" + flag, value]
        }
      }
    }
    // Whatever the raw bytes spelled, the feed and the output are only ever the vocabulary's:
    // a run reads the fixtures and writes in the scratch folder, never elsewhere. A word that
    // is no flag's value is the feed (after --, every word is).
    var position = 1
    var isOptionsEnd = false
    while position < arguments.count {
      let argument = arguments[position]
      defer { position += 1 }
      let flag: LayoutFlag? =
        isOptionsEnd
        ? nil
        : argument.hasPrefix("--")
          ? LayoutFlag.named(String(argument.dropFirst(2)))
          : argument.count == 2 && argument.hasPrefix("-")
            ? argument.last.flatMap { LayoutFlag.named(short: $0) } : nil
      if argument == "--" {
        isOptionsEnd = true
      } else if !isOptionsEnd, argument.hasPrefix("-o") || argument.hasPrefix("--output=") {
        arguments[position] = argument == "-o" ? "-o" : "--output=" + value(for: "output")
        if argument == "-o", position + 1 < arguments.count {
          arguments[position + 1] = value(for: "output")
          position += 1
        }
      } else if !isOptionsEnd, argument.hasPrefix("--feed=") {
        arguments[position] = "--feed=" + value(for: "feed")
      } else if let flag, flag.value != nil {
        // The flag's value: kept, unless it names the feed or the output.
        if position + 1 < arguments.count {
          if flag.name == .feed || flag.name == .output {
            arguments[position + 1] = value(for: flag.name.rawValue)
          }
          position += 1
        }
      } else if isOptionsEnd || !argument.hasPrefix("-") || argument == "-" {
        arguments[position] = value(for: "feed")
      }
    }
    return arguments
  }
}
