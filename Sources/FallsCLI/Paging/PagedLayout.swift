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
    let run = try await PageRun.read(options, progress: progress) { (run) throws(CLIError) in
      let (feed, count) = try await pages.loadNext()
      for note in spanNotes(feed.items, page: pages.page, configuration: options.configuration) {
        run.tell(note)
      }
      return (feed, count)
    }
    if options.configuration.flatEnd { pages.flattenEnd() }
    // Output that goes to standard output, with or without --output, is fitted to its terminal.
    let toStandardOutput =
      options.output.map { (try? OutputFile.target(for: $0)) == .descriptor(1) } ?? true
    run.report(to: environment, done: "laid out")
    return LayoutReport(
      sectioned: pages.sectioned, items: pages.placed, rect: options.rect,
      fields: options.fields.map(Set.init),
      terminalColumns: toStandardOutput ? environment.standardOutputColumns : nil,
      showsQualityOnly: options.quality, feed: options.feed.name,
      skipped: options.skipInvalid ? run.skipped : nil, failedPage: run.failedPage)
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
