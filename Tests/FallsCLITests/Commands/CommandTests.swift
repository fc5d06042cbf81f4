import FallsBase
import Foundation
import Testing

@testable import FallsCLI

@Suite struct CommandTests {
  @Test("The list holds every command once, in the order of the names")
  func everyCommandOnce() {
    #expect(Command.all.map(\.name) == CommandName.allCases)
    for name in CommandName.allCases {
      #expect(Command[name].name == name && Command.named(name.rawValue)?.name == name)
    }
    #expect(Command.named("Layout") == nil && Command.named("") == nil)
  }

  @Test(
    "A usage line names the operands and, when there are flags beyond help, [options]",
    arguments: [
      (CommandName.layout, "falls layout [FEED] [options]"),
      (.view, "falls view [FEED] [options]"), (.probe, "falls probe [FEED] [options]"),
      (.check, "falls check [FEED] [options]"), (.diff, "falls diff OLD NEW [options]"),
      (.completions, "falls completions bash|zsh|fish"), (.manual, "falls manual"),
    ])
  func usage(name: CommandName, line: String) {
    #expect(Command[name].usage == line)
  }

  @Test(
    "Every command's help is the same asked three ways, and lists its flags and its usage",
    arguments: CommandName.allCases)
  func help(name: CommandName) async {
    let asked = [["help", name.rawValue], [name.rawValue, "--help"], [name.rawValue, "-h"]]
    var texts: [String] = []
    for arguments in asked {
      let result = await runCLI(arguments)
      #expect(result.code == .success && result.standardError.isEmpty)
      texts.append(result.standardOutput)
    }
    #expect(Set(texts).count == 1)
    let text = texts[0]
    #expect(text.contains("USAGE: \(Command[name].usage)"))
    // The flags of the table it takes, each as the help's heading names it; none of another's.
    // (The manual's and the completions' one-line helps name none.)
    guard name != .manual, name != .completions else { return }
    for flag in LayoutFlag.all {
      let heading = HelpText.heading(of: flag, for: name) + "\n"
      #expect(text.contains(heading) == flag.commands.contains(name), "\(name): \(heading)")
    }
  }

  @Test("falls --help lists every command with its summary, and the completions offer each")
  func topLevelHelp() async {
    let help = await runCLI(["--help"]).standardOutput
    for command in Command.all {
      #expect(help.contains("  \(command.name)"), "\(command.name)")
      // The summary, wrapped under its column: its first words are on the command's line.
      let firstWords = command.summary.split(separator: " ").prefix(3).joined(separator: " ")
      #expect(help.contains(firstWords), "\(command.name): \(firstWords)")
    }
  }

  @Test(
    "A closed standard output is refused before any work in every command that writes a report",
    arguments: [
      ["layout", "/nonexistent/feed.json"], ["probe", "/nonexistent/feed.json"],
      ["check", "/nonexistent/feed.json"], ["diff", "/nonexistent/a", "/nonexistent/b"],
      ["completions", "bash"], ["manual"],
    ])
  func closedStandardOutput(arguments: [String]) async {
    let result = await runCLI(arguments) {
      $0.standardOutputIsClosed = true
      $0.standardOutput = ClosedSink()
    }
    // Not 66 for the missing inputs: nothing was read.
    #expect(result.code == .ioError)
    #expect(result.standardError.hasPrefix("falls: error: standard output is closed"))
  }

  @Test(
    "A refusal names the command's own: its one-letter flags, its formats, a command meant",
    arguments: [
      (["diff", "a", "b", "-x"], "the one-letter options are -f -o -h"),
      (["manual", "-x"], "the one-letter options are -h"),
      (["view", "-x"], "the one-letter options are -c -w -s -h"),
      (["diff", "-f", "xml", "a", "b"], "expected table or json"),
      (["probe", "-f", "xml"], "expected one of table, json, jsonl"),
      (["layout", "-f", "xml"], "expected one of table, json, jsonl, svg, html"),
      (["help", "dif"], "unknown command 'dif'; did you mean 'diff'?"),
      (["help", "nosuch"], "unknown command 'nosuch'; the commands are"),
      (["diff", "--tol", "1", "a", "b"], "unknown option '--tol'; did you mean '--tolerance'?"),
    ])
  func ownWords(arguments: [String], words: String) async {
    let result = await runCLI(arguments)
    #expect(result.code == .usage && result.standardOutput.isEmpty)
    #expect(result.standardError.contains(words), "\(result.standardError)")
  }

  @Test("The manual's synopsis has every command, and each flag's words in every command")
  func manual() {
    let page = ManualPage.text
    for command in Command.all {
      #expect(page.contains(".B falls \(command.name)\n"), "\(command.name)")
    }
    // diff's --tolerance is in points, probe's a ratio: each said where the flag is.
    let tolerance = LayoutFlag[.tolerance]
    for name in [CommandName.probe, .diff] {
      let words = ManualPage.escaped(tolerance.help(for: name))
      #expect(page.contains("In falls \(name): " + words), "\(name)")
    }
  }
}
