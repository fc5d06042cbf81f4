import FallsCore
import Testing

@testable import FallsCLI

@Suite struct FlagNameTests {
  @Test("The table holds one entry a name, in the names' order, each under its own name")
  func table() {
    #expect(LayoutFlag.all.map(\.name) == FlagName.allCases)
    for name in FlagName.allCases {
      #expect(LayoutFlag[name].name == name)
      #expect(LayoutFlag.named(name.rawValue)?.name == name)
    }
    #expect(LayoutFlag.named("nonesuch") == nil)
  }

  @Test("A name is typed as lower-case words joined by hyphens, and reads as typed")
  func spelling() {
    for name in FlagName.allCases {
      #expect(name.rawValue.allSatisfy { $0.isLowercase || $0 == "-" }, "\(name.rawValue)")
      #expect("--\(name)" == "--" + name.rawValue)
      #expect(LayoutFlag[name].spellings.first == "--" + name.rawValue)
    }
  }

  @Test("Help and the version are entries of the table, with the spellings the parser answers")
  func builtIns() throws {
    #expect(LayoutFlag[.help].spellings == ["--help", "-h"])
    #expect(LayoutFlag[.version].spellings == ["--version"])
    for spelling in LayoutFlag[.help].spellings {
      #expect {
        try LayoutCommand.parse([spelling])
      } throws: { error in
        guard case .informational(let text) = error as? CLIError else { return false }
        return text == HelpText.layout
      }
    }
    #expect {
      try LayoutCommand.parse(["--columns", "3", "--version"])
    } throws: { error in
      guard case .informational(let text) = error as? CLIError else { return false }
      return text == CLI.versionText
    }
  }

  @Test("FEED is the one positional argument, and it stands for --feed")
  func positional() {
    let positional = LayoutFlag.all.filter { $0.positional != nil }
    #expect(positional.map(\.name) == [.feed])
    #expect(HelpText.layout.contains("ARGUMENTS:\n  FEED\n      The feed, as with --feed: an http"))
  }
}
