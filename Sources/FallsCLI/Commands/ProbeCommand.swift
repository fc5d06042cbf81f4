import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// `falls probe`: reads the first bytes of every item's image and reports its size as shown,
/// beside the feed's.
enum ProbeCommand {
  static let name = CommandName.probe.rawValue

  /// The formats `falls probe` writes.
  static let formats: [OutputFormat] = [.table, .json, .jsonl]

  /// What each of ``formats`` is for, as the help says it.
  static func summary(of format: OutputFormat) -> String {
    switch format {
    case .json: "for one document (schema \(ProbeReport.schema)) with the counts"
    case .jsonl: "for one item per line"
    default: "for people, with the counts"
    }
  }

  static var help: String {
    let about =
      "Each item is ok, a mismatch (its ratio is off the feed's by more than --tolerance), "
      + "missing (the feed gives no size), unreachable (no answer, a non-2xx status), "
      + "notAnImage (an HTML page, text, or no known header in the first "
      + "\(ImageProber.mostBytes >> 20) MiB), or refused (not read, by rule: a remote feed's "
      + "local file, another scheme). Read: \(ImageFormat.listed) (a JPEG with its EXIF "
      + "orientation); orientations 5 to 8 swap the sides, as browsers and UIImage show them. "
      + "An image is asked for its first \(ImageProber.rangeBytes >> 10) KiB, never read whole."
    return HelpText.page(
      .probe,
      overview: "Read the first bytes of every item's image and report its size as it is shown, "
        + "beside the feed's.", about: about,
      exitStatus: ExitCode.helpLines([
        ([.success], "every item is ok"),
        ([.failure], "some item is not ok (the report says which)"),
        (ExitCode.feedFailures, "the feed cannot be read, as for falls layout"),
      ]))
  }

  /// Parses the arguments after `probe`: the feed flags of `falls layout`, the output flags,
  /// `--jobs` and `--tolerance`.
  static func parse(_ arguments: [String], standardInputIsFeed: Bool = false) throws(CLIError)
    -> LayoutOptions
  {
    try LayoutCommand.parse(arguments, for: .probe, standardInputIsFeed: standardInputIsFeed)
  }

  /// Reads the feed, probes every item's image, `--jobs` at once, and returns the report.
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError)
    -> ProbeReport
  {
    let progress = Progress(for: options, environment: environment)
    var pages = FeedPages(options: options, environment: environment, progress: progress)
    var items: [FeedItem] = []
    var locations: [FeedLocation] = []
    var sizeProblems: [FeedItemProblem] = []
    let run = try await PageRun.read(options, progress: progress) { (_) throws(CLIError) in
      let feed = try await pages.readNextFeed()
      items += feed.items
      locations += repeatElement(feed.location, count: feed.items.count)
      sizeProblems += feed.sizeProblems
      return (feed, feed.items.count + feed.problems.count)
    }
    run.report(to: environment, done: "probing")
    let tolerance =
      options.given[.tolerance] != nil
      ? options.configuration.tolerance : ImageBatch.tolerance
    let probes = await options.images(over: pages.fetcher).probeAll(
      Array(zip(items.map(\.img), locations)), done: progress.probedImages)
    progress.clear()
    let refused = Dictionary(
      sizeProblems.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    return ProbeReport(
      items: zip(items, probes).map {
        ProbedItem($0, probe: $1, tolerance: tolerance, declaredProblem: refused[$0.index])
      },
      feed: options.feed.name, tolerance: tolerance,
      skipped: options.skipInvalid ? run.skipped : nil, failedPage: run.failedPage)
  }
}
