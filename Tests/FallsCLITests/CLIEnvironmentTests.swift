import FallsBase
import FallsFeed
import Foundation
import Testing

@testable import FallsCLI

@Suite struct CLIEnvironmentTests {
  @Test("The environment's standard input reads what it is given")
  func environment() throws {
    let environment = CLIEnvironment(
      readStandardInput: { (_) throws(SystemError) in Data("feed".utf8) },
      standardOutput: BufferSink(), standardError: BufferSink())
    #expect(try environment.readStandardInput(100) == Data("feed".utf8))
  }
}
