import Testing

@testable import FallsCLI

@Suite struct CommandNameTests {
  @Test("The kinds of command, by what each reads and writes")
  func kinds() {
    #expect(Set<CommandName>.feedReaders == [.layout, .view, .probe, .check])
    #expect(Set<CommandName>.layoutMakers == [.layout, .view, .check])
    #expect(Set<CommandName>.feedReporters == [.layout, .probe, .check])
    #expect(Set<CommandName>.layoutReporters == [.layout, .check])
    #expect(CommandName.allCases.filter { !$0.writesReport } == [.view])
  }

  @Test(
    "Each command's --format offers the formats it writes, and only a reporter has some",
    arguments: CommandName.allCases)
  func formats(name: CommandName) {
    let flag = LayoutFlag[.format]
    #expect(flag.commands.contains(name) == (name.writesReport && !name.formats.isEmpty))
    if flag.commands.contains(name) {
      #expect(flag.choices(for: name) == name.formats.map(\.rawValue))
    }
  }
}
