import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The body of `falls layout`: loads the feed page by page, appends each page to one layout, and
/// reports skipped items, empty and failed pages on standard error.
///
/// With `--format jsonl --keep-partial` and more than one page, to standard output, the lines
/// are streamed: as each page arrives, those of the items it skipped and of the elements it made
/// final (``WaterfallLayout/heldBackCount``; with a flat end, every page but the newest that
/// held items) are written, so that a reader has them before the next page is asked for. Only
/// with `--keep-partial`, where a page that fails is kept rather than the run's error, only
/// once an item is laid out, so that no error can follow the lines written, and only in the
/// styles whose earlier elements stay where they are (not the ring styles, which place every
/// item again as more come).
enum PagedLayout {
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError)
    -> LayoutReport
  {
    let progress = Progress(for: options, environment: environment)
    var pages = FeedPages(options: options, environment: environment, progress: progress)
    let streams =
      options.command == .layout && options.format == .jsonl && options.keepPartial
      && options.pages > 1 && !options.quality && options.output == nil
      && !options.configuration.style.hasTransforms
    var streamed: LayoutReport.Streamed?
    // Where the newest page that placed items starts: a flat end places it again.
    var newestStart = 0
    let run = try await PageRun.read(options, progress: progress) { (run) throws(CLIError) in
      let before = pages.layout.elements.count
      let (feed, count) = try await pages.loadNext()
      if pages.layout.elements.count > before { newestStart = before }
      for note in spanNotes(feed.items, page: pages.page, configuration: options.configuration) {
        run.tell(note)
      }
      if streams {
        let skipped = run.skipped + feed.problems
        // With a flat end the newest page that placed items is placed again at the end: none
        // of it is final.
        let header = options.headerHeight > 0 ? 1 : 0
        let final =
          header
          + (options.configuration.flatEnd
            ? newestStart : pages.layout.elements.count - pages.layout.heldBackCount)
        if pages.layout.elements.count > 0 {
          streamed = try stream(
            Self.report(options, pages: pages, skipped: skipped, failedPage: nil, streamed: nil),
            from: streamed ?? LayoutReport.Streamed(),
            to: LayoutReport.Streamed(positions: final, skipped: skipped.count),
            environment: environment)
        }
      }
      return (feed, count)
    }
    if options.configuration.flatEnd { pages.flattenEnd() }
    // Output that goes to standard output, with or without --output, is fitted to its terminal.
    let toStandardOutput =
      options.output.map { (try? OutputFile.target(for: $0)) == .descriptor(1) } ?? true
    run.report(to: environment, done: "laid out")
    var written = Self.report(
      options, pages: pages, skipped: run.skipped, failedPage: run.failedPage, streamed: streamed)
    written.terminalColumns = toStandardOutput ? environment.standardOutputColumns : nil
    return written
  }

  /// The report of the pages laid out so far.
  private static func report(
    _ options: LayoutOptions, pages: FeedPages, skipped: [FeedItemProblem],
    failedPage: LayoutReport.FailedPage?, streamed: LayoutReport.Streamed?
  ) -> LayoutReport {
    var report = LayoutReport(
      sectioned: pages.sectioned, items: pages.placed, rect: options.rect,
      fields: options.fields.map(Set.init), terminalColumns: nil,
      showsQualityOnly: options.quality, feed: options.feed.name,
      skipped: options.skipInvalid ? skipped : nil, failedPage: failedPage)
    report.streamed = streamed
    return report
  }

  /// Writes to standard output the JSON Lines of `report` from what was streamed up to `end`
  /// (the skipped items and the elements), and returns what has been streamed now.
  private static func stream(
    _ report: LayoutReport, from start: LayoutReport.Streamed, to end: LayoutReport.Streamed,
    environment: CLIEnvironment
  ) throws(CLIError) -> LayoutReport.Streamed {
    let end = LayoutReport.Streamed(
      positions: max(end.positions, start.positions), skipped: max(end.skipped, start.skipped))
    var out = OutputBuffer(sink: environment.standardOutput)
    do {
      try report.writeJSONLines(
        skipped: start.skipped..<end.skipped, positions: start.positions..<end.positions,
        to: &out)
      try out.flush()
    } catch {
      throw .output(error)
    }
    return end
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
