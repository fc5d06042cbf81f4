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

  /// How far an image's ratio may be from the feed's, as a fraction of it, by default.
  static let tolerance = 0.01

  /// How many images may be read at once (`--jobs`).
  static let jobRange = 1...64

  static var help: String {
    let about =
      "Each item is ok, a mismatch (its ratio is off the feed's by more than --tolerance), "
      + "missing (the feed gives no size), unreachable (no answer, a non-2xx status), "
      + "notAnImage (an HTML page, text, or no known header in the first "
      + "\(ImageProber.mostBytes >> 20) MiB), or refused (not read, by rule: a remote feed's "
      + "local file, another scheme). Read: \(ImageFormat.listed) (a JPEG with its EXIF "
      + "orientation); orientations 5 to 8 swap the sides, as browsers and UIImage show them. "
      + "An image is asked for its first \(ImageProber.rangeBytes >> 10) KiB, never read whole."
    var text =
      HelpText.labelled(
        "OVERVIEW: ",
        "Read the first bytes of every item's image and report its size as it is shown, "
          + "beside the feed's.") + "\n\nUSAGE: falls probe [FEED] [options]\n\n"
      + HelpText.prose(about) + "\n"
    text += "\n" + HelpText.arguments + "\nOPTIONS:\n"
    for flag in LayoutFlag.all where flag.commands.contains(.probe) {
      text +=
        HelpText.heading(of: flag, for: .probe) + "\n"
        + wrap(flag.fullHelp(for: .probe), indent: 6, width: HelpText.width) + "\n"
    }
    text += """

      EXIT STATUS:
        0    every item is ok
        1    some item is not ok (the report says which)
        64, 65, 66, 69   the feed cannot be read, as for falls layout

      """
    return text
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
    var skipped: [FeedItemProblem] = []
    var sizeProblems: [FeedItemProblem] = []
    for page in 1...options.pages {
      let feed: Feed
      do throws(CLIError) {
        feed = try await pages.readNextFeed()
      } catch {
        progress.clear()
        throw options.pages > 1 ? .page(page, error) : error
      }
      if feed.items.isEmpty, feed.problems.isEmpty, page > 1 { break }
      items += feed.items
      locations += repeatElement(feed.location, count: feed.items.count)
      skipped += feed.problems
      sizeProblems += feed.sizeProblems
    }
    progress.clear()
    for problem in skipped {
      try? environment.standardError.write(
        escapingControlCharacters("falls: skipped \(problem.message)\n", keepingNewlines: true))
    }
    let tolerance =
      options.given[.tolerance] != nil
      ? options.configuration.tolerance : Self.tolerance
    let probes = await probeAll(
      Array(zip(items.map(\.img), locations)), prober: prober(options, pages.fetcher),
      jobs: options.jobs, progress: progress)
    progress.clear()
    let refused = Dictionary(
      sizeProblems.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    return ProbeReport(
      items: zip(items, probes).map {
        ProbedItem($0, probe: $1, tolerance: tolerance, declaredProblem: refused[$0.index])
      },
      feed: options.feed.name, tolerance: tolerance,
      skipped: options.skipInvalid ? skipped : nil)
  }

  /// The prober of images as `options` ask, over `fetcher`.
  static func prober(_ options: LayoutOptions, _ fetcher: FeedFetcher) -> ImageProber {
    ImageProber(fetcher: fetcher, allowingLocalImages: options.allowsLocalImages)
  }

  /// The probe of every image, each an item's `img` and where its feed came from, in their
  /// order, `jobs` at a time; on a terminal the progress says how many are done.
  static func probeAll(
    _ images: [(img: String, location: FeedLocation)], prober: ImageProber, jobs: Int,
    progress: Progress? = nil
  ) async -> [ImageProbe] {
    await withTaskGroup(of: (Int, ImageProbe).self) { group in
      var results = [ImageProbe?](repeating: nil, count: images.count)
      var next = 0
      func start() {
        guard next < images.count else { return }
        let (position, image) = (next, images[next])
        next += 1
        group.addTask { (position, await prober.probe(image.img, in: image.location)) }
      }
      for _ in 0..<min(jobs, images.count) { start() }
      var done = 0
      while let (position, probe) = await group.next() {
        results[position] = probe
        done += 1
        progress?.probed(done, of: images.count)
        start()
      }
      return results.map { $0 ?? ImageProbe(.unreachable("not probed"), bytesRead: 0) }
    }
  }
}
