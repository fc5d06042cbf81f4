import FallsBase
import FallsCore
import FallsFeed

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

/// What `falls layout` and `falls view` were asked to do.
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
  /// The flags given, by name without dashes, with the text of the last of each.
  var given: [String: String] = [:]
  /// Header and footer extents and the least content extent (one section).
  var headerHeight = 0.0
  var footerHeight = 0.0
  var minimumContentHeight = 0.0
  /// Print only the elements intersecting this rectangle.
  var rect: Rect?
  /// Write the output to this file instead of standard output.
  var output: String?
}

/// The options while the flags are read, and the values that only make sense once all are.
struct LayoutReading {
  var options = LayoutOptions()
  /// The flag and text that set each configuration value, to name them in the layout's errors.
  var sources: [LayoutParameter: FlagValue] = [:]
  var spacing: (value: FlagValue, spacing: Double)?
  var pattern: FlagValue?
  var minimumColumnWidth: Double?
  var offsetHasX = false
  var synthetic: Int?
  var minimumHeight = SyntheticFeed.defaultMinimumHeight
  var maximumHeight = SyntheticFeed.defaultMaximumHeight
}

/// `falls layout`: decode a feed, lay it out, print the frames. Its flags are the table of
/// ``LayoutFlag``.
enum LayoutCommand {
  static let name = "layout"

  /// A usage error of `falls layout`, which points to its help.
  static func usage(_ message: String) -> CLIError {
    .usage(message, command: name)
  }

  /// Parses the arguments after `layout`.
  static func parse(_ arguments: [String]) throws(CLIError) -> LayoutOptions {
    if arguments.contains("--help") || arguments.contains("-h") {
      throw .informational(HelpText.layout)
    }
    var reading = LayoutReading()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw usage(
          "unexpected argument '\(escapingControlCharacters(argument))'; falls layout takes only "
            + "options")
      }
      let body = argument.dropFirst(2)
      let equals = body.firstIndex(of: "=")
      let name = String(body[..<(equals ?? body.endIndex)])
      let inline = equals.map { String(body[body.index(after: $0)...]) }
      guard let flag = LayoutFlag.named(name) else {
        throw usage(
          "unknown option '--\(escapingControlCharacters(name))'\(HelpText.suggestion(for: name))")
      }
      let text: String
      if let placeholder = flag.value {
        if let inline {
          text = inline
        } else if let next = remaining.first, !(next.hasPrefix("--") && next.count > 2) {
          text = next
          remaining.removeFirst()
        } else {
          throw usage("missing value for '--\(name) <\(placeholder)>'")
        }
      } else {
        if inline != nil { throw usage("'--\(name)' takes no value") }
        text = ""
      }
      let value = FlagValue(flag: name, text: text)
      do {
        try flag.read(&reading, value)
      } catch let error as CLIError {
        throw error
      } catch {
        preconditionFailure("a flag's reader throws only usage errors: \(error)")
      }
      reading.options.given[name] = text
      for parameter in flag.parameters { reading.sources[parameter] = value }
    }
    try finish(&reading)
    return reading.options
  }

  /// What only all the flags together decide: the shared spacing, the flags a style or a feed
  /// does not take, the values worked out from others, and the layout's own checks.
  private static func finish(_ reading: inout LayoutReading) throws(CLIError) {
    let given = reading.options.given
    if let (value, spacing) = reading.spacing {
      if given["column-spacing"] == nil {
        reading.options.configuration.columnSpacing = spacing
        reading.sources[.columnSpacing] = value
      }
      if given["row-spacing"] == nil {
        reading.options.configuration.rowSpacing = spacing
        reading.sources[.rowSpacing] = value
      }
    }
    var configuration = reading.options.configuration
    // A flag the style would ignore is refused.
    for name in given.keys.sorted() {
      guard let option = LayoutFlag.named(name)?.option, !configuration.uses(option) else {
        continue
      }
      let styles = LayoutStyle.allCases.filter { LayoutConfiguration(style: $0).uses(option) }
      throw usage(
        "--\(name) does not apply to the \(configuration.style.rawValue) style; it is for "
          + styles.map(\.rawValue).joined(separator: ", "))
    }
    if configuration.style == .cube, reading.offsetHasX {
      throw usage("the cube turns as it scrolls vertically: give --offset Y, not X,Y")
    }
    if given["tolerance"] != nil, configuration.order != .shortest {
      throw usage("--tolerance applies to --order shortest, not \(configuration.order.rawValue)")
    }
    if given["min-column-width"] != nil, given["columns"] != nil {
      throw usage("give --columns or --min-column-width, not both")
    }
    if let minimumColumnWidth = reading.minimumColumnWidth {
      let geometry = configuration.geometry
      configuration.columns = LayoutConfiguration.columnCount(
        width: geometry.width, insets: geometry.insets, columnSpacing: geometry.columnSpacing,
        minimumColumnWidth: minimumColumnWidth)
    }
    if let pattern = reading.pattern {
      configuration.pattern = try pattern.pattern(columns: configuration.columns)
    }
    reading.options.configuration = configuration
    if let count = reading.synthetic {
      guard given["feed"] == nil else {
        throw usage("--synthetic generates the feed; give --synthetic or --feed, not both")
      }
      let (minimum, maximum) = (reading.minimumHeight, reading.maximumHeight)
      guard minimum > 0, maximum <= LayoutConfiguration.maximumLength, minimum <= maximum else {
        throw usage(
          "--min-height \(formatNumber(minimum)) and --max-height \(formatNumber(maximum)) must "
            + "be above 0, at most 1000000000, and the minimum no larger than the maximum")
      }
      reading.options.feed = .synthetic(
        count: count, minimumHeight: minimum, maximumHeight: maximum)
    } else if let flag = ["min-height", "max-height"].first(where: { given[$0] != nil }) {
      throw usage("--\(flag) needs --synthetic N")
    }
    try validate(reading)
    if reading.options.pages > 1 {
      switch reading.options.feed {
      case .url: break
      case .embedded, .standardInput, .file, .synthetic:
        throw usage(
          "--pages \(reading.options.pages) needs a URL feed; a file, standard input or the "
            + "built-in feed is one page")
      }
    }
  }

  /// Checks the configuration with the layout's own rules, and names the flag of a bad value.
  private static func validate(_ reading: LayoutReading) throws(CLIError) {
    let configuration = reading.options.configuration
    do {
      try configuration.validate()
    } catch {
      switch error {
      case .invalidValue(let parameter, let value):
        let source =
          reading.sources[parameter]
          ?? FlagValue(flag: parameter.rawValue, text: formatNumber(value))
        throw source.invalid(expected: parameter.expectation)
      case .noRoomForColumns(let columnWidth):
        let insets = configuration.insets
        let columns = configuration.columns
        throw usage(
          "--width \(formatNumber(configuration.width)) leaves no room for \(columns) "
            + "column\(columns == 1 ? "" : "s"): with --column-spacing "
            + "\(formatNumber(configuration.columnSpacing)) and insets left "
            + "\(formatNumber(insets.left)), right \(formatNumber(insets.right)) a column would "
            + "be \(formatFixed(columnWidth)) pt wide; use fewer columns, less spacing, smaller "
            + "insets or a larger width")
      case .patternWidth(let patternColumns, let columns):
        throw usage(
          "the grid's default block is \(patternColumns) columns wide, but --columns is "
            + "\(columns); use --columns \(patternColumns) or give --pattern")
      case .invalidColumnCount, .notApplicable, .invalidItemSize, .heightOverflow,
        .heightUnderflow:
        // --columns is read in range, --min-column-width counts within it, a style's foreign
        // flags are refused above; no item is laid out yet.
        preconditionFailure("the layout refused what the flags were checked for: \(error)")
      }
    }
  }
}
