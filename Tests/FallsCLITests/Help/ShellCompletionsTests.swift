import FallsCore
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

@Suite(.tags(.process)) struct ShellCompletionsTests {
  @Test(
    "Every flag of the table, its one-letter form and its values are in every script",
    arguments: ShellCompletions.Shell.allCases)
  func everyFlag(shell: ShellCompletions.Shell) {
    let script = ShellCompletions.script(for: shell)
    // How each shell's script spells a flag, any of a few ways: as a word of bash's lists, in
    // zsh's braces or alone, as fish's -l and -s.
    func spellings(_ flag: LayoutFlag) -> [[String]] {
      let long = "--\(flag.name)"
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
    for command in Command.all { #expect(script.contains(command.name.rawValue)) }
  }

  @Test(
    "Each command's flags are offered after it in every script, and no other command's",
    arguments: ShellCompletions.Shell.allCases)
  func commandFlags(shell: ShellCompletions.Shell) throws {
    let script = ShellCompletions.script(for: shell)
    for command in Command.all {
      let name = command.name.rawValue
      // The part of the script that is the command's.
      let part: String
      switch shell {
      case .bash:
        part = try #require(
          script.split(separator: "\n").first { $0.hasPrefix("    \(name)) flags=") }
            .map(String.init))
      case .zsh:
        let start = try #require(script.range(of: "\n    \(name))\n"))
        let end = try #require(script[start.upperBound...].range(of: " ;;"))
        part = String(script[start.upperBound..<end.lowerBound])
      case .fish:
        part = script.split(separator: "\n").filter { line in
          line.contains("__fish_seen_subcommand_from ")
            && line.split(separator: "'")[1].split(separator: " ").dropFirst().contains {
              $0 == name
            }
        }.joined(separator: "\n")
      }
      for flag in LayoutFlag.all {
        let long = "--\(flag.name)"
        let spelled =
          switch shell {
          case .bash: [" \(long) ", "\"\(long) ", " \(long)\""]
          case .zsh: ["'\(long)[", "{\(long),"]
          case .fish: ["-l \(flag.name) "]
          }
        #expect(
          spelled.contains(where: part.contains) == flag.commands.contains(command.name),
          "\(long) in \(shell)'s \(name): \(part)")
      }
    }
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
      // Each command completes its own flags, and no other's.
      for command in CommandName.allCases {
        let offered = try await completions(["falls", command.rawValue, "--\(flag.name)"])
          .contains("--\(flag.name)")
        #expect(offered == flag.commands.contains(command), "--\(flag.name) in falls \(command)")
      }
      // A command that does not take a flag of choices does not offer them after it.
      for command in CommandName.allCases where !flag.commands.contains(command) {
        guard !flag.choices.isEmpty else { continue }
        let offered = try await completions(["falls", command.rawValue, "--\(flag.name)", ""])
        #expect(offered != flag.choices, "--\(flag.name)'s values in falls \(command)")
      }
      // Each command offers the values it takes (--format: the formats it writes).
      for command in CommandName.allCases where flag.commands.contains(command) {
        let choices = flag.choices(for: command)
        guard !choices.isEmpty else { continue }
        let name = command.rawValue
        #expect(try await completions(["falls", name, "--\(flag.name)", ""]) == choices, "\(name)")
        if let short = flag.short {
          #expect(try await completions(["falls", name, "-\(short)", ""]) == choices, "\(name)")
        }
      }
    }
  }

  /// A folder of feed files whose names a shell would split or expand: a blank, and a `*`
  /// that matches two other names.
  private static func awkwardFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-names-\(UInt64.random(in: 0 ... .max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["my feed.json", "x*.json", "xa.json", "xb.json"] {
      try Data().write(to: folder.appendingPathComponent(name))
    }
    return folder
  }

  @Test(
    "bash and fish complete a file name with a blank as one word, and a * as itself",
    .enabled(if: installed("bash") != nil && installed("fish") != nil, "bash or fish missing"))
  func awkwardNames() async throws {
    let folder = try Self.awkwardFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bashFile = try scriptFile(.bash)
    let fishFile = try scriptFile(.fish)
    defer {
      try? FileManager.default.removeItem(at: bashFile)
      try? FileManager.default.removeItem(at: fishFile)
    }
    for (words, expected) in [
      (["falls", "layout", "my"], ["my feed.json"]),
      (["falls", "layout", "--output", "my"], ["my feed.json"]),
      (["falls", "view", "x"], ["x*.json", "xa.json", "xb.json"]),
    ] {
      let array = words.map { shellQuoted($0) }.joined(separator: " ")
      let bash = try await shell(
        "cd \(shellQuoted(folder.path)) && bash -c \(shellQuoted(". \(bashFile.path); COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _falls; printf '%s\\n' \"${COMPREPLY[@]}\""))"
      )
      #expect(bash.text.split(separator: "\n").map(String.init).sorted() == expected, "\(words)")
      let line = words.joined(separator: " ")
      let fish = try await shell(
        "cd \(shellQuoted(folder.path)) && fish -c \(shellQuoted("source \(fishFile.path); complete -C \(shellQuoted(line))"))"
      )
      #expect(
        fish.text.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
          == expected, "\(words)")
    }
  }

  /// The screen of `kind`'s shell in a terminal `width` columns wide, started in `folder` with
  /// its completion script loaded, once `keys` (tmux key names) are typed and `awaited` shows
  /// (or five seconds have gone by).
  private func typed(
    _ keys: String, in kind: ShellCompletions.Shell, folder: URL? = nil, width: Int,
    awaiting awaited: String
  ) async throws -> String {
    let file = try scriptFile(kind)
    defer { try? FileManager.default.removeItem(at: file) }
    let socket = "falls-completion-\(UInt64.random(in: 0 ... .max))"
    let (start, load) =
      switch kind {
      case .bash: ("bash --norc --noprofile", ". \(file.path)")
      case .zsh: ("zsh -f", "autoload -U compinit; compinit -u -D; source \(file.path)")
      case .fish: ("fish --no-config", "source \(file.path)")
      }
    let place = folder.map { "cd \(shellQuoted($0.path)); " } ?? ""
    _ = try await shell(
      "tmux -L \(socket) new-session -d -x \(width) -y 40 \(shellQuoted(place + start))",
      capture: false)
    defer { _ = try? shell("tmux -L \(socket) kill-server", capture: false) }
    try await Task.sleep(for: .milliseconds(500))
    _ = try await shell("tmux -L \(socket) send-keys \(shellQuoted(load)) Enter", capture: false)
    try await Task.sleep(for: .milliseconds(500))
    _ = try await shell("tmux -L \(socket) send-keys \(keys)", capture: false)
    var screen = ""
    for _ in 0..<50 where !screen.contains(awaited) {
      try await Task.sleep(for: .milliseconds(100))
      screen = try await shell("tmux -L \(socket) capture-pane -p").text
    }
    return screen
  }

  @Test(
    "In a terminal, bash, zsh and fish put a file name with a blank on the line escaped",
    .enabled(if: installed("tmux") != nil, "tmux is not installed"),
    arguments: ShellCompletions.Shell.allCases)
  func awkwardNamesTyped(shell kind: ShellCompletions.Shell) async throws {
    guard installed(kind.rawValue) != nil else { return }
    let folder = try Self.awkwardFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let screen = try await typed(
      "'falls layout my' Tab", in: kind, folder: folder, width: 120, awaiting: "feed.json")
    #expect(screen.contains("falls layout my\\ feed.json"), "\(kind): \(screen)")
  }

  @Test(
    "zsh shows each flag's first sentence whole, apostrophes and all",
    .enabled(if: installed("tmux") != nil && installed("zsh") != nil, "tmux or zsh missing"))
  func zshDescriptions() async throws {
    let screen = try await typed(
      "'falls layout --f' Tab Tab", in: .zsh, width: 250, awaiting: "--format ")
    #expect(screen.contains("in the format's order"), "\(screen)")
    #expect(screen.contains("json for one document (schema falls.layout/1)"), "\(screen)")
  }

  @Test(
    "fish completes a flag's values without the flag's description beside each",
    .enabled(if: installed("fish") != nil, "fish is not installed"))
  func fishValues() async throws {
    let file = try scriptFile(.fish)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try await shell(
      "fish -c \(shellQuoted("source \(file.path); complete -C 'falls layout --style '"))")
    let lines = run.text.split(separator: "\n")
    #expect(Set(lines.map(String.init)) == Set(LayoutStyle.allCases.map(\.rawValue)), "\(run.text)")
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
      let command = flag.commands.contains(.layout) ? "layout" : "check"
      #expect(
        try await completions("falls \(command) --\(flag.name)").contains("--\(flag.name)"))
      for command in CommandName.allCases where flag.commands.contains(command) {
        let choices = flag.choices(for: command)
        guard !choices.isEmpty else { continue }
        #expect(
          try await Set(completions("falls \(command) --\(flag.name) ")) == Set(choices),
          "\(command)")
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
