import FallsBase
import FallsCore
import FallsFeed
import FallsTerminal
import Foundation
import Synchronization

/// A page on its way: fetched by a task of its own while the viewer reads keys.
final class PendingPage: Sendable {
  let page: Int
  private let result = Mutex<Result<Data, FetchError>?>(nil)
  private let task = Mutex<Task<Void, Never>?>(nil)

  /// Starts fetching `url` with `fetcher`.
  init(page: Int, url: URL, fetcher: FeedFetcher) {
    self.page = page
    let started = Task { [self] in
      let body: Result<Data, FetchError>
      do throws(FetchError) {
        body = .success(try await fetcher.fetch(url))
      } catch {
        body = .failure(error)
      }
      result.withLock { $0 = body }
    }
    task.withLock { $0 = started }
  }

  /// The body, or why it did not come, once it is there.
  var outcome: Result<Data, FetchError>? { result.withLock { $0 } }

  func cancel() {
    task.withLock { $0?.cancel() }
  }
}
