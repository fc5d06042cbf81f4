import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// The path of `tool` in the usual places, if it is installed.
private func installed(_ tool: String) -> String? {
  ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)", "/bin/\(tool)"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

/// A script file holding `falls completions shell`, removed when the test ends.
private func scriptFile(_ shell: ShellCompletions.Shell) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "falls-completion-\(UInt64.random(in: 0 ... .max)).\(shell.rawValue)")
  try Data(ShellCompletions.script(for: shell).utf8).write(to: url)
  return url
}

@Suite struct ShellCompletionsTests {
  @Test(
    "Every flag of the table, its one-letter form and its values are in every script",
    arguments: ShellCompletions.Shell.allCases)
  func everyFlag(shell: ShellCompletions.Shell) {
    let script = ShellCompletions.script(for: shell)
    // How each shell's script spells a flag, any of a few ways: as a word of bash's lists, in
    // zsh's braces or alone, as fish's -l and -s.
    func spellings(_ flag: LayoutFlag) -> [[String]] {
      let long = "--" + flag.name
      let short = flag.short.map { "-\($0)" }
      switch shell {
      case .bash:
        return ([long] + (short.map { [$0] } ?? [])).map { word in
          [" \(word) ", "\"\(word) ", " \(word)\""]
        }
      case .zsh:
        return [short.map { ["{\(long),\($0)}"] } ?? ["'\(long)["]]
      case .fish:
        return [["-l \(flag.name)" + (flag.short.map { " -s \($0) " } ?? " ")]]
      }
    }
    for flag in LayoutFlag.all {
      for ways in spellings(flag) {
        #expect(ways.contains(where: script.contains), "\(ways) missing from the \(shell) script")
      }
      for choice in flag.choices { #expect(script.contains(choice)) }
    }
    for command in CLI.commands { #expect(script.contains(command.name)) }
  }

  @Test(
    "falls completions prints the script; another shell, or none, is a usage error naming them",
    arguments: [
      (["completions", "bash"], 0), (["completions", "ZSH"], 0), (["completions", "fish"], 0),
      (["completions"], 64), (["completions", "tcsh"], 64), (["completions", "bash", "zsh"], 64),
    ])
  func command(arguments: [String], status: Int) async {
    let result = await runCLI(arguments)
    #expect(Int(result.code.rawValue) == status)
    if status == 0 {
      #expect(result.standardOutput.contains("falls") && result.standardError.isEmpty)
    } else {
      #expect(result.standardOutput.isEmpty)
      #expect(result.standardError.contains("bash, zsh, fish"), "\(result.standardError)")
    }
  }

  @Test(
    "Loaded in bash, the script completes commands, every flag and the values of choices",
    .enabled(if: installed("bash") != nil, "bash is not installed"))
  func bash() async throws {
    let file = try scriptFile(.bash)
    defer { try? FileManager.default.removeItem(at: file) }
    /// The completions bash offers for `words`, the last being completed.
    func completions(_ words: [String]) async throws -> [String] {
      let array = words.map { shellQuoted($0) }.joined(separator: " ")
      let run = try await shell(
        "bash -c \(shellQuoted(". \(file.path); COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _falls; printf '%s\\n' \"${COMPREPLY[@]}\""))"
      )
      return String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    let registered = try await shell("bash -c \(shellQuoted(". \(file.path); complete -p falls"))")
    #expect(String(decoding: registered.output, as: UTF8.self).contains("-F _falls falls"))
    #expect(try await completions(["falls", "lay"]) == ["layout"])
    for flag in LayoutFlag.all {
      #expect(
        try await completions(["falls", "layout", "--\(flag.name)"]).contains("--\(flag.name)"))
      let view = try await completions(["falls", "view", "--\(flag.name)"]).contains(
        "--\(flag.name)")
      #expect(view == flag.isForView, "--\(flag.name) in falls view")
      if !flag.choices.isEmpty {
        #expect(try await completions(["falls", "layout", "--\(flag.name)", ""]) == flag.choices)
      }
      if let short = flag.short, !flag.choices.isEmpty {
        #expect(try await completions(["falls", "layout", "-\(short)", ""]) == flag.choices)
      }
    }
  }

  @Test(
    "Loaded in fish, the script completes every flag and the values of choices",
    .enabled(if: installed("fish") != nil, "fish is not installed"))
  func fish() async throws {
    let file = try scriptFile(.fish)
    defer { try? FileManager.default.removeItem(at: file) }
    func completions(_ line: String) async throws -> [String] {
      let run = try await shell(
        "fish -c \(shellQuoted("source \(file.path); complete -C \(shellQuoted(line))"))")
      return String(decoding: run.output, as: UTF8.self).split(separator: "\n").map {
        String($0.prefix { $0 != "\t" })
      }
    }
    #expect(try await completions("falls lay") == ["layout"])
    for flag in LayoutFlag.all {
      #expect(try await completions("falls layout --\(flag.name)").contains("--\(flag.name)"))
      if !flag.choices.isEmpty {
        #expect(try await Set(completions("falls layout --\(flag.name) ")) == Set(flag.choices))
      }
    }
  }

  @Test(
    "Loaded in zsh after compinit, the script registers its function and parses",
    .enabled(if: installed("zsh") != nil, "zsh is not installed"))
  func zsh() async throws {
    let file = try scriptFile(.zsh)
    defer { try? FileManager.default.removeItem(at: file) }
    let syntax = try await shell("zsh -n \(shellQuoted(file.path))")
    #expect(syntax.status == 0, "\(syntax.error)")
    let registered = try await shell(
      "zsh -f -c \(shellQuoted("autoload -U compinit; compinit -u -D; source \(file.path); print -- $_comps[falls]"))"
    )
    #expect(String(decoding: registered.output, as: UTF8.self) == "_falls\n", "\(registered.error)")
  }
}
