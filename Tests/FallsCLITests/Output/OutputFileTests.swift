import FallsFeed
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under the temporary directory, removed by `body`'s end.
private func withFolder<Result>(_ body: (String) async throws -> Result) async rethrows -> Result {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("falls-output-\(UInt64.random(in: 0 ... .max))").path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try await body(folder)
}

private func contents(_ path: String) -> String? {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private func entries(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

private func mode(_ path: String) -> mode_t {
  var status = stat()
  return lstat(path, &status) == 0 ? status.st_mode : 0
}

@Suite(.tags(.process)) struct OutputFileTests {
  @Test("A new file gets exactly what standard output would, and nothing else is left beside it")
  func newFile() async throws {
    await withFolder { folder in
      let path = folder + "/layout.json"
      let expected = await runCLI(["layout", "--format", "json"]).standardOutput
      let result = await runCLI(["layout", "--format", "json", "--output", path])
      #expect(result.code == .success && result.standardOutput.isEmpty)
      #expect(contents(path) == expected)
      #expect(entries(folder) == ["layout.json"])
    }
  }

  @Test("An existing file is replaced whole and keeps its permissions")
  func replacesFile() async throws {
    try await withFolder { folder in
      let path = folder + "/out.jsonl"
      try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
      chmod(path, 0o640)
      let result = await runCLI(["layout", "--format", "jsonl", "--output", path])
      #expect(result.code == .success)
      #expect(contents(path) == (await runCLI(["layout", "--format", "jsonl"])).standardOutput)
      #expect(mode(path) & 0o777 == 0o640)
      #expect(entries(folder) == ["out.jsonl"])
    }
  }

  @Test("A symbolic link stays a link; the file it points to is replaced")
  func followsLink() async throws {
    try await withFolder { folder in
      let target = folder + "/target.json"
      try "old".write(toFile: target, atomically: false, encoding: .utf8)
      symlink("target.json", folder + "/link.json")
      let result = await runCLI(["layout", "--format", "json", "--output", folder + "/link.json"])
      #expect(result.code == .success)
      #expect(mode(folder + "/link.json") & S_IFMT == S_IFLNK)
      #expect(contents(target)?.hasPrefix("{\"schema\":") == true)
      #expect(entries(folder) == ["link.json", "target.json"])
    }
  }

  @Test("A run that fails before writing leaves an existing file as it was")
  func failureKeepsFile() async throws {
    try await withFolder { folder in
      let path = folder + "/keep.json"
      try "precious".write(toFile: path, atomically: false, encoding: .utf8)
      let result = await runCLI([
        "layout", "--feed", folder + "/missing.json", "--output", path,
      ])
      #expect(result.code == .noInput)
      #expect(contents(path) == "precious")
      #expect(entries(folder) == ["keep.json"])
    }
  }

  @Test(
    "Files that cannot be created are refused with 73, naming the path and the reason",
    arguments: [
      (
        "/nonexistent-folder/x.json",
        "cannot create --output '/nonexistent-folder/x.json': No such file or directory"
      ),
      ("/tmp", "cannot write --output '/tmp': it is a directory; give a file name"),
    ])
  func cannotCreate(path: String, message: String) async {
    let result = await runCLI(["layout", "--output", path])
    #expect(result.code == .cannotCreate)
    #expect(result.standardError == "falls: error: \(message)\n")
    #expect(result.standardOutput.isEmpty)
  }

  @Test("/dev/null is written as it is and stays a device; /dev/full's failure is reported with 74")
  func devices() async {
    let quiet = await runCLI(["layout", "--output", "/dev/null"])
    #expect(quiet.code == .success && quiet.standardOutput.isEmpty)
    #expect(mode("/dev/null") & S_IFMT == S_IFCHR)
    let full = await runCLI(["layout", "--output", "/dev/full"])
    #expect(full.code == .ioError)
    #expect(
      full.standardError
        == "falls: error: cannot write --output '/dev/full': No space left on device\n")
  }

  @Test(
    "-, /dev/stdout and /dev/stderr are the process's own streams", arguments: ["-", "/dev/stdout"])
  func standardStreams(path: String) async {
    let expected = await runCLI(["layout", "--format", "jsonl"]).standardOutput
    let result = await runCLI(["layout", "--format", "jsonl", "--output", path])
    #expect(result.code == .success && result.standardOutput == expected)
    let toError = await runCLI(["layout", "--format", "jsonl", "--output", "/dev/stderr"])
    #expect(toError.standardError == expected && toError.standardOutput.isEmpty)
  }

  @Test("A FIFO is written as it is, for the reader at its other end")
  func fifo() async throws {
    await withFolder { folder in
      let path = folder + "/pipe"
      #expect(mkfifo(path, 0o600) == 0)
      // The reader opens the other end on its own thread and reads to the end.
      let reader = Task.detached { () -> String in
        let handle = FileHandle(forReadingAtPath: path)
        defer { try? handle?.close() }
        return String(decoding: handle?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      }
      let result = await runCLI(["layout", "--format", "jsonl", "--output", path])
      #expect(result.code == .success)
      #expect(await reader.value == (await runCLI(["layout", "--format", "jsonl"])).standardOutput)
      #expect(mode(path) & S_IFMT == S_IFIFO)
    }
  }

  @Test(
    "Where each kind of path sends the output",
    arguments: [
      ("-", OutputTarget.descriptor(1)), ("/dev/stdout", .descriptor(1)),
      ("/dev/stderr", .descriptor(2)),
      ("/dev/null", .special("/dev/null")), ("/nonexistent/x", .replaced("/nonexistent/x")),
      ("/dev/fd/1", .descriptor(1)), ("/proc/self/fd/2", .descriptor(2)),
    ])
  func targets(path: String, target: OutputTarget) throws {
    #expect(try OutputFile.target(for: path) == target)
  }

  @Test(
    "SIGINT, SIGTERM or SIGHUP while the output is written leave no temporary file behind",
    arguments: [SIGINT, SIGTERM, SIGHUP])
  func interrupted(signalNumber: Int32) throws {
    // Synchronous, on a thread of its own for its whole run: an asynchronous wait could be
    // resumed late on a busy machine, after falls has finished.
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-output-\(UInt64.random(in: 0 ... .max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/big.out"
    let process = Process()
    process.executableURL = fallsBinary
    process.arguments = [
      "layout", "--synthetic", "300000", "--format", "table", "--output", path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try launch(process)
    // Signalled once the temporary file has appeared beside the output.
    let deadline = ContinuousClock.now + .seconds(120)
    while process.isRunning, !entries(folder).contains(where: { $0.hasSuffix(".tmp") }),
      ContinuousClock.now < deadline
    {
      usleep(1000)
    }
    #expect(process.isRunning, "falls ended before it could be interrupted")
    kill(process.processIdentifier, signalNumber)
    while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signalNumber)
    #expect(entries(folder).isEmpty, "\(entries(folder))")
  }

  @Test(
    "A symbolic link of another user in a sticky folder anyone may write to is not followed",
    .enabled(if: geteuid() == 0, "needs root to make a link of another user"))
  func untrustedLink() async throws {
    try await withFolder { folder in
      #expect(chmod(folder, 0o1777) == 0)
      let target = folder + "/target"
      let link = folder + "/planted"
      try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
      #expect(symlink(target, link) == 0)
      #expect(lchown(link, 65534, 65534) == 0)
      let result = await runCLI(["layout", "--output", link])
      #expect(result.code == .cannotCreate)
      #expect(
        result.standardError.contains("refusing to follow --output"), "\(result.standardError)")
      #expect(contents(target) == "precious\n")
      // The user's own link there is followed.
      #expect(lchown(link, 0, 0) == 0)
      #expect(await runCLI(["layout", "--output", link]).code == .success)
      #expect(contents(target) != "precious\n")
    }
  }

  @Test(
    "A file the user may not write is refused, as the shell's > refuses it, and left as it was",
    .enabled(
      if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to run falls as another user"))
  func notWritable() async throws {
    try await withFolder { folder in
      let path = folder + "/readonly.json"
      try "keep\n".write(toFile: path, atomically: false, encoding: .utf8)
      #expect(chown(folder, 65534, 65534) == 0 && chown(path, 65534, 65534) == 0)
      #expect(chmod(path, 0o444) == 0)
      let run = try await shell(
        "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \"$FALLS\" layout "
          + "--output \(shellQuoted(path))")
      #expect(run.status == 73)
      #expect(run.error.contains("Permission denied"), "\(run.error)")
      #expect(contents(path) == "keep\n")
      #expect(entries(folder) == ["readonly.json"])
    }
  }

  @Test(
    "A replaced file keeps its owner and its mode, set-group-ID bit included",
    .enabled(if: geteuid() == 0, "needs root to own a file of another user"))
  func keepsOwner() async throws {
    try await withFolder { folder in
      let path = folder + "/theirs.json"
      try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
      #expect(chown(path, 65534, 65534) == 0 && chmod(path, 0o2640) == 0)
      #expect(await runCLI(["layout", "--output", path]).code == .success)
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(status.st_uid == 65534 && status.st_gid == 65534)
      #expect(status.st_mode & 0o7777 == 0o2640)
    }
  }

  @Test("A file with other hard links is replaced by a new file: the other names keep the old text")
  func hardLinks() async throws {
    try await withFolder { folder in
      let path = folder + "/out.txt"
      let other = folder + "/other-name.txt"
      try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
      #expect(link(path, other) == 0)
      #expect(await runCLI(["layout", "--output", path]).code == .success)
      #expect(contents(other) == "old\n")
      #expect(contents(path)?.hasPrefix("irregular layout: 50 items") == true)
    }
  }
}
