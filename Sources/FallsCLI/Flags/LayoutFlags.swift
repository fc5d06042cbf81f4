import FallsCore
import FallsFeed

/// The table of flags: every flag of `falls layout` and `falls view`, in the order of the help.
extension LayoutFlag {
  /// Why `--min-height` and `--max-height` change nothing: a style that does not use item
  /// heights.
  private static let usesHeights: @Sendable (LayoutOptions) -> String? = {
    let style = $0.configuration.style
    return style.usesItemSizes
      ? nil
      : "sets the heights of generated items, which the \(style.rawValue) style does not use; "
        + "it is for the \(LayoutStyle.ofItemSizes.listed) styles"
  }

  /// The commands that take `--format`: those that write a report in one of a few formats.
  private static var formatCommands: Set<CommandName> {
    Set(CommandName.allCases.filter { $0.writesReport && !$0.formats.isEmpty })
  }

  /// What `--format` says and offers in `command`: the formats it writes.
  private static func formatWords(_ command: CommandName) -> Words {
    Words(help: command.formatHelp, choices: command.formats.map(\.rawValue))
  }

  /// A flag of a length of the one section: `field`, from 0 to the longest length.
  private static func sectionLength(
    _ name: FlagName, help: String,
    _ field: WritableKeyPath<LayoutOptions, Double> & Sendable
  ) -> LayoutFlag {
    LayoutFlag(
      name: name, argument: "PT", help: help, option: .sections,
      read: {
        $0.options[keyPath: field] = try $1.number(in: LayoutConfiguration.lengths, example: "44")
      })
  }

  /// Every flag, in the order of the help: input, layout, style options, output.
  static let all: [LayoutFlag] = FlagName.allCases.map(entry)

  /// The flag called `name`.
  static subscript(_ name: FlagName) -> LayoutFlag {
    all[byName[name] ?? 0]
  }

  private static let byName = Dictionary(
    uniqueKeysWithValues: FlagName.allCases.enumerated().map { ($1, $0) })

  /// The table's entry of `name`: every flag once, the compiler checking that none is missing.
  private static func entry(_ name: FlagName) -> LayoutFlag {
    let defaults = LayoutConfiguration()
    let options = LayoutOptions()
    let policy = options.fetchPolicy
    return switch name {
    case .feed:
      LayoutFlag(
        name: name, argument: "URL|PATH|-",
        isPath: true, positional: "FEED",
        help: "The finderlist JSON feed to lay out: an http or https URL, a file, or - for "
          + "standard input. Default: standard input when it is a pipe, a FIFO or a file, else "
          + "the feed built into falls (\(EmbeddedFeed.itemCount) items).",
        commands: .feedReaders, read: { $0.options.feed = try $1.feedSource() })
    case .items:
      LayoutFlag(
        name: name, argument: "PATH",
        help: "Where the feed's array of items is, as keys joined by dots (result.list for "
          + "{\"result\": {\"list\": [...]}}); a segment of digits indexes an array (a.0.b, "
          + "or a[0].b), a leading . is allowed, as in jq. Default: data, or the top level when "
          + "it is an array; in a stream of JSON values (JSON Lines, jq's output), each value is "
          + "an item, or with --items a page holding its items there.",
        feeds: [.file, .standardInput, .url],
        commands: .feedReaders,
        read: { $0.options.shape.items = try $1.keyPath() })
    case .keys:
      LayoutFlag(
        name: name, argument: "FIELD=KEY,…",
        help: "The keys of an item's fields, each as keys joined by dots inside the item "
          + "(width=size.w, img=preview.images.0.source.url): any of img, width and height, "
          + "and span; a field not given keeps "
          + "its own name. Sizes are read as ever, strings or numbers.",
        feeds: [.file, .standardInput, .url],
        commands: .feedReaders,
        read: { try $1.itemKeys(into: &$0.options.shape) })
    case .pages:
      LayoutFlag(
        name: name, argument: "N",
        help: "Load N pages of a URL feed in turn, as a user pulling up N − 1 times would; "
          + "an empty page ends the paging early. Default: \(options.pages).",
        feeds: [.url], commands: .feedReaders,
        read: { $0.options.pages = try $1.whole(in: 1...1_000_000, example: "3") })
    case .pageSize:
      LayoutFlag(
        name: name, argument: "N",
        help: "Items per page, put into a URL's {size} placeholder; a URL's {page} placeholder "
          + "takes the page number, from 1. Without {page} the same URL is fetched for every "
          + "page. Default: \(options.pageSize).",
        feeds: [.url],
        commands: .feedReaders,
        isIdle: {
          guard case .url(let template) = $0.feed, !template.hasPageSize else { return nil }
          return "fills a URL's {size} placeholder, and this URL has none"
        },
        read: { $0.options.pageSize = try $1.whole(in: 1...1_000_000, example: "20") })
    case .keepPartial:
      LayoutFlag(
        name: name,
        help: "When a page fails after earlier pages arrived, print those pages (status 0) "
          + "and say on standard error which page failed and why; without it nothing is "
          + "printed and falls exits \(ExitCode.unavailable.rawValue). With -f jsonl to "
          + "standard output, each page's final lines are written as it arrives.",
        feeds: [.url], commands: .feedReporters,
        isIdle: {
          $0.pages > 1
            ? nil : "keeps the pages that arrived before a later one failed; give --pages 2 or more"
        },
        read: { reading, _ in reading.options.keepPartial = true })
    case .timeout:
      LayoutFlag(
        name: name, argument: "SECONDS",
        help: "Overall deadline of each request, and of one image's requests together (falls "
          + "probe, --sizes, falls check --images), enforced by falls even when a server "
          + "trickles bytes; also the longest wait for a FIFO's writer. "
          + "Default: \(formatNumber(policy.timeout)).",
        feeds: [.url, .file],
        commands: .feedReaders,
        read: {
          $0.options.fetchPolicy.timeout = try $1.number(
            in: FetchPolicy.deadlines, of: "a number of seconds", example: "15")
        })
    case .maxTime:
      LayoutFlag(
        name: name, argument: "SECONDS",
        help: "One deadline over every request, retry and page of the run, as curl's "
          + "--max-time: when it passes, falls stops with \(ExitCode.unavailable.rawValue) (or, with --keep-partial, prints "
          + "the pages that arrived). Default: \(policy.maxTime.map(formatNumber) ?? "none").",
        feeds: [.url], commands: .feedReporters,
        read: {
          $0.options.fetchPolicy.maxTime = try $1.number(
            in: FetchPolicy.deadlines, of: "a number of seconds", example: "30")
        })
    case .retries:
      LayoutFlag(
        name: name, argument: "N",
        help: "Retries after a failed connection, a timeout, a reset, 429 or 5xx, with "
          + "exponential backoff and jitter (Retry-After is honoured within the deadline); "
          + "other 4xx answers are not retried. \(FetchPolicy.retryCounts.lowerBound) to "
          + "\(FetchPolicy.retryCounts.upperBound). Default: \(policy.retries).",
        feeds: [.url],
        commands: .feedReaders,
        read: {
          $0.options.fetchPolicy.retries = try $1.whole(in: FetchPolicy.retryCounts, example: "2")
        })
    case .maxBytes:
      LayoutFlag(
        name: name, argument: "N",
        help: "Largest feed accepted, in bytes: a body, a pipe, a device or standard input "
          + "that is not a file is read no further; given, a larger regular file is refused "
          + "before it is read. Default: \(policy.maxBytes) (\(policy.maxBytes >> 20) MiB), and no "
          + "limit for a regular file, "
          + "whose size is known.",
        feeds: [.url, .file, .standardInput],
        commands: Set.feedReaders.union([.diff]),
        inCommands: [
          .diff: Words(
            help: "Largest input read, in bytes: standard input, a pipe or a device is read no "
              + "further (\(ExitCode.noInput.rawValue)); given, a larger regular file is refused "
              + "before it is read. Default: \(policy.maxBytes) (\(policy.maxBytes >> 20) MiB), "
              + "and no limit for a regular file, whose size is known.")
        ],
        read: {
          $0.options.fetchPolicy.maxBytes = try $1.whole(
            in: FetchPolicy.byteLimits, example: "1048576")
        })
    case .quiet:
      LayoutFlag(
        name: name, short: "q",
        help: "Do not show the progress that appears on a terminal while a URL feed loads (the "
          + "page fetched when there are several, a request that has taken more than a second, "
          + "each retry) and while images are read (falls probe, --sizes): how many are done.",
        feeds: [.builtIn, .file, .standardInput, .url], commands: .feedReporters,
        isIdle: {
          guard $0.command != .probe, $0.sizes == .feed, $0.feed.kind != .url else { return nil }
          return "hides the progress shown while a URL feed loads or images are read; give a URL "
            + "feed or --sizes images or fill"
        },
        read: { reading, _ in reading.options.quiet = true })
    case .sizes:
      LayoutFlag(
        name: name, choices: SizeSource.names,
        help: "Where the items' sizes come from: feed, as the feed gives them; images, every "
          + "item's image read for the size it is shown at (its first bytes, as falls probe "
          + "reads them); fill, the images of only the items whose size the feed does not give. "
          + "An image that cannot be read is an error naming it, or with --skip-invalid skipped "
          + "and listed. Default: \(options.sizes.rawValue).",
        feeds: [.builtIn, .file, .standardInput, .url],
        read: { $0.options.sizes = try $1.choice(SizeSource.self) })
    case .jobs:
      LayoutFlag(
        name: name, argument: "N",
        help: "How many images are read at once, by falls probe and for --sizes images or "
          + "fill: \(ImageBatch.jobRange.lowerBound) to \(ImageBatch.jobRange.upperBound), "
          + "each on a connection of its own, kept for the next. Default: \(options.jobs).",
        feeds: [.builtIn, .file, .standardInput, .url],
        commands: .feedReaders,
        isIdle: {
          $0.command != .probe && $0.sizes == .feed
            ? "sets how many images are read at once, for --sizes images or fill" : nil
        },
        read: { $0.options.jobs = try $1.whole(in: ImageBatch.jobRange, example: "8") })
    case .allowLocalImages:
      LayoutFlag(
        name: name,
        help: "Read the images that a feed fetched over http or https names as files of this "
          + "machine (file: URLs), for a feed you trust. Without it such an image is refused: "
          + "a remote feed may point only at http, https and data: images, and its relative "
          + "references are its server's, as a browser reads them.",
        feeds: [.url], commands: .feedReaders,
        isIdle: {
          $0.command != .probe && $0.sizes == .feed && !$0.checksImages
            ? "lets a remote feed's images be local files, where images are read: falls probe, "
              + "--sizes images or fill, falls check --images" : nil
        },
        read: { reading, _ in reading.options.allowsLocalImages = true })
    case .synthetic:
      LayoutFlag(
        name: name, argument: "N",
        help: "Lay out N generated items instead of a feed, their heights drawn from --seed "
          + "between --min-height and --max-height points (in the waterfall style exactly "
          + "those heights).",
        read: { $0.synthetic = try $1.whole(in: 0...100_000_000, example: "1000") })
    case .minHeight:
      LayoutFlag(
        name: name, argument: "PT",
        help: "With --synthetic: the smallest height. "
          + "Default: \(formatNumber(SyntheticFeed.defaultMinimumHeight)).",
        feeds: [.generated], isIdle: usesHeights,
        read: { $0.minimumHeight = try $1.number(example: "100") })
    case .maxHeight:
      LayoutFlag(
        name: name, argument: "PT",
        help: "With --synthetic: the largest height. "
          + "Default: \(formatNumber(SyntheticFeed.defaultMaximumHeight)).",
        feeds: [.generated], isIdle: usesHeights,
        read: { $0.maximumHeight = try $1.number(example: "250") })
    case .style:
      LayoutFlag(
        name: name, choices: LayoutStyle.names,
        help: LayoutStyle.allCases.map { "\($0.rawValue) \($0.summary)" }.joined(separator: "; ")
          + ". Default: \(defaults.style.rawValue).",
        read: { $0.options.configuration.style = try $1.choice(LayoutStyle.self) })
    case .columns:
      LayoutFlag(
        name: name, short: "c", argument: "N",
        help: "Number of columns, \(LayoutConfiguration.columnCounts.lowerBound) to "
          + "\(LayoutConfiguration.columnCounts.upperBound). "
          + "Default: \(defaults.columns).",
        option: .columns,
        read: {
          $0.options.configuration.columns = try $1.whole(
            in: LayoutConfiguration.columnCounts, example: "3")
        })
    case .minColumnWidth:
      LayoutFlag(
        name: name, argument: "PT",
        help: "Instead of --columns: as many columns (rows) as fit at this width, at least one.",
        option: .columns,
        read: {
          $0.minimumColumnWidth = try $1.number(
            in: LayoutConfiguration.positiveLengths, of: "a number of points", example: "120")
        })
    case .width:
      LayoutFlag(
        name: name, short: "w", argument: "PT",
        help: "Container width in points. Default: \(formatNumber(defaults.width)).",
        parameters: [.width],
        read: { $0.options.configuration.width = try $1.number(example: "375") })
    case .columnSpacing:
      LayoutFlag(
        name: name, argument: "PT",
        help: "Gap between columns. Default: \(formatNumber(defaults.columnSpacing)).",
        option: .spacing, parameters: [.columnSpacing],
        read: { $0.options.configuration.columnSpacing = try $1.number(example: "10") })
    case .rowSpacing:
      LayoutFlag(
        name: name, argument: "PT",
        help: "Gap between an item and the next in its column. "
          + "Default: \(formatNumber(defaults.rowSpacing)).",
        option: .spacing, parameters: [.rowSpacing],
        read: { $0.options.configuration.rowSpacing = try $1.number(example: "10") })
    case .spacing:
      LayoutFlag(
        name: name, short: "s", argument: "PT",
        help: "Sets both gaps; --column-spacing and --row-spacing override it.",
        option: .spacing,
        read: { $0.spacing = ($1, try $1.number(example: "10")) })
    case .insets:
      LayoutFlag(
        name: name, argument: "T,R,B,L",
        help: "Space around the columns, in CSS's forms of padding: ALL for every edge; V,H "
          + "for top and bottom, left and right; T,H,B; or T,R,B,L, clockwise from the top. "
          + "Default: \(formatNumber(defaults.insets.top)).",
        option: .insets, parameters: [.topInset, .leftInset, .bottomInset, .rightInset],
        read: { $0.options.configuration.insets = try $1.insets() })
    case .seed:
      LayoutFlag(
        name: name, argument: "N",
        help: "Seed of the random stream (SplitMix64), 0 to \(UInt64.max), which draws the "
          + "\(LayoutStyle.ofRandomDraws.listed) style's enlargements and the heights of "
          + "--synthetic items; the same seed gives the same layout everywhere (under --align "
          + "planned the seed matters less: most seeds give the same layout of a short feed). "
          + "Default: \(defaults.seed).",
        isIdle: {
          let style = $0.configuration.style
          if style.drawsAtRandom { return nil }
          if case .synthetic = $0.feed, style.usesItemSizes { return nil }
          return "draws the \(LayoutStyle.ofRandomDraws.listed) style's enlargements and the "
            + "heights of --synthetic items in the \(LayoutStyle.ofItemSizes.listed) styles; the "
            + "\(style.rawValue) style " + (style.usesItemSizes ? "of a feed " : "")
            + "has nothing random"
        },
        read: { $0.options.configuration.seed = try $1.whole(in: 0...UInt64.max, example: "42") })
    case .enlargeChance:
      LayoutFlag(
        name: name, argument: "P",
        help: "Chance, \(LayoutParameter.enlargeChance.range.bounds), that an item that may be "
          + "enlarged is enlarged (\(LayoutStyle.taking(.enlargeChance).listed)); under --align "
          + "planned, that after an item an enlargement is wanted, which then waits for a pair "
          + "of columns to level. "
          + "Default: \(formatNumber(defaults.enlargeChance)).",
        option: .enlargeChance, parameters: [.enlargeChance],
        read: { $0.options.configuration.enlargeChance = try $1.number(example: "0.5") })
    case .alignTolerance:
      LayoutFlag(
        name: name, argument: "R",
        help: "An item whose bottom lands within R times its height of a neighbour column's "
          + "bottom is stretched or shrunk to meet it (\(LayoutStyle.taking(.alignTolerance).listed)). "
          + "R is \(LayoutParameter.alignTolerance.range.bounds); 0 turns this off. "
          + "Default: \(formatNumber(defaults.alignTolerance)).",
        option: .alignTolerance, parameters: [.alignTolerance],
        isIdle: {
          $0.configuration.alignment != .planned
            ? nil
            : "sets how near a bottom the item placed alone is stretched under --align seed "
              + "and spread; --align planned levels two columns only for an enlargement and "
              + "takes no tolerance"
        },
        read: { $0.options.configuration.alignTolerance = try $1.number(example: "0.1") })
    case .align:
      LayoutFlag(
        name: name, choices: AlignmentStrategy.names,
        help: "How columns are made to meet (\(LayoutStyle.taking(.alignment).listed)): seed "
          + "stretches or shrinks the item "
          + "placed alone, by up to --align-tolerance; spread shares the correction among the "
          + "column's items since its last fixed edge, may meet the neighbour halfway, and "
          + "never moves an item's height by more than --max-distortion; planned levels two "
          + "columns only for an enlargement, where a look-ahead over the next "
          + "\(PlannedAlignment.horizon) items finds it pays, moving each column's last "
          + "\(PlannedAlignment.tailLength) items by at most "
          + "\(formatNumber(PlannedAlignment.bound * 100))% (or --max-distortion if less; "
          + "--flat-end moves the last page's up to --max-distortion). "
          + "Default: \(defaults.alignment.rawValue).",
        option: .alignment,
        read: { $0.options.configuration.alignment = try $1.choice(AlignmentStrategy.self) })
    case .maxDistortion:
      LayoutFlag(
        name: name, argument: "R",
        help: "With --align spread or planned, or --flat-end: the most an item's height may "
          + "differ from its "
          + "natural height, as a fraction of it, \(LayoutParameter.maxDistortion.range.bounds). "
          + "Default: \(formatNumber(defaults.maxDistortion)).",
        option: .alignment, parameters: [.maxDistortion],
        isIdle: {
          $0.configuration.boundsDistortion
            ? nil : "bounds --align spread or planned and --flat-end; give one of them"
        },
        read: { $0.options.configuration.maxDistortion = try $1.number(example: "0.1") })
    case .flatEnd:
      LayoutFlag(
        name: name,
        help: "On the last page, bring the column bottoms to one line where that is possible "
          + "within --max-distortion (\(LayoutStyle.taking(.alignment).listed)); under --align "
          + "planned only as far as every item stays in the column it was placed in. The quality "
          + "figure raggedEnd says how near.",
        option: .alignment, commands: .layoutReporters,
        read: { reading, _ in reading.options.configuration.flatEnd = true })
    case .order:
      LayoutFlag(
        name: name, choices: PlacementOrder.names,
        help: "Which column an item goes to: the shortest (leftmost on ties), or columns in "
          + "turn from the left or from the right, whatever their heights. "
          + "Default: \(defaults.order.rawValue).",
        option: .order,
        read: { $0.options.configuration.order = try $1.choice(PlacementOrder.self) })
    case .tolerance:
      LayoutFlag(
        name: name, argument: "PT",
        help: "With --order shortest: columns whose bottom is within PT of the shortest count as "
          + "tied, and the first tied one at or after the column following the previous item "
          + "wins (CSS grid-lanes' flow tolerance). "
          + "Default: \(formatNumber(defaults.tolerance)), plain shortest-first.",
        option: .tolerance, parameters: [.tolerance],
        commands: Set.feedReaders.union([.diff]),
        inCommands: [
          .probe: Words(
            help: "How far an image's width/height ratio may be from the feed's, as a fraction "
              + "of it, before the item is a mismatch. "
              + "Default: \(formatNumber(ImageBatch.tolerance)).",
            argument: "R"),
          .diff: Words(
            help: "How far, in points, a frame's x, y, width or height may move and be the "
              + "same. Default: \(formatNumber(DiffCommand.Options().tolerance)): exactly the "
              + "same."),
        ],
        read: { reading, value in
          // A layout's tolerance is checked with the layout; diff's is a length of its own.
          reading.options.configuration.tolerance =
            reading.options.command == .diff
            ? try value.number(in: LayoutConfiguration.lengths, example: "0.5")
            : try value.number(example: "20")
        })
    case .direction:
      LayoutFlag(
        name: name, choices: LayoutDirection.names,
        help: "rtl counts columns from the right, for right-to-left apps. "
          + "Default: \(defaults.direction.rawValue).",
        option: .direction,
        read: { $0.options.configuration.direction = try $1.choice(LayoutDirection.self) })
    case .axis:
      LayoutFlag(
        name: name, choices: LayoutAxis.names,
        help: "horizontal lays out rows that share the viewport height (--height) and grow to "
          + "the right: the same rules with x and y exchanged. "
          + "Default: \(defaults.axis.rawValue).",
        option: .axis,
        read: { $0.options.configuration.axis = try $1.choice(LayoutAxis.self) })
    case .scale:
      LayoutFlag(
        name: name, argument: "S",
        help: "Align every frame edge to the 1/S point grid (2 or 3 on phones; S "
          + "\(LayoutParameter.scale.range.bounds)): "
          + "spacing and insets round to the grid, gaps stay exact, and no error accumulates "
          + "down a column.",
        option: .scale, parameters: [.scale],
        read: { $0.options.configuration.scale = try $1.number(example: "3") })
    case .headerHeight:
      sectionLength(
        name,
        help: "A header of this height above the columns, across the full width, printed as an "
          + "element of kind header. "
          + "Default: \(formatNumber(options.headerHeight)), none.", \.headerHeight)
    case .footerHeight:
      sectionLength(
        name,
        help: "A footer of this height below the columns, printed as an element of kind footer. "
          + "Default: \(formatNumber(options.footerHeight)), none.", \.footerHeight)
    case .minContentHeight:
      sectionLength(
        name,
        help: "The content is at least this tall (CHT's minimumContentHeight). "
          + "Default: \(formatNumber(options.minimumContentHeight)).",
        \.minimumContentHeight)
    case .pattern:
      LayoutFlag(
        name: name, argument: "CxR,…",
        help: "\(LayoutStyle.taking(.pattern).listed): the repeating block as tile spans, "
          + "columns x rows, placed in order at the "
          + "first place they fit (e.g. 2x2,1x1,1x1). Default: the seed's 3-column block, a "
          + "2x2 square at the left, three 1x1 down the right, two 1x1 along the bottom.",
        option: .pattern, read: { $0.pattern = $1 })
    case .height:
      LayoutFlag(
        name: name, argument: "PT",
        help: "\(LayoutStyle.taking(.viewportHeight).listed), and any style with --axis "
          + "horizontal: the viewport "
          + "height (its width is --width). Default: \(formatNumber(defaults.viewportHeight)).",
        option: .viewportHeight, parameters: [.viewportHeight],
        read: { $0.options.configuration.viewportHeight = try $1.number(example: "667") })
    case .itemSize:
      LayoutFlag(
        name: name, argument: "W[,H]",
        help: "\(LayoutStyle.taking(.itemSize).listed): the size of every item; one number "
          + "for a square. Defaults: "
          + LayoutStyle.taking(.itemSize).compactMap { style in
            style.defaultItemSize.map { size in
              "\(style.rawValue) \(formatNumber(size.width))"
                + (size.height == size.width ? "" : ",\(formatNumber(size.height))")
            }
          }.joined(separator: ", ") + ".",
        option: .itemSize, parameters: [.itemWidth, .itemHeight],
        read: {
          let values = try $1.numbers(counts: [1, 2], example: "260,100")
          $0.options.configuration.itemSize = Size(
            width: values[0], height: values.last ?? values[0])
        })
    case .offset:
      LayoutFlag(
        name: name, argument: "[X,]Y",
        help: LayoutStyle.taking(.offsetY).map {
          $0.rawValue + ($0.options.contains(.offsetX) ? " (X,Y)" : " (Y)")
        }.listed + ": the scroll offset the items turn with. "
          + "Default: \(formatNumber(defaults.offset.y)).",
        option: .offsetY, parameters: [.offsetX, .offsetY],
        read: {
          let values = try $1.numbers(counts: [1, 2], example: "0,667")
          $0.options.configuration.offset = Point(
            x: values.count == 2 ? values[0] : 0, y: values[values.count - 1])
          $0.offsetHasX = values.count == 2
        })
    case .format:
      LayoutFlag(
        name: name, short: "f", choices: Self.formatWords(.layout).choices ?? [],
        help: CommandName.layout.formatHelp, commands: Self.formatCommands,
        // Each command's own formats, from the command.
        inCommands: Dictionary(
          uniqueKeysWithValues: Self.formatCommands.map { ($0, Self.formatWords($0)) }),
        read: { reading, value in
          reading.options.format = try value.choice(
            OutputFormat.self, naming: reading.options.command.formats)
        })
    case .output:
      LayoutFlag(
        name: name, short: "o", argument: "FILE",
        isPath: true,
        help: "Write the output to FILE instead of standard output, in the format its extension "
          + "names when --format is not given (.json, .jsonl, .svg, .html; any other: "
          + "table). A file is written beside "
          + "itself and renamed into place when complete, so a failure or an interruption "
          + "never leaves half a file, and keeps its mode; a file you may not write is "
          + "refused, as the shell's > refuses it; a symbolic link's target is replaced, the "
          + "link kept; a device or FIFO such as /dev/null is written as it is; - is standard "
          + "output.",
        commands: Set.feedReporters.union([.diff]),
        inCommands: [
          .diff: Words(
            help: "Write the report to FILE, written beside it and renamed into place. Without "
              + "--format, FILE's extension names it: .json for json, any other a table (.jsonl, "
              + ".svg and .html are refused).")
        ],
        read: {
          guard !$1.text.isEmpty else { throw $1.invalid(expected: "a file name, or -") }
          $0.options.output = $1.text
        })
    case .fields:
      LayoutFlag(
        name: name, argument: "NAME,…",
        help: "Write only these fields, in the format's order: for json and jsonl the keys of "
          + "each item object (\(ElementField.allCases.map(\.rawValue).joined(separator: ", ")); "
          + "center and transform in the \(LayoutStyle.allCases.filter(\.hasTransforms).listed) "
          + "styles only, naturalHeight and distortion in the \(LayoutStyle.ofItemSizes.listed) "
          + "styles only), for table its columns "
          + "(\(LayoutReport.fieldNames(format: .table, style: .irregular).joined(separator: ", ")); for "
          + "\(LayoutStyle.allCases.filter(\.turnsWithOffset).listed) "
          + "\(LayoutReport.fieldNames(format: .table, style: .cube).joined(separator: ", "))).",
        commands: [.layout],
        read: {
          let names = $1.text.split(separator: ",", omittingEmptySubsequences: false)
          guard !names.contains(where: \.isEmpty) else {
            throw $1.invalid(expected: "field names separated by commas", example: "index,x,y")
          }
          $0.options.fields = names.map { String($0).lowercased() }
        })
    case .quality:
      LayoutFlag(
        name: name,
        help:
          "Print only the layout's quality figures (\(LayoutQuality.names.joined(separator: ", "))"
          + ", defined in docs/layout-rules.md): one NAME VALUE line each, or with --format json "
          + "one object. For the \(LayoutStyle.ofItemSizes.listed) styles.",
        commands: [.layout], read: { reading, _ in reading.options.quality = true })
    case .rect:
      LayoutFlag(
        name: name, argument: "X,Y,W,H",
        help: "Print only the elements that intersect this rectangle, as a collection view asks "
          + "for what is on screen (the content height stays the whole content's).",
        commands: [.layout],
        read: {
          let values = try $1.numbers(counts: [4], example: "0,0,375,812")
          let (origins, sizes) = (LayoutConfiguration.coordinates, LayoutConfiguration.lengths)
          guard origins.contains(values[0]), origins.contains(values[1]),
            sizes.contains(values[2]), sizes.contains(values[3])
          else {
            throw $1.invalid(
              expected: "X and Y \(origins.bounds), and a width and a height \(sizes.bounds)")
          }
          $0.options.rect = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        })
    case .skipInvalid:
      LayoutFlag(
        name: name,
        help: "Lay out the valid items of a feed with invalid ones, keeping their feed index, "
          + "and list every skipped item on standard error.",
        feeds: [.file, .standardInput, .url],
        commands: .feedReaders,
        read: { reading, _ in reading.options.skipInvalid = true })
    case .limit:
      LayoutFlag(
        name: name, argument: "EXPR",
        help: "A figure the layout must hold to, as NAME<=V, NAME<V, NAME>=V or NAME>V, NAME "
          + "one of \(CheckLimit.Figure.allCases.map(\.rawValue).listed): a quality figure, "
          + "the items laid out, the items skipped, the content height. Give it once a limit; "
          + "every one given counts.",
        commands: [.check],
        read: { $0.options.limits.append(try CheckLimit.parse($1.text, flag: $1.flag)) })
    case .images:
      LayoutFlag(
        name: name,
        help: "Read every item's image too, as falls probe does: each must be ok, its size the "
          + "feed's within 1%.",
        feeds: [.builtIn, .file, .standardInput, .url], commands: [.check],
        read: { reading, _ in reading.options.checksImages = true })
    case .help:
      LayoutFlag(
        name: name, short: "h", help: "Show this help.", commands: Set(CommandName.allCases),
        read: { _, _ in preconditionFailure("help is answered before any flag is read") })
    case .version:
      LayoutFlag(
        name: name, help: "Show the version.", commands: Set(CommandName.allCases),
        read: { _, _ in preconditionFailure("the version is answered before any flag is read") })
    }
  }
}
