import FallsBase

/// `falls completions bash|zsh|fish`: a completion script for the shell, written from the flag
/// table (``LayoutFlag/all``), so that every flag, its one-letter form and its values complete.
enum ShellCompletions {
  static let name = "completions"

  /// The shells there is a script for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static var help: String {
    """
    OVERVIEW: Print a completion script for bash, zsh or fish.

    USAGE: \(Command[.completions].usage)

    For the current shell:
      source <(falls completions bash)      # bash, in ~/.bashrc
      source <(falls completions zsh)       # zsh, in ~/.zshrc, after compinit
      falls completions fish | source       # fish, in ~/.config/fish/config.fish

    """
  }

  /// Parses the arguments after `completions` and returns the script.
  static func run(_ arguments: [String]) throws(CLIError) -> String {
    let operands = try LayoutCommand.parse(arguments, for: .completions).operands
    let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
    guard operands.count == 1, let name = operands.first else {
      throw .usage("give one shell: \(shells)", command: Self.name)
    }
    guard let shell = Shell(rawValue: name.lowercased()) else {
      let shown = shownInMessage(name)
      throw .usage("no completions for '\(shown)'; the shells are \(shells)", command: Self.name)
    }
    return script(for: shell)
  }

  static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  /// The flags of `command`, as typed: `--name` and `-x`.
  private static func spellings(of command: CommandName) -> [String] {
    flags(of: command).flatMap(\.spellings)
  }

  /// What the top level takes besides a command: help and the version, as typed.
  private static var topLevelSpellings: [String] {
    [FlagName.help, .version].flatMap { LayoutFlag[$0].spellings }
  }

  private static func flags(of command: CommandName) -> [LayoutFlag] {
    LayoutFlag.all.filter { $0.commands.contains(command) }
  }

  /// The commands, from the one list of them.
  private static var commands: [Command] { Command.all }

  /// The first sentence of a flag's help, whole, for the shells that show one beside it (a
  /// period inside a word, as in falls.layout/1, does not end it).
  private static func summary(of flag: LayoutFlag, in command: CommandName = .layout) -> String {
    let help = flag.help(for: command)
    guard let end = help.range(of: ". ") else {
      return help.hasSuffix(".") ? String(help.dropLast()) : help
    }
    return String(help[..<end.lowerBound])
  }

  /// The bash command that sets the completions to what `compgen` prints for `arguments`, one
  /// a line: read with `mapfile`, so that a file name with a blank stays one word and one with
  /// a `*` is not expanded as a pattern, as `COMPREPLY=($(compgen …))` would.
  private static func bashReply(_ arguments: String) -> String {
    "mapfile -t COMPREPLY < <(compgen \(arguments) -- \"$cur\")"
  }

  /// bash's case of each command: the flags it completes, and the compgen words of its
  /// operands (files, or the values it takes).
  private static var commandFlags: String {
    commands.map { command in
      let flags = spellings(of: command.name).joined(separator: " ")
      let operand = command.operands.first
      let words =
        operand.map { operand in
          operand.isPath
            ? "-f" : "-W \"\(operand.choices.joined(separator: " "))\""
        } ?? ""
      return "\(command.name)) flags=\"\(flags)\"; words=(\(words)) ;;"
    }.joined(separator: "\n    ")
  }

  /// zsh's case of each command: its `_arguments`.
  private static var zshCommands: String {
    commands.map { command in
      "\(command.name))\n    _arguments \\\n      \(zshSpecifications(of: command)) ;;"
    }.joined(separator: "\n    ")
  }

  private static var bash: String {
    var valueCases = ""
    for flag in LayoutFlag.all where flag.value != nil {
      let words = flag.spellings.joined(separator: "|")
      func reply(_ choices: [String]) -> String {
        flag.isPath
          ? bashReply("-f")
          : choices.isEmpty ? "COMPREPLY=()" : bashReply("-W \"\(choices.joined(separator: " "))\"")
      }
      // The values in the commands that take the flag, a case of them for each set of values
      // (--format offers each command's formats); in another command the flag is not
      // completed as one.
      var groups: [(commands: [String], choices: [String])] = []
      for command in CommandName.allCases where flag.commands.contains(command) {
        let choices = flag.choices(for: command)
        if let group = groups.firstIndex(where: { $0.choices == choices }) {
          groups[group].commands.append(command.rawValue)
        } else {
          groups.append(([command.rawValue], choices))
        }
      }
      let byCommand = groups.map {
        "\($0.commands.joined(separator: "|"))) \(reply($0.choices)); return ;; "
      }.joined()
      valueCases += "    \(words)) case ${COMP_WORDS[1]} in \(byCommand)esac ;;\n"
    }
    return """
      # bash completion for falls, written by `falls completions bash` from its flag table.
      _falls() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        if [[ $COMP_CWORD -eq 1 ]]; then
          \(bashReply("-W \"\((commands.map(\.name.rawValue) + topLevelSpellings).joined(separator: " "))\""))
          return
        fi
        local flags words
        case ${COMP_WORDS[1]} in
          \(commandFlags)
          *) COMPREPLY=(); return ;;
        esac
        case $prev in
      \(valueCases)  esac
        if [[ $cur == -* ]]; then
          \(bashReply("-W \"$flags\""))
        elif [[ ${#words[@]} -gt 0 ]]; then
          \(bashReply("\"${words[@]}\""))
        else
          COMPREPLY=()
        fi
      }
      complete -o filenames -F _falls falls

      """
  }

  /// `text` inside single quotes of zsh's `_arguments` specifications: a quote closes and
  /// reopens them around an escaped one, and the brackets, colons and backslashes that mean
  /// something to `_arguments` are escaped for it.
  private static func zshText(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "'": escaped += #"'\''"#
      case "[", "]", ":", "\\": escaped += "\\" + String(character)
      default: escaped.append(character)
      }
    }
    return escaped
  }

  private static func zshSpecifications(of entry: Command) -> String {
    var lines: [String] = []
    let command = entry.name
    for flag in flags(of: command) {
      let names = flag.spellings
      let exclusion = names.count > 1 ? "(\(names.joined(separator: " ")))" : ""
      let spelled =
        names.count > 1 ? "{\(names.joined(separator: ","))}" : names[0]
      var value = ""
      if let placeholder = flag.value(for: command) {
        let choices = flag.choices(for: command)
        let action =
          flag.isPath
          ? "_files" : choices.isEmpty ? " " : "(\(choices.joined(separator: " ")))"
        value = ":\(zshText(placeholder)):\(action)"
      }
      let description = "[\(zshText(summary(of: flag, in: command)))]\(value)'"
      lines.append(
        exclusion.isEmpty ? "'\(names[0])" + description : "'\(exclusion)'\(spelled)'" + description
      )
    }
    for (number, operand) in entry.operands.enumerated() {
      let action =
        operand.isPath
        ? "_files" : operand.choices.isEmpty ? " " : "(\(operand.choices.joined(separator: " ")))"
      lines.append("'\(number + 1):\(operand.name.lowercased()):\(action)'")
    }
    return lines.joined(separator: " \\\n        ")
  }

  /// The top level's help and version for `_arguments`: each excludes everything else.
  private static var zshTopLevel: String {
    [FlagName.help, .version].map { name in
      let flag = LayoutFlag[name]
      let names = flag.spellings
      let spelled = names.count > 1 ? "{\(names.joined(separator: ","))}" : names[0]
      return "'(- *)'\(spelled)'[\(zshText(summary(of: flag)))]'"
    }.joined(separator: " ")
  }

  private static var zsh: String {
    let described = commands.map { "'\($0.name):\(zshText($0.line))'" }.joined(separator: " ")
    return """
      #compdef falls
      # zsh completion for falls, written by `falls completions zsh` from its flag table.
      _falls() {
        local state line
        _arguments -C \(zshTopLevel) \\
          '1: :->command' '*:: :->argument'
        case $state in
        command)
          local -a commands
          commands=(\(described))
          _describe command commands ;;
        argument)
          case $line[1] in
          \(zshCommands)
          esac ;;
        esac
      }
      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _falls "$@"
      else
        compdef _falls falls
      fi

      """
  }

  /// `text` inside single quotes of fish.
  private static func fishText(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
  }

  private static var fish: String {
    var lines = [
      "# fish completion for falls, written by `falls completions fish` from its flag table.",
      "complete -c falls -f",
    ]
    for command in commands {
      lines.append(
        "complete -c falls -n __fish_use_subcommand -a \(command.name) -d '\(fishText(command.line))'"
      )
    }
    for flag in LayoutFlag.all {
      // The commands in which the flag says or offers the same (--format lists each command's
      // formats, probe's --tolerance is a ratio): a group of lines each.
      var groups: [(commands: [String], summary: String, choices: [String])] = []
      for command in CommandName.allCases where flag.commands.contains(command) {
        let (summary, choices) = (summary(of: flag, in: command), flag.choices(for: command))
        if let group = groups.firstIndex(where: { $0.summary == summary && $0.choices == choices })
        {
          groups[group].commands.append(command.rawValue)
        } else {
          groups.append(([command.rawValue], summary, choices))
        }
      }
      for group in groups {
        let commands = group.commands.joined(separator: " ")
        var line = "complete -c falls -n '__fish_seen_subcommand_from \(commands)' -l \(flag.name)"
        if let short = flag.short { line += " -s \(short)" }
        if flag.value != nil { line += flag.isPath ? " -r -F" : " -x" }
        lines.append(line + " -d '\(fishText(group.summary))'")
        // The values on a line of their own: a description given with them would be the
        // flag's, the same beside every value.
        if !group.choices.isEmpty {
          lines.append(line + " -a '\(group.choices.joined(separator: " "))'")
        }
      }
    }
    // The operands: files, or the values they take.
    let takingFiles = commands.filter { $0.operands.contains(where: \.isPath) }
    lines.append(
      "complete -c falls -n '__fish_seen_subcommand_from "
        + "\(takingFiles.map(\.name.rawValue).joined(separator: " "))' -F")
    for command in commands {
      for operand in command.operands where !operand.choices.isEmpty {
        lines.append(
          "complete -c falls -n '__fish_seen_subcommand_from \(command.name)' "
            + "-a '\(operand.choices.joined(separator: " "))'")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
