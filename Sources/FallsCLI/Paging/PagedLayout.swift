import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The body of `falls layout`: loads the feed page by page, appends each page to one layout, and
/// reports skipped items, empty and failed pages on standard error.
enum PagedLayout {
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError)
    -> LayoutReport
  {
    let progress = Progress(for: options, environment: environment)
    var pages = FeedPages(options: options, environment: environment, progress: progress)
    var skipped: [FeedItemProblem] = []
    var notes: [String] = []
    var pagesLoaded = 0
    var failedPage: LayoutReport.FailedPage?
    for page in 1...options.pages {
      progress.fetching(page: page, items: pages.placed.count)
      do throws(CLIError) {
        let (feed, count) = try await pages.loadNext()
        if count == 0, options.pages > 1 {
          notes.append(
            "page \(page) of \(options.pages) is empty: the feed has no more items after "
              + "\(pages.nextIndex)")
          break
        }
        notes += spanNotes(feed.items, page: page, configuration: options.configuration)
        skipped += feed.problems
        pagesLoaded = page
      } catch {
        progress.clear()
        guard page > 1, options.keepPartial else {
          throw options.pages > 1 ? .page(page, error) : error
        }
        let message = outcome(of: error).message
        failedPage = LayoutReport.FailedPage(page: page, pages: options.pages, error: message)
        notes.append(
          "page \(page) of \(options.pages) failed, printing the \(page - 1) "
            + "page\(page == 2 ? "" : "s") that arrived (\(pages.placed.count) items): \(message)")
        break
      }
    }
    progress.finish(pages: pagesLoaded, items: pages.placed.count)
    if let error = pages.noValidItem { throw error }
    if options.configuration.flatEnd { pages.flattenEnd() }
    // Output that goes to standard output, with or without --output, is fitted to its terminal.
    let toStandardOutput =
      options.output.map { (try? OutputFile.target(for: $0)) == .descriptor(1) } ?? true
    // Written 64 KiB at a time: a feed of millions of invalid items is listed whole without
    // its list being held as one text.
    var text = ""
    func send(_ line: String, last: Bool = false) {
      text += line
      guard text.utf8.count >= 1 << 16 || last, !text.isEmpty else { return }
      try? environment.standardError.write(escapingControlCharacters(text, keepingNewlines: true))
      text = ""
    }
    for problem in skipped { send("falls: skipped \(problem.message)\n") }
    if !skipped.isEmpty {
      let (laidOut, total) = (pages.placed.count, pages.placed.count + skipped.count)
      send("falls: skipped \(skipped.count) of \(total) items; laid out \(laidOut)\n")
    }
    for note in notes { send("falls: \(note)\n") }
    send("", last: true)
    return LayoutReport(
      sectioned: pages.sectioned, items: pages.placed, rect: options.rect,
      fields: options.fields.map(Set.init),
      terminalColumns: toStandardOutput ? environment.standardOutputColumns : nil,
      showsQualityOnly: options.quality, feed: options.feed.name,
      skipped: options.skipInvalid ? skipped : nil, failedPage: failedPage)
  }

  /// What happens to the spans of page `page`'s items: a style outside the columns family
  /// ignores them, and the columns clamp a span wider than they are.
  static func spanNotes(_ items: FeedItems, page: Int, configuration: LayoutConfiguration)
    -> [String]
  {
    let columns = configuration.columns
    guard configuration.style.usesItemSizes else {
      let spanning = items.indices.count { items.span(at: $0) != 1 }
      guard spanning > 0 else { return [] }
      return [
        "the \(configuration.style.rawValue) style ignores the span of \(spanning) "
          + "item\(spanning == 1 ? "" : "s") on page \(page)"
      ]
    }
    return items.indices.compactMap { position in
      let span = items.span(at: position)
      guard span > columns, span != LayoutItem.fullSpan else { return nil }
      return "item \(items.feedIndex(at: position)) asks to span \(span) columns; clamped to "
        + "the \(columns) there are"
    }
  }
}
