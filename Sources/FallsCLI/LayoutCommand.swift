import FallsBase
import FallsCore
import FallsFeed
import FallsOutput
import Foundation

/// Where `falls layout` reads its feed from.
enum FeedSource: Equatable {
  /// The feed compiled into the binary.
  case embedded
  /// Standard input (`--feed -`).
  case standardInput
  /// A file.
  case file(String)
  /// Generated items (`--synthetic N`), heights between a minimum and a maximum.
  case synthetic(count: Int, minimumHeight: Double, maximumHeight: Double)
  /// An http or https URL, possibly with `{page}` and `{size}` placeholders.
  case url(FeedURLTemplate)
}

/// The parsed flags of `falls layout`.
struct LayoutOptions {
  var feed = FeedSource.embedded
  var configuration = LayoutConfiguration()
  var format = OutputFormat.table
  var skipInvalid = false
  /// How many pages to load (URLs only).
  var pages = 1
  /// The `{size}` of a paginated URL.
  var pageSize = 20
  /// Whether to print the pages that arrived when a later one fails.
  var keepPartial = false
  /// Whether to hide the progress display.
  var quiet = false
  /// Deadline, retries and size limit for URLs.
  var fetchPolicy = FetchPolicy(userAgent: "falls/\(CLI.version)")
  /// The flag and text that set each configuration value, to name them in messages.
  var sources: [LayoutParameter: (flag: String, text: String)] = [:]
  var columnsText: String?
  /// The flags given, by name without dashes.
  var given: Set<String> = []
  /// Header and footer extents and the least content extent (one section).
  var headerHeight = 0.0
  var footerHeight = 0.0
  var minimumContentHeight = 0.0
  /// Print only the elements intersecting this rectangle.
  var rect: Rect?
  /// Write the output to this file instead of standard output.
  var output: String?
}

/// One flag of `falls layout`.
struct LayoutFlag {
  var name: String
  /// The placeholder in help, or `nil` for a flag without a value.
  var value: String?
  var help: String
}

/// `falls layout`: decode a feed, lay it out, print the frames.
enum LayoutCommand {
  static let name = "layout"

  /// The order of the flags in help: input, layout, style-specific, output.
  private static let helpOrder = [
    "feed", "pages", "page-size", "keep-partial", "timeout", "retries", "max-bytes", "quiet",
    "synthetic", "min-height", "max-height", "style", "columns", "min-column-width", "width",
    "column-spacing", "row-spacing", "spacing", "insets", "seed", "enlarge-chance",
    "align-tolerance", "order", "tolerance", "direction", "axis", "scale", "header-height",
    "footer-height", "min-content-height", "pattern", "height", "item-size", "offset", "format",
    "output", "rect", "skip-invalid", "help",
  ]

  static var flags: [LayoutFlag] {
    unorderedFlags.sorted {
      (helpOrder.firstIndex(of: $0.name) ?? .max) < (helpOrder.firstIndex(of: $1.name) ?? .max)
    }
  }

  private static var unorderedFlags: [LayoutFlag] {
    let defaults = LayoutConfiguration()
    let styles = LayoutStyle.allCases.map(\.rawValue).joined(separator: "|")
    let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: "|")
    return [
      LayoutFlag(
        name: "feed", value: "URL|PATH|-",
        help: "The finderlist JSON feed to lay out: an http or https URL, a file, or - for "
          + "standard input. Default: the feed built into falls (50 items)."),
      LayoutFlag(
        name: "pages", value: "N",
        help: "Load N pages of a URL feed in turn, as a user pulling up N − 1 times would; "
          + "an empty page ends the paging early. Default: 1."),
      LayoutFlag(
        name: "page-size", value: "N",
        help: "Items per page, put into a URL's {size} placeholder; a URL's {page} placeholder "
          + "takes the page number, from 1. Without {page} the same URL is fetched for every "
          + "page. Default: 20."),
      LayoutFlag(
        name: "keep-partial", value: nil,
        help: "When a page fails after earlier pages arrived, print those pages (status 0) "
          + "and say on standard error which page failed and why; without it nothing is "
          + "printed and falls exits 69."),
      LayoutFlag(
        name: "timeout", value: "SECONDS",
        help: "Overall deadline of each request, enforced by falls even when a server "
          + "trickles bytes; given, also the longest wait for a FIFO's writer. Default: 15."),
      LayoutFlag(
        name: "retries", value: "N",
        help: "Retries after a failed connection, a timeout, a reset, 429 or 5xx, with "
          + "exponential backoff and jitter (Retry-After is honoured within the deadline); "
          + "other 4xx answers are not retried. 0 to 10. Default: 2."),
      LayoutFlag(
        name: "max-bytes", value: "N",
        help: "Largest feed accepted, in bytes, from any source: a larger file is refused before "
          + "it is read, and a body, standard input, a pipe or a device is read no further. "
          + "Default: 67108864 (64 MiB)."),
      LayoutFlag(
        name: "quiet", value: nil,
        help: "Do not show the page progress that appears on a terminal when several pages "
          + "are fetched."),
      LayoutFlag(
        name: "style", value: styles,
        help: "irregular enlarges random items across two columns and aligns bottoms that "
          + "nearly meet; waterfall places every item in one column; grid repeats a quilt of "
          + "square tiles; circle puts items on a ring; cube turns them on a drum; sphere "
          + "turns them about four axes. Default: \(defaults.style.rawValue)."),
      LayoutFlag(
        name: "pattern", value: "CxR,…",
        help: "grid: the repeating block as tile spans, columns x rows, placed in order at the "
          + "first place they fit (e.g. 2x2,1x1,1x1). Default: the seed's 3-column block, a "
          + "2x2 square at the left, three 1x1 down the right, two 1x1 along the bottom."),
      LayoutFlag(
        name: "height", value: "PT",
        help: "circle, cube, sphere, and any style with --axis horizontal: the viewport "
          + "height (its width is --width). Default: \(formatNumber(defaults.viewportHeight))."),
      LayoutFlag(
        name: "item-size", value: "W[,H]",
        help: "circle, cube, sphere: the size of every item; one number for a square. "
          + "Defaults: circle 50, cube 260,100, sphere 30."),
      LayoutFlag(
        name: "offset", value: "[X,]Y",
        help: "cube (Y) and sphere (X,Y): the scroll offset the items turn with. Default: 0."),
      LayoutFlag(
        name: "synthetic", value: "N",
        help: "Lay out N generated items instead of a feed, their heights drawn from --seed "
          + "between --min-height and --max-height points (in the waterfall style exactly "
          + "those heights)."),
      LayoutFlag(
        name: "min-height", value: "PT",
        help: "With --synthetic: the smallest height. "
          + "Default: \(formatNumber(SyntheticFeed.defaultMinimumHeight))."),
      LayoutFlag(
        name: "max-height", value: "PT",
        help: "With --synthetic: the largest height. "
          + "Default: \(formatNumber(SyntheticFeed.defaultMaximumHeight))."),
      LayoutFlag(
        name: "order", value: "shortest|left-to-right|right-to-left",
        help: "Which column an item goes to: the shortest (leftmost on ties), or columns in "
          + "turn from the left or from the right, whatever their heights. Default: shortest."),
      LayoutFlag(
        name: "tolerance", value: "PT",
        help: "With --order shortest: columns whose bottom is within PT of the shortest count as "
          + "tied, and the first tied one at or after the column following the previous item "
          + "wins (CSS grid-lanes' flow tolerance). Default: 0, plain shortest-first."),
      LayoutFlag(
        name: "direction", value: "ltr|rtl",
        help: "rtl counts columns from the right, for right-to-left apps. Default: ltr."),
      LayoutFlag(
        name: "axis", value: "vertical|horizontal",
        help: "horizontal lays out rows that share the viewport height (--height) and grow to "
          + "the right: the same rules with x and y exchanged. Default: vertical."),
      LayoutFlag(
        name: "min-column-width", value: "PT",
        help: "Instead of --columns: as many columns (rows) as fit at this width, at least one."),
      LayoutFlag(
        name: "header-height", value: "PT",
        help: "A header of this height above the columns, across the full width, printed as an "
          + "element of kind header. Default: 0, none."),
      LayoutFlag(
        name: "footer-height", value: "PT",
        help: "A footer of this height below the columns, printed as an element of kind footer. "
          + "Default: 0, none."),
      LayoutFlag(
        name: "min-content-height", value: "PT",
        help: "The content is at least this tall (CHT's minimumContentHeight). Default: 0."),
      LayoutFlag(
        name: "scale", value: "S",
        help: "Align every frame edge to the 1/S point grid (2 or 3 on phones; 1 to 1000): "
          + "spacing and insets round to the grid, gaps stay exact, and no error accumulates "
          + "down a column."),
      LayoutFlag(
        name: "rect", value: "X,Y,W,H",
        help: "Print only the elements that intersect this rectangle, as a collection view asks "
          + "for what is on screen (the content height stays the whole content's)."),
      LayoutFlag(
        name: "columns", value: "N",
        help: "Number of columns, 1 to \(LayoutConfiguration.maximumColumns). "
          + "Default: \(defaults.columns)."),
      LayoutFlag(
        name: "width", value: "PT",
        help: "Container width in points. Default: \(formatNumber(defaults.width))."),
      LayoutFlag(
        name: "column-spacing", value: "PT",
        help: "Gap between columns. Default: \(formatNumber(defaults.columnSpacing))."),
      LayoutFlag(
        name: "row-spacing", value: "PT",
        help: "Gap between an item and the next in its column. "
          + "Default: \(formatNumber(defaults.rowSpacing))."),
      LayoutFlag(
        name: "spacing", value: "PT",
        help: "Sets both gaps; --column-spacing and --row-spacing override it."),
      LayoutFlag(
        name: "insets", value: "T,L,B,R|ALL",
        help: "Space around the columns: top, left, bottom, right, or one value for all. "
          + "Default: \(formatNumber(defaults.insets.top))."),
      LayoutFlag(
        name: "seed", value: "N",
        help: "Seed of the random stream (SplitMix64), 0 to \(UInt64.max); the same seed gives "
          + "the same layout everywhere. Default: \(defaults.seed)."),
      LayoutFlag(
        name: "enlarge-chance", value: "P",
        help: "Chance, 0 to 1, that an item that may be enlarged is enlarged (irregular). "
          + "Default: \(formatNumber(defaults.enlargeChance))."),
      LayoutFlag(
        name: "align-tolerance", value: "R",
        help: "An item whose bottom lands within R times its height of a neighbour column's "
          + "bottom is stretched or shrunk to meet it (irregular). R is at least 0 and below 1; "
          + "0 turns this off. Default: \(formatNumber(defaults.alignTolerance))."),
      LayoutFlag(
        name: "format", value: formats,
        help: "table for people, json for one document (schema \(LayoutReport.schema)), "
          + "jsonl for one item per line, svg for a picture of the layout (items coloured "
          + "plain, enlarged or aligned, labelled with their index), html for a page showing "
          + "the feed's images at their frames. Default: table."),
      LayoutFlag(
        name: "output", value: "FILE",
        help: "Write the output to FILE instead of standard output. A file is written beside "
          + "itself and renamed into place when complete, so a failure or an interruption "
          + "never leaves half a file, and keeps its mode; a file you may not write is "
          + "refused, as the shell's > refuses it; a symbolic link's target is replaced, the "
          + "link kept; a device or FIFO such as /dev/null is written as it is; - is standard "
          + "output."),
      LayoutFlag(
        name: "skip-invalid", value: nil,
        help: "Lay out the valid items of a feed with invalid ones, keeping their feed index, "
          + "and list every skipped item on standard error."),
      LayoutFlag(name: "help", value: nil, help: "Show this help."),
    ]
  }

  static var help: String {
    var text = """
      OVERVIEW: Lay out an image feed as a waterfall and print every item's frame.

      USAGE: falls layout [--feed URL|PATH|-] [--pages N] [--style STYLE] [--columns N]
                          [--format table|json|jsonl|svg|html] [--output FILE]
                          [options]

      Frames are in points, origin at the top left, y growing downward.

      OPTIONS:

      """
    for flag in flags {
      let head = "  --\(flag.name)" + (flag.value.map { " \($0)" } ?? "")
      text += head + "\n"
      text += wrap(flag.help, indent: 6, width: 80) + "\n"
    }
    text += """

      EXAMPLES:
        falls layout
        falls layout --columns 4 --format json | jq '.items[] | select(.enlarged)'
        falls layout --feed feed.json --style waterfall --insets 0 --spacing 4
        falls layout --columns 4 --format html --output feed.html
        falls layout --feed 'https://example.com/list?page={page}&size={size}' --pages 3
        curl -s https://example.com/finderlist | falls layout --feed - --format jsonl

      EXIT STATUS:
        0 success, 64 bad usage, 65 bad feed data, 66 feed file unreadable,
        69 feed URL not fetched (network, HTTP status, too large, not JSON),
        73 --output file not creatable, 74 output not writable,
        141 standard output closed by its reader.

      """
    return text
  }

  /// Parses the arguments after `layout`.
  static func parse(_ arguments: [String]) throws(CLIError) -> LayoutOptions {
    if arguments.contains("--help") || arguments.contains("-h") {
      throw .informational(help)
    }
    var options = LayoutOptions()
    var spacing: (text: String, value: Double)?
    var patternText: String?
    var minimumColumnWidth: Double?
    var offsetHasX = false
    var synthetic: Int?
    var minimumHeight = SyntheticFeed.defaultMinimumHeight
    var maximumHeight = SyntheticFeed.defaultMaximumHeight
    var columnSpacingGiven = false
    var rowSpacingGiven = false
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw usage(
          "unexpected argument '\(escapingControlCharacters(argument))'; falls layout takes only "
            + "options")
      }
      let body = argument.dropFirst(2)
      let name: String
      var inlineValue: String?
      if let equals = body.firstIndex(of: "=") {
        name = String(body[..<equals])
        inlineValue = String(body[body.index(after: equals)...])
      } else {
        name = String(body)
      }
      guard let flag = flags.first(where: { $0.name == name }) else {
        throw usage(
          "unknown option '--\(escapingControlCharacters(name))'\(suggestion(for: name))")
      }
      options.given.insert(name)
      guard let placeholder = flag.value else {
        if inlineValue != nil { throw usage("'--\(name)' takes no value") }
        switch name {
        case "skip-invalid": options.skipInvalid = true
        case "keep-partial": options.keepPartial = true
        case "quiet": options.quiet = true
        default: break
        }
        continue
      }
      let text: String
      if let inlineValue {
        text = inlineValue
      } else if let next = remaining.first, !(next.hasPrefix("--") && next.count > 2) {
        text = next
        remaining.removeFirst()
      } else {
        throw usage("missing value for '--\(name) <\(placeholder)>'")
      }
      let flagName = "--\(name)"
      var configuration = options.configuration
      switch name {
      case "feed":
        options.feed = try feedSource(text)
      case "style":
        guard let style = LayoutStyle(rawValue: text) else {
          throw invalid(
            flagName, text,
            expected: "one of \(placeholder.split(separator: "|").joined(separator: ", "))")
        }
        configuration.style = style
      case "columns":
        guard let columns = Int(text) else {
          throw invalid(
            flagName, text,
            expected: "a whole number from 1 to \(LayoutConfiguration.maximumColumns)",
            example: "--columns 3")
        }
        configuration.columns = columns
        options.columnsText = text
      case "width":
        configuration.width = try number(flagName, text, example: "--width 375")
        options.sources[.width] = (flagName, text)
      case "column-spacing":
        configuration.columnSpacing = try number(flagName, text, example: "--column-spacing 10")
        options.sources[.columnSpacing] = (flagName, text)
        columnSpacingGiven = true
      case "row-spacing":
        configuration.rowSpacing = try number(flagName, text, example: "--row-spacing 10")
        options.sources[.rowSpacing] = (flagName, text)
        rowSpacingGiven = true
      case "spacing":
        spacing = (text, try number(flagName, text, example: "--spacing 10"))
      case "insets":
        configuration.insets = try insets(text)
        for parameter in [LayoutParameter.topInset, .leftInset, .bottomInset, .rightInset] {
          options.sources[parameter] = (flagName, text)
        }
      case "seed":
        guard let seed = UInt64(text) else {
          throw invalid(
            flagName, text, expected: "a whole number from 0 to \(UInt64.max)",
            example: "--seed 42")
        }
        configuration.seed = seed
      case "enlarge-chance":
        configuration.enlargeChance = try number(flagName, text, example: "--enlarge-chance 0.5")
        options.sources[.enlargeChance] = (flagName, text)
      case "align-tolerance":
        configuration.alignTolerance = try number(
          flagName, text, example: "--align-tolerance 0.1")
        options.sources[.alignTolerance] = (flagName, text)
      case "pages":
        options.pages = try whole(
          flagName, text, in: 1...1_000_000, example: "--pages 3")
      case "page-size":
        options.pageSize = try whole(
          flagName, text, in: 1...1_000_000, example: "--page-size 20")
      case "retries":
        options.fetchPolicy.retries = try whole(flagName, text, in: 0...10, example: "--retries 2")
      case "max-bytes":
        options.fetchPolicy.maxBytes = try whole(
          flagName, text, in: 1...(1 << 40), example: "--max-bytes 1048576")
      case "timeout":
        let seconds = try number(flagName, text, example: "--timeout 15")
        guard seconds > 0, seconds <= 86_400 else {
          throw invalid(flagName, text, expected: "a number of seconds above 0, at most 86400")
        }
        options.fetchPolicy.timeout = seconds
      case "pattern":
        patternText = text
      case "order":
        guard let order = PlacementOrder(rawValue: text) else {
          throw invalid(flagName, text, expected: "one of shortest, left-to-right, right-to-left")
        }
        configuration.order = order
      case "tolerance":
        configuration.tolerance = try number(flagName, text, example: "--tolerance 20")
        options.sources[.tolerance] = (flagName, text)
      case "direction":
        guard let direction = LayoutDirection(rawValue: text) else {
          throw invalid(flagName, text, expected: "ltr or rtl")
        }
        configuration.direction = direction
      case "axis":
        guard let axis = LayoutAxis(rawValue: text) else {
          throw invalid(flagName, text, expected: "vertical or horizontal")
        }
        configuration.axis = axis
      case "min-column-width":
        let value = try number(flagName, text, example: "--min-column-width 120")
        guard value > 0, value <= LayoutConfiguration.maximumLength else {
          throw invalid(flagName, text, expected: "a number of points above 0, at most 1000000000")
        }
        minimumColumnWidth = value
      case "header-height", "footer-height", "min-content-height":
        let value = try number(flagName, text, example: "--\(name) 44")
        guard value >= 0, value <= LayoutConfiguration.maximumLength else {
          throw invalid(flagName, text, expected: "a number of at least 0, at most 1000000000")
        }
        switch name {
        case "header-height": options.headerHeight = value
        case "footer-height": options.footerHeight = value
        default: options.minimumContentHeight = value
        }
      case "scale":
        configuration.scale = try number(flagName, text, example: "--scale 3")
        options.sources[.scale] = (flagName, text)
      case "rect":
        let values = try numbers(flagName, text, counts: [4], example: "--rect 0,0,375,812")
        guard values[2] >= 0, values[3] >= 0 else {
          throw invalid(flagName, text, expected: "a width and a height of at least 0")
        }
        options.rect = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
      case "height":
        configuration.viewportHeight = try number(flagName, text, example: "--height 667")
        options.sources[.viewportHeight] = (flagName, text)
      case "item-size":
        let values = try numbers(flagName, text, counts: [1, 2], example: "--item-size 260,100")
        configuration.itemSize = Size(width: values[0], height: values.last ?? values[0])
        options.sources[.itemWidth] = (flagName, text)
        options.sources[.itemHeight] = (flagName, text)
      case "offset":
        let values = try numbers(flagName, text, counts: [1, 2], example: "--offset 0,667")
        configuration.offset = Point(
          x: values.count == 2 ? values[0] : 0, y: values[values.count - 1])
        offsetHasX = values.count == 2
        options.sources[.offsetX] = (flagName, text)
        options.sources[.offsetY] = (flagName, text)
      case "synthetic":
        synthetic = try whole(flagName, text, in: 0...100_000_000, example: "--synthetic 1000")
      case "min-height":
        minimumHeight = try number(flagName, text, example: "--min-height 100")
      case "max-height":
        maximumHeight = try number(flagName, text, example: "--max-height 250")
      case "format":
        guard let format = OutputFormat(rawValue: text) else {
          let names = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
          throw invalid(flagName, text, expected: "one of \(names)")
        }
        options.format = format
      case "output":
        guard !text.isEmpty else { throw invalid(flagName, text, expected: "a file name, or -") }
        options.output = text
      default:
        throw usage("option '--\(name)' is not handled")
      }
      options.configuration = configuration
    }
    if let spacing {
      if !columnSpacingGiven {
        options.configuration.columnSpacing = spacing.value
        options.sources[.columnSpacing] = ("--spacing", spacing.text)
      }
      if !rowSpacingGiven {
        options.configuration.rowSpacing = spacing.value
        options.sources[.rowSpacing] = ("--spacing", spacing.text)
      }
    }
    try checkStyleFlags(options, offsetHasX: offsetHasX)
    if let minimumColumnWidth {
      let geometry = options.configuration.geometry
      options.configuration.columns = LayoutConfiguration.columnCount(
        width: geometry.width, insets: geometry.insets, columnSpacing: geometry.columnSpacing,
        minimumColumnWidth: minimumColumnWidth)
    }
    if let patternText {
      options.configuration.pattern = try pattern(
        patternText, columns: options.configuration.columns)
    }
    if let synthetic {
      guard !options.given.contains("feed") else {
        throw usage("--synthetic generates the feed; give --synthetic or --feed, not both")
      }
      guard minimumHeight > 0, maximumHeight <= LayoutConfiguration.maximumLength,
        minimumHeight <= maximumHeight
      else {
        throw usage(
          "--min-height \(formatNumber(minimumHeight)) and --max-height "
            + "\(formatNumber(maximumHeight)) must be above 0, at most 1000000000, and the "
            + "minimum no larger than the maximum")
      }
      options.feed = .synthetic(
        count: synthetic, minimumHeight: minimumHeight, maximumHeight: maximumHeight)
    } else if let flag = ["min-height", "max-height"].first(where: options.given.contains) {
      throw usage("--\(flag) needs --synthetic N")
    }
    try validate(options)
    if options.pages > 1 {
      switch options.feed {
      case .url: break
      case .embedded, .standardInput, .file, .synthetic:
        throw usage(
          "--pages \(options.pages) needs a URL feed; a file, standard input or the built-in "
            + "feed is one page")
      }
    }
    return options
  }

  /// The styles each style-specific flag applies to.
  static let flagStyles: [String: [LayoutStyle]] = [
    "columns": [.irregular, .waterfall, .grid],
    "column-spacing": [.irregular, .waterfall, .grid],
    "row-spacing": [.irregular, .waterfall, .grid],
    "spacing": [.irregular, .waterfall, .grid],
    "insets": [.irregular, .waterfall, .grid],
    "enlarge-chance": [.irregular],
    "align-tolerance": [.irregular],
    "pattern": [.grid],
    "height": [.circle, .cube, .sphere],
    "item-size": [.circle, .cube, .sphere],
    "offset": [.cube, .sphere],
    "order": [.irregular, .waterfall],
    "tolerance": [.irregular, .waterfall],
    "direction": [.irregular, .waterfall, .grid],
    "min-column-width": [.irregular, .waterfall, .grid],
    "header-height": [.irregular, .waterfall, .grid],
    "footer-height": [.irregular, .waterfall, .grid],
    "min-content-height": [.irregular, .waterfall, .grid],
    "scale": [.irregular, .waterfall, .grid],
    "axis": [.irregular, .waterfall, .grid],
  ]

  /// Refuses a flag the chosen style does not use, rather than ignoring it.
  private static func checkStyleFlags(_ options: LayoutOptions, offsetHasX: Bool)
    throws(CLIError)
  {
    let style = options.configuration.style
    for name in options.given.sorted() {
      guard let styles = flagStyles[name], !styles.contains(style) else { continue }
      // A horizontal layout's rows share the viewport height.
      if name == "height", options.configuration.axis == .horizontal { continue }
      let names = styles.map(\.rawValue).joined(separator: ", ")
      throw usage(
        "--\(name) does not apply to the \(style.rawValue) style; it is for \(names)")
    }
    if style == .cube, offsetHasX {
      throw usage("the cube turns as it scrolls vertically: give --offset Y, not X,Y")
    }
    if options.given.contains("tolerance"), options.configuration.order != .shortest {
      throw usage(
        "--tolerance applies to --order shortest, not \(options.configuration.order.rawValue)")
    }
    if options.given.contains("min-column-width"), options.given.contains("columns") {
      throw usage("give --columns or --min-column-width, not both")
    }
  }

  private static func numbers(
    _ flag: String, _ text: String, counts: Set<Int>, example: String
  ) throws(CLIError) -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let values = parts.compactMap { parseDecimal(String($0)) }
    guard values.count == parts.count, counts.contains(values.count) else {
      let shape = counts.sorted().map { $0 == 1 ? "one number" : "\($0) numbers" }
        .joined(separator: " or ")
      throw invalid(flag, text, expected: "\(shape), separated by commas", example: example)
    }
    return values
  }

  private static func pattern(_ text: String, columns: Int) throws(CLIError) -> QuiltPattern {
    var spans: [(columns: Int, rows: Int)] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let sides = part.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) else {
        throw invalid(
          "--pattern", text, expected: "tile spans as CxR separated by commas",
          example: "--pattern 2x2,1x1,1x1")
      }
      spans.append((width, height))
    }
    do {
      return try QuiltPattern(spans: spans, columns: columns)
    } catch {
      let detail: String
      switch error {
      case .empty: detail = "it has no tiles"
      case .invalidSpan(let index):
        detail = "tile \(index + 1) has a span outside 1 to \(QuiltPattern.maximumSpan)"
      case .outOfBounds(let index, let columns):
        detail = "tile \(index + 1) is wider than the \(columns) columns"
      case .overlap(let index): detail = "tile \(index + 1) overlaps another"
      }
      throw usage("--pattern '\(text)': \(detail)")
    }
  }

  private static func whole(
    _ flag: String, _ text: String, in range: ClosedRange<Int>, example: String
  ) throws(CLIError) -> Int {
    guard let value = Int(text), range.contains(value) else {
      throw invalid(
        flag, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
        example: example)
    }
    return value
  }

  /// Checks the configuration with the core's rules and names the flag of a bad value.
  private static func validate(_ options: LayoutOptions) throws(CLIError) {
    let configuration = options.configuration
    do {
      try configuration.validate()
    } catch {
      switch error {
      case .invalidColumnCount(let count):
        throw invalid(
          "--columns", options.columnsText ?? String(count),
          expected: "a whole number from 1 to \(LayoutConfiguration.maximumColumns)",
          example: "--columns 3")
      case .invalidValue(let parameter, let value):
        let source = options.sources[parameter] ?? ("--\(parameter.rawValue)", formatNumber(value))
        throw invalid(source.flag, source.text, expected: parameter.expectation)
      case .noRoomForColumns(let columnWidth):
        let insets = configuration.insets
        throw usage(
          "--width \(formatNumber(configuration.width)) leaves no room for "
            + "\(configuration.columns) column\(configuration.columns == 1 ? "" : "s"): "
            + "with --column-spacing \(formatNumber(configuration.columnSpacing)) and insets "
            + "left \(formatNumber(insets.left)), right \(formatNumber(insets.right)) "
            + "a column would be \(formatFixed(columnWidth)) pt wide; "
            + "use fewer columns, less spacing, smaller insets or a larger width")
      case .patternWidth(let patternColumns, let columns):
        throw usage(
          "the grid's default block is \(patternColumns) columns wide, but --columns is "
            + "\(columns); use --columns \(patternColumns) or give --pattern")
      case .notApplicable(let option, let style):
        throw usage("--\(option) does not apply to the \(style.rawValue) style")
      case .invalidItemSize, .heightOverflow, .heightUnderflow:
        throw usage("unexpected layout error \(error)")
      }
    }
  }

  private static func feedSource(_ text: String) throws(CLIError) -> FeedSource {
    if text == "-" { return .standardInput }
    if text.isEmpty {
      throw invalid("--feed", text, expected: "a URL, a file path, or - for standard input")
    }
    guard FeedURLTemplate.looksLikeURL(text) else { return .file(text) }
    do {
      return .url(try FeedURLTemplate(text))
    } catch {
      let what: String
      switch error {
      case .unparseable: what = "is not a valid URL"
      case .unsupportedScheme(let scheme): what = "has the scheme '\(scheme ?? "")'"
      case .noHost: what = "has no host"
      }
      throw usage(
        "--feed '\(escapingControlCharacters(redactingCredentials(text)))' \(what); expected an "
          + "http or https URL "
          + "(e.g. --feed https://example.com/feed.json), a file path, or -")
    }
  }

  private static func number(_ flag: String, _ text: String, example: String) throws(CLIError)
    -> Double
  {
    guard let value = parseDecimal(text) else {
      throw invalid(flag, text, expected: "a decimal number", example: example)
    }
    return value
  }

  private static func insets(_ text: String) throws(CLIError) -> EdgeInsets {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let values = parts.map { part in
      parseDecimal(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
    }
    guard parts.count == 1 || parts.count == 4, let first = values.first,
      let top = first, values.allSatisfy({ $0 != nil })
    else {
      throw invalid(
        "--insets", text, expected: "four numbers T,L,B,R or one for all edges",
        example: "--insets 10,10,20,10")
    }
    if parts.count == 1 { return EdgeInsets(all: top) }
    let all = values.compactMap { $0 }
    return EdgeInsets(top: all[0], left: all[1], bottom: all[2], right: all[3])
  }

  private static func usage(_ message: String) -> CLIError {
    .usage(message, command: name)
  }

  private static func invalid(
    _ flag: String, _ text: String, expected: String, example: String? = nil
  ) -> CLIError {
    let tail = example.map { " (e.g. \($0))" } ?? ""
    let shown = escapingControlCharacters(redactingCredentials(text))
    return usage("invalid value '\(shown)' for '\(flag)'; expected \(expected)\(tail)")
  }

  private static func suggestion(for name: String) -> String {
    let candidates = flags.map(\.name).map { ($0, editDistance($0, name)) }
    guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return "" }
    return "; did you mean '--\(best.0)'?"
  }
}

/// The Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  var previous = Array(0...b.count)
  for (i, characterA) in a.enumerated() {
    var current = [i + 1] + Array(repeating: 0, count: b.count)
    for (j, characterB) in b.enumerated() {
      let substitution = previous[j] + (characterA == characterB ? 0 : 1)
      current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, substitution)
    }
    previous = current
  }
  return previous[b.count]
}

/// Wraps `text` at word boundaries to lines of at most `width` characters, indented.
func wrap(_ text: String, indent: Int, width: Int) -> String {
  let prefix = String(repeating: " ", count: indent)
  var lines: [String] = []
  var line = prefix
  for word in text.split(separator: " ") {
    if line.count > indent, line.count + 1 + word.count > width {
      lines.append(line)
      line = prefix
    }
    line += (line.count > indent ? " " : "") + word
  }
  lines.append(line)
  return lines.joined(separator: "\n")
}
