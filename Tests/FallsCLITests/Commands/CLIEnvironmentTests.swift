import FallsBase
import FallsFeed
import Foundation
import Testing

@testable import FallsCLI

@Suite struct CLIEnvironmentTests {
  @Test("The environment's standard input reads what it is given")
  func environment() throws {
    let environment = CLIEnvironment(
      readStandardInput: { _, _ in FeedBytes(data: Data("feed".utf8)) },
      standardOutput: BufferSink(), standardError: BufferSink())
    #expect(try environment.readStandardInput(100, true).data == Data("feed".utf8))
  }
}
