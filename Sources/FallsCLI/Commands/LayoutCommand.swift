import FallsBase
import FallsCore
import FallsFeed

/// `falls layout`: decode a feed, lay it out, print the frames. Its flags are the table of
/// ``LayoutFlag``.
enum LayoutCommand {
  static let name = "layout"

  /// A usage error of `falls layout`, which points to its help.
  static func usage(_ message: String) -> CLIError {
    .usage(message, command: name)
  }

  /// Parses the arguments after `layout` (or after `view`, as `command`): flags in any order,
  /// long (`--columns 4`, `--columns=4`) or short (`-c 4`, `-c4`), and at most one feed given as
  /// an argument, as with `--feed`; after `--`, every argument is the feed.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the command's name.
  ///   - command: `layout` or `view`, whose help and messages are given.
  ///   - standardInputIsFeed: Whether standard input holds the feed when none is given (a pipe
  ///     or a file, ``StandardInputKind/holdsFeed``), as jq and ripgrep read it.
  /// - Returns: The options the arguments give.
  /// - Throws: A usage error, or help or the version asked for (``CLIError/informational(_:)``).
  static func parse(
    _ arguments: [String], for command: CommandName = .layout, standardInputIsFeed: Bool = false
  ) throws(CLIError) -> LayoutOptions {
    let options: LayoutOptions
    do {
      options = try read(arguments, for: command, standardInputIsFeed: standardInputIsFeed)
    } catch {
      // Every usage error sends the user to the help of the command they ran.
      guard case .usage(let message, _) = error else { throw error }
      throw .usage(message, command: command.rawValue)
    }
    guard command.formats.isEmpty || command.formats.contains(options.format) else {
      throw .usage(
        "--format \(options.format.rawValue) is for falls layout; falls \(command.rawValue) "
          + "writes \(command.formats.map(\.rawValue).alternatives)", command: command.rawValue)
    }
    return options
  }

  /// The options `arguments` give `command`, before its formats are checked.
  private static func read(
    _ arguments: [String], for command: CommandName, standardInputIsFeed: Bool
  ) throws(CLIError) -> LayoutOptions {
    // Help and the version are asked for before `--`; after it, they are names of feeds.
    let flags = arguments.prefix { $0 != "--" }
    if flags.contains(where: LayoutFlag[.help].spellings.contains) {
      throw .informational(Command[command].help())
    }
    if flags.contains(where: LayoutFlag[.version].spellings.contains) {
      throw .informational(CLI.versionText)
    }
    var reading = LayoutReading()
    reading.options.command = command
    var operands: [String] = []
    var remaining = arguments[...]
    var isOptionsEnd = false
    while let argument = remaining.popFirst() {
      guard !isOptionsEnd, Self.isOption(argument) || argument == "--" else {
        if command.readsFeed, let feed = operands.first {
          throw usage(
            "unexpected argument '\(shownInMessage(argument))'; falls \(command) "
              + "takes one feed, and '\(shownInMessage(feed))' is given")
        }
        operands.append(argument)
        continue
      }
      if argument == "--" {
        isOptionsEnd = true
        continue
      }
      let (flag, inline) = try Self.flag(of: argument, in: command)
      if !flag.commands.contains(command) {
        let takers = CommandName.allCases.filter(flag.commands.contains).map { "'falls \($0)'" }
        throw usage(
          "--\(flag.name) is an option of \(takers.listed), not of 'falls \(command.rawValue)'")
      }
      let text: String
      if let placeholder = flag.value(for: command) {
        if let inline {
          text = inline
        } else if let next = remaining.first, !Self.isOption(next) {
          text = next
          remaining.removeFirst()
        } else {
          throw usage("missing value for '--\(flag.name) <\(placeholder)>'")
        }
      } else {
        if inline != nil { throw usage("'--\(flag.name)' takes no value") }
        text = ""
      }
      let value = FlagValue(flag: flag.name.rawValue, text: text)
      do {
        try flag.read(&reading, value)
      } catch let error as CLIError {
        throw error
      } catch {
        preconditionFailure("a flag's reader throws only usage errors: \(error)")
      }
      reading.options.given[flag.name] = text
      for parameter in flag.parameters { reading.sources[parameter] = value }
    }
    // A command of no feed reads its operands itself (diff's layouts, the shell); a feed
    // command's one operand is its feed.
    guard command.readsFeed else {
      reading.options.operands = operands
      try finish(&reading)
      return reading.options
    }
    if let feed = operands.first {
      guard reading.options.given[.feed] == nil else {
        throw usage("give the feed once: '\(shownInMessage(feed))' or --feed, not both")
      }
      reading.options.feed = try FlagValue(flag: FlagName.feed.rawValue, text: feed).feedSource()
      reading.options.given[.feed] = feed
    } else if standardInputIsFeed, reading.options.given[.feed] == nil {
      reading.options.feed = .standardInput
    }
    try finish(&reading)
    return reading.options
  }

  /// Whether `argument` is a flag rather than a value: `--name`, or `-x` for a letter `x` (so
  /// `-` for standard input and negative numbers are values).
  private static func isOption(_ argument: String) -> Bool {
    let characters = Array(argument.prefix(2))
    return characters.count == 2 && characters[0] == "-"
      && (characters[1] == "-" ? argument.count > 2 : characters[1].isLetter)
  }

  /// The flag `argument` names, and the value given with it (`--name=value`, `-xvalue`).
  private static func flag(of argument: String, in command: CommandName) throws(CLIError)
    -> (LayoutFlag, String?)
  {
    guard argument.hasPrefix("--") else {
      let letter = argument.dropFirst().first ?? "-"
      guard let flag = LayoutFlag.named(short: letter) else {
        let letters = LayoutFlag.all.filter { $0.commands.contains(command) }
          .compactMap { $0.short.map { "-\($0)" } }
        throw usage(
          "unknown option '-\(shownInMessage(String(letter)))'; the one-letter "
            + "options are \(letters.joined(separator: " "))")
      }
      let rest = argument.dropFirst(2)
      return (flag, rest.isEmpty ? nil : String(rest))
    }
    let body = argument.dropFirst(2)
    let equals = body.firstIndex(of: "=")
    let name = String(body[..<(equals ?? body.endIndex)])
    guard let flag = LayoutFlag.named(name) else {
      throw usage(
        "unknown option '--\(shownInMessage(name))'"
          + HelpText.suggestion(for: name, in: command))
    }
    return (flag, equals.map { String(body[body.index(after: $0)...]) })
  }

  /// What only all the flags together decide: the shared spacing, the flags a style or a feed
  /// does not take, the values worked out from others, and the layout's own checks.
  private static func finish(_ reading: inout LayoutReading) throws(CLIError) {
    let given = reading.options.given
    // Without --format, the output file's extension names the format, as it names the picture
    // a browser shows.
    if given[.format] == nil, let output = reading.options.output,
      let format = try OutputFormat.named(
        byOutput: output, command: reading.options.command.rawValue,
        writes: reading.options.command.formats, usage: { usage($0) })
    {
      reading.options.format = format
    }
    // The rest is of layouts, which a command of no feed does not make.
    guard reading.options.command.readsFeed else { return }
    if let (value, spacing) = reading.spacing {
      if given[.columnSpacing] == nil {
        reading.options.configuration.columnSpacing = spacing
        reading.sources[.columnSpacing] = value
      }
      if given[.rowSpacing] == nil {
        reading.options.configuration.rowSpacing = spacing
        reading.sources[.rowSpacing] = value
      }
    }
    var configuration = reading.options.configuration
    // A flag the style would ignore is refused.
    // In the order of the names, so that the same flags are always refused the same way.
    let names = given.keys.sorted { $0.rawValue < $1.rawValue }
    for name in names {
      guard let option = LayoutFlag[name].option, !configuration.uses(option) else {
        continue
      }
      let styles = LayoutStyle.allCases.filter { LayoutConfiguration(style: $0).uses(option) }
      // The viewport height is also every style's with rows (``LayoutConfiguration/uses(_:)``).
      let axis = option == .viewportHeight ? ", and any style with --axis horizontal" : ""
      throw usage(
        "--\(name) does not apply to the \(configuration.style.rawValue) style; it is for "
          + styles.map(\.rawValue).joined(separator: ", ") + axis)
    }
    if reading.offsetHasX, !configuration.uses(.offsetX) {
      throw usage(
        "the \(configuration.style.rawValue) turns as it scrolls vertically: give --offset Y, "
          + "not X,Y")
    }
    if given[.tolerance] != nil, configuration.order != .shortest {
      throw usage("--tolerance applies to --order shortest, not \(configuration.order.rawValue)")
    }
    if given[.minColumnWidth] != nil, given[.columns] != nil {
      throw usage("give --columns or --min-column-width, not both")
    }
    if let minimumColumnWidth = reading.minimumColumnWidth {
      let working = configuration.working
      configuration.columns = LayoutConfiguration.columnCount(
        width: working.width, insets: working.insets, columnSpacing: working.columnSpacing,
        minimumColumnWidth: minimumColumnWidth)
    }
    if let pattern = reading.pattern {
      configuration.pattern = try pattern.pattern(columns: configuration.columns)
    }
    reading.options.configuration = configuration
    if let count = reading.synthetic {
      guard given[.feed] == nil else {
        throw usage("--synthetic generates the feed; give --synthetic or --feed, not both")
      }
      let (minimum, maximum) = (reading.minimumHeight, reading.maximumHeight)
      let heights = LayoutConfiguration.positiveLengths
      guard heights.contains(minimum), heights.contains(maximum), minimum <= maximum else {
        throw usage(
          "--min-height \(formatNumber(minimum)) and --max-height \(formatNumber(maximum)) must "
            + "be \(heights.bounds), and the minimum no larger than the maximum")
      }
      reading.options.feed = .synthetic(
        count: count, minimumHeight: minimum, maximumHeight: maximum)
    }
    // A flag the feed would ignore is refused, as a style's are.
    let kind = reading.options.feed.kind
    for name in names {
      let flag = LayoutFlag[name]
      guard !flag.feeds.contains(kind) else { continue }
      throw usage(
        "--\(name) does not apply to \(kind.description); it is for \(flag.feeds.description)")
    }
    // A flag that the other flags leave without effect is refused too.
    for name in names {
      guard let reason = LayoutFlag[name].isIdle(reading.options) else { continue }
      throw usage("--\(name) \(reason)")
    }
    if reading.options.quality {
      let format = reading.options.format
      guard configuration.style.usesItemSizes else {
        throw usage(
          "--quality measures the layouts of image sizes: the "
            + "\(LayoutStyle.ofItemSizes.listed) styles, not \(configuration.style.rawValue)")
      }
      guard format == .table || format == .json else {
        throw usage("--quality prints its figures as table (the default) or json, not \(format)")
      }
      if given[.fields] != nil || given[.rect] != nil {
        throw usage(
          "--quality prints only the figures of the whole layout; give it without "
            + (given[.fields] != nil ? "--fields" : "--rect"))
      }
    }
    if let fields = reading.options.fields {
      let format = reading.options.format
      let names = LayoutReport.fieldNames(format: format, style: configuration.style)
      guard !names.isEmpty else {
        let takers = OutputFormat.allCases.filter {
          !LayoutReport.fieldNames(format: $0, style: configuration.style).isEmpty
        }
        throw usage(
          "--fields does not apply to --format \(format); it is for "
            + takers.map(\.rawValue).joined(separator: ", "))
      }
      // Names match in any case, and are kept as the format spells them.
      let byLowercase = Dictionary(names.map { ($0.lowercased(), $0) }) { first, _ in first }
      if let unknown = fields.first(where: { byLowercase[$0] == nil }) {
        throw usage(
          "--fields '\(shownInMessage(unknown))': --format \(format) of the "
            + "\(configuration.style.rawValue) style has no such field; its fields are "
            + names.joined(separator: ", "))
      }
      reading.options.fields = fields.compactMap { byLowercase[$0] }
    }
    try validate(reading)
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
