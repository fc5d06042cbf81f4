import FallsBase
import FallsFeed
import Foundation

/// Where a feed's pages come from, and how each is read: a URL's pages fetched within the
/// fetch policy's limits, a file, standard input or the built-in feed read at once within
/// `--max-bytes`, each page decoded and its sizes read from its images as `--sizes` asks.
/// ``FeedPages`` lays out what it gives.
struct PageSource {
  var options: LayoutOptions
  let environment: CLIEnvironment
  let fetcher: FeedFetcher
  /// Where a slow request, each retry and the images read are told, if anywhere.
  let progress: Progress?

  init(options: LayoutOptions, environment: CLIEnvironment, progress: Progress?) {
    self.options = options
    self.environment = environment
    self.progress = progress
    fetcher = options.fetcher(environment: environment, progress: progress)
  }

  /// The URL of page `page` (from 1), for a URL feed.
  func url(page: Int) -> URL? {
    guard case .url(let template) = options.feed else { return nil }
    return template.url(page: page, size: options.pageSize)
  }

  /// Page `page`'s bytes: fetched from its URL, or read from the file, standard input or the
  /// built-in feed.
  func bytes(page: Int) async throws(CLIError) -> FeedBytes {
    guard let url = url(page: page) else { return try bytesAtOnce() }
    // A request that takes more than a second says what it waits for: on a queue of its own,
    // which a busy pool of tasks does not hold up.
    let waiting = progress.map { progress in
      DispatchWorkItem { progress.waiting(for: url.absoluteString, page: page) }
    }
    if let waiting { DispatchQueue.global().asyncAfter(deadline: .now() + 1, execute: waiting) }
    defer { waiting?.cancel() }
    do {
      return try await fetcher.fetchFeed(url)
    } catch {
      throw .fetch(error)
    }
  }

  /// The bytes of a feed that is not a URL's, nor generated.
  func bytesAtOnce() throws(CLIError) -> FeedBytes {
    switch options.feed {
    case .embedded:
      return FeedBytes(data: Data(EmbeddedFeed.json.utf8))
    case .standardInput:
      do throws(FeedError) {
        return try environment.standardInput(
          atMost: options.fetchPolicy.maxBytes, limitsRegularFile: limitsRegularFile)
      } catch {
        throw .feed(error)
      }
    case .file(let path):
      let bytes: FeedBytes
      do throws(FeedError) {
        bytes = try FeedReader.load(
          path: path, maxBytes: options.fetchPolicy.maxBytes,
          limitsRegularFile: limitsRegularFile, writerTimeout: options.fetchPolicy.timeout)
      } catch {
        // A URL given without its scheme reads as a path that is not there.
        if case .unreadable(_, let reason) = error, access(path, F_OK) != 0,
          let url = FeedURLTemplate.url(meantBy: path)
        {
          throw .feed(.unreadable(path: path, reason: "\(reason); did you mean \(url)?"))
        }
        throw .feed(error)
      }
      var located = bytes
      located.location = .file(path: path)
      return located
    case .url, .synthetic:
      preconditionFailure("only a feed's own bytes are read at once")
    }
  }

  /// Whether a regular file (given by path or as standard input) is held to `--max-bytes`:
  /// only when the flag is given. Its size is known, and it can be neither endless nor a bomb,
  /// which is what the default guards against.
  private var limitsRegularFile: Bool { options.given[.maxBytes] != nil }

  /// Decodes one page of the feed `options` name: a URL's body that is not JSON is a fetch
  /// failure (69), not bad data.
  static func decode(_ bytes: FeedBytes, options: LayoutOptions) throws(CLIError) -> Feed {
    do throws(FeedReadError) {
      // Sizes to be read from the images may be missing from the feed.
      return try FeedDecoder.decodePage(
        bytes, shape: options.shape,
        allowingMissingSizes: options.command == .probe || options.sizes != .feed)
    } catch {
      switch error {
      case .fetch(let failure): throw .fetch(failure)
      case .feed(let problem): throw .feed(problem)
      }
    }
  }

  /// `feed`, the page whose first item is feed index `firstIndex`, with its items' sizes read
  /// from their images as `--sizes` asks, over `fetcher` (``ImageBatch/sized(_:every:shape:skipInvalid:done:)``).
  /// An image that cannot be read is an error naming its item (69 when it cannot be had, 65
  /// when it is no image or refused), or with `--skip-invalid` the item is skipped.
  static func sized(
    _ feed: Feed, options: LayoutOptions, fetcher: FeedFetcher, progress: Progress?,
    firstIndex: Int
  ) async throws(CLIError) -> Feed {
    guard options.sizes != .feed else { return feed }
    do throws(FeedItemProblem) {
      return try await options.images(over: fetcher).sized(
        feed, every: options.sizes == .images, shape: options.shape,
        skipInvalid: options.skipInvalid, done: progress?.probedImages)
    } catch {
      var numbered = error
      numbered.index += firstIndex
      throw numbered.isImages ? .image(numbered) : .feed(.invalidItems([numbered]))
    }
  }
}
