import FallsBase
import FallsFeed

/// A feed's pages read one after another, as `falls layout`, `falls check` and `falls probe`
/// read them, so that the page flags mean the same in each: up to `--pages` pages; an empty
/// page ends the run (it is told when more were asked for); a page that fails after the first
/// ends it with `--keep-partial`, the pages before kept, and is the run's error without.
struct PageRun {
  /// The invalid items `--skip-invalid` skipped, over the pages read.
  private(set) var skipped: [FeedItemProblem] = []
  /// What is told on standard error after the skipped items: empty and failed pages, and what
  /// a command adds (``tell(_:)``).
  private(set) var notes: [String] = []
  /// The page that failed, with `--keep-partial`.
  private(set) var failedPage: LayoutReport.FailedPage?
  /// How many pages were read, and how many items they held, valid or not.
  private(set) var pagesRead = 0
  private(set) var itemsRead = 0

  /// Reads the pages `options` ask for, each by `next`, which returns its feed and how many
  /// items it held, valid or not, and may tell notes of its own; throws the error of a page that failed (numbered when more
  /// were asked for) and, when every item read was skipped, ``CLIError/noValidItem(skipped:first:)``.
  static func read(
    _ options: LayoutOptions, progress: Progress,
    next: (inout PageRun) async throws(CLIError) -> (feed: Feed, count: Int)
  ) async throws(CLIError) -> PageRun {
    var run = PageRun()
    for page in 1...options.pages {
      progress.fetching(page: page, items: run.itemsRead - run.skipped.count)
      do throws(CLIError) {
        let (feed, count) = try await next(&run)
        if count == 0, options.pages > 1 {
          run.tell(
            "page \(page) of \(options.pages) is empty: the feed has no more items after "
              + "\(run.itemsRead)")
          break
        }
        run.skipped += feed.problems
        (run.pagesRead, run.itemsRead) = (page, run.itemsRead + count)
      } catch {
        progress.clear()
        // Output that could not be written (lines streamed as pages arrive) is no page's
        // failure: it ends the run as it is.
        if case .output = error { throw error }
        guard page > 1, options.keepPartial else {
          throw options.pages > 1 ? .page(page, error) : error
        }
        let message = outcome(of: error).message
        run.failedPage = LayoutReport.FailedPage(page: page, pages: options.pages, error: message)
        run.tell(
          "page \(page) of \(options.pages) failed, printing the \(page - 1) "
            + "page\(page == 2 ? "" : "s") that arrived (\(run.kept) items): \(message)")
        break
      }
    }
    progress.finish(pages: run.pagesRead, items: run.kept)
    let first = run.skipped.first
    if let error = FeedPages.noValidItem(read: run.itemsRead, kept: run.kept, first: first) {
      throw error
    }
    return run
  }

  /// How many items the pages read held that were valid.
  var kept: Int { itemsRead - skipped.count }

  /// Adds a note to tell after the run.
  mutating func tell(_ note: String) {
    notes.append(note)
  }

  /// Writes to standard error each item skipped, how many were, of how many, and what was
  /// done with the rest (`done`: "laid out"), then the notes. Written 64 KiB at a time: a feed
  /// of millions of invalid items is listed whole without its list being held as one text.
  func report(to environment: CLIEnvironment, done: String) {
    var text = ""
    func send(_ line: String, last: Bool = false) {
      text += line
      guard text.utf8.count >= 1 << 16 || last, !text.isEmpty else { return }
      try? environment.standardError.write(escapingControlCharacters(text, keepingNewlines: true))
      text = ""
    }
    for problem in skipped { send("falls: skipped \(problem.message)\n") }
    if !skipped.isEmpty {
      send("falls: skipped \(skipped.count) of \(itemsRead) items; \(done) \(kept)\n")
    }
    for note in notes { send("falls: \(note)\n") }
    send("", last: true)
  }
}
