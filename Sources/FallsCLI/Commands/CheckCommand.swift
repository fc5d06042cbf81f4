import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// `falls check`: lays a feed out as `falls layout` would and checks it: the rules on its
/// frames, the limits given, and with `--images` every image.
enum CheckCommand {
  static let name = CommandName.check.rawValue

  /// The formats `falls check` writes.
  static let formats: [OutputFormat] = [.table, .json]

  /// What each of ``formats`` is for, as the help says it.
  static func summary(of format: OutputFormat) -> String {
    format == .json
      ? "for one document (schema \(CheckReport.schema))" : "for people, a line a check"
  }

  static var help: String {
    let about =
      "Checks that the feed reads and its items are valid (with --skip-invalid the report "
      + "lists the items skipped, counted by the figure skipped), that the layout's rules hold "
      + "on its frames (each inside the content width, no two overlapping, in the irregular "
      + "style no two enlarged side by side or stacked), that each --limit holds, and with "
      + "--images that every image is ok as falls probe reads it. Takes the options of falls "
      + "layout that read the feed and make the layout (not --quality, --fields or --rect, "
      + "which shape its output); -f is table or json (schema \(CheckReport.schema))."
    return HelpText.page(
      .check, overview: "Lay out a feed as falls layout would and check the layout, for CI.",
      about: about,
      examples: [
        "falls check feed.json --limit 'maxDistortion<=0.1' --limit 'items>=20'",
        "falls check 'https://example.com/list?page={page}' --pages 3 --images -f json",
      ],
      exitStatus: ExitCode.helpLines([
        ([.success], "every check passes"),
        ([.failure], "some check fails (the report says which)"),
        (ExitCode.feedFailures, "the feed cannot be laid out, as for falls layout"),
      ]))
  }

  /// Parses the arguments after `check`: those of `falls layout`, `--limit` and `--images`.
  static func parse(_ arguments: [String], standardInputIsFeed: Bool = false) throws(CLIError)
    -> LayoutOptions
  {
    let options = try LayoutCommand.parse(
      arguments, for: .check, standardInputIsFeed: standardInputIsFeed)
    let style = options.configuration.style
    if !style.usesItemSizes,
      let limit = options.limits.first(where: { $0.figure.isQuality })
    {
      throw .usage(
        "--limit \(limit.figure.rawValue): the quality figures measure the "
          + "\(LayoutStyle.ofItemSizes.listed) styles, not \(style.rawValue)", command: name)
    }
    return options
  }

  /// Lays the feed out and checks it.
  static func run(_ options: LayoutOptions, environment: CLIEnvironment) async throws(CLIError)
    -> CheckReport
  {
    // The feed's pages and the images share one --max-time.
    var options = options
    options.fetchPolicy.start = .now
    let report = try await PagedLayout.run(options, environment: environment)
    let layout = report.layout
    var checks: [CheckReport.Check] = []
    var problems: [CheckReport.Problem] = []
    // Always checked: a gate that passes on no item at all is none.
    checks.append(
      CheckReport.Check(
        name: CheckLimit.Figure.items.rawValue, value: Double(layout.elements.count),
        limit: CheckLimit(figure: .items, comparison: .above, value: 0)))
    let found = FrameAudit.problems(of: layout.elements, configuration: layout.configuration)
    for rule in FrameAudit.Problem.Rule.rules(of: layout.configuration.style) {
      let broken = found.filter { $0.rule == rule }
      checks.append(CheckReport.Check(name: rule.rawValue, value: Double(broken.count), limit: nil))
      // The audit names elements by their place in the layout; the report by feed index.
      problems += broken.map { problem in
        .rule(rule, indices: problem.indices.map { report.items.feedIndex(at: $0) })
      }
    }
    let quality = report.items.quality(of: layout)
    for limit in options.limits {
      let value: Double =
        switch limit.figure {
        case .items: Double(layout.elements.count)
        case .skipped: Double(report.skipped?.count ?? 0)
        case .contentHeight: report.sectioned.contentExtent
        default:
          quality.flatMap { quality in
            LayoutQuality.names.firstIndex(of: limit.figure.rawValue).map { quality.values[$0] }
          } ?? 0
        }
      checks.append(CheckReport.Check(name: limit.figure.rawValue, value: value, limit: limit))
    }
    if options.checksImages {
      let items = (0..<report.items.count).map { position in
        let size = report.items.layoutItem(at: position)
        return FeedItem(
          index: report.items.feedIndex(at: position),
          img: report.items.withImage(at: position) { String(decoding: $0, as: UTF8.self) },
          width: size.width, height: size.height)
      }
      let images = items.indices.map { (items[$0].img, report.items.location(at: $0)) }
      let probes = await options.images(over: options.fetcher(environment: environment))
        .probeAll(images)
      let probed = zip(items, probes).map {
        ProbedItem($0, probe: $1, tolerance: ImageBatch.tolerance)
      }
      let failing = probed.filter { $0.status != ProbedItem.Status.ok }
      // An item skipped for its image (--sizes with --skip-invalid) was an image not ok too.
      let skipped = (report.skipped ?? []).filter(\.isImages)
      checks.append(
        CheckReport.Check(
          name: "images", value: Double(failing.count + skipped.count), limit: nil))
      problems += skipped.map(CheckReport.Problem.skipped)
      problems += failing.map(CheckReport.Problem.image)
    }
    return CheckReport(
      checks: checks, problems: problems, skipped: report.skipped, failedPage: report.failedPage)
  }
}
