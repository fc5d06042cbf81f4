import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation

/// A page on its way: fetched, decoded and its images' sizes read by a task of its own while
/// the viewer reads keys.
final class PendingPage: Sendable {
  let page: Int
  private let result = Locked<Result<Feed, CLIError>?>(nil)
  private let task = Locked<Task<Void, Never>?>(nil)

  /// Starts `load`, which makes page `page`'s feed.
  init(page: Int, load: @escaping @Sendable () async -> Result<Feed, CLIError>) {
    self.page = page
    let started = Task { [self] in
      let feed = await load()
      result.withLock { $0 = feed }
    }
    task.withLock { $0 = started }
  }

  /// The feed, or why it did not come, once it is there.
  var outcome: Result<Feed, CLIError>? { result.withLock { $0 } }

  func cancel() {
    task.withLock { $0?.cancel() }
  }
}
