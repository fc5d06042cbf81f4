import FallsCore
import FallsFeed
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

#if canImport(Glibc)
  import Glibc
#endif

/// A value each flag takes, with a style that takes the flag.
private let samples: [String: (value: String?, style: LayoutStyle)] = [
  "feed": ("-", .irregular), "items": ("result.list", .irregular),
  "keys": ("img=url,width=size.w,height=size.h", .irregular), "pages": ("3", .irregular),
  "page-size": ("30", .irregular),
  "keep-partial": (nil, .irregular), "timeout": ("5", .irregular), "max-time": ("30", .irregular),
  "retries": ("1", .irregular),
  "max-bytes": ("4096", .irregular), "quiet": (nil, .irregular),
  "sizes": ("images", .irregular), "jobs": ("4", .irregular),
  "allow-local-images": (nil, .irregular),
  "limit": ("items>=1", .irregular), "images": (nil, .irregular), "synthetic": ("10", .irregular),
  "min-height": ("120", .irregular), "max-height": ("200", .irregular),
  "style": ("waterfall", .waterfall), "columns": ("4", .irregular),
  "min-column-width": ("50", .waterfall), "width": ("400", .irregular),
  "column-spacing": ("4", .grid), "row-spacing": ("4", .waterfall), "spacing": ("4", .irregular),
  "insets": ("1,2,3,4", .irregular), "seed": ("7", .irregular),
  "enlarge-chance": ("0.5", .irregular), "align-tolerance": ("0.1", .irregular),
  "align": ("spread", .irregular), "max-distortion": ("0.05", .irregular),
  "flat-end": (nil, .irregular),
  "order": ("left-to-right", .waterfall), "tolerance": ("5", .irregular),
  "direction": ("rtl", .grid), "axis": ("horizontal", .waterfall), "scale": ("2", .irregular),
  "header-height": ("44", .grid), "footer-height": ("44", .irregular),
  "min-content-height": ("900", .waterfall), "pattern": ("2x2,1x1,1x1", .grid),
  "height": ("500", .circle), "item-size": ("40", .sphere), "offset": ("10", .cube),
  "format": ("json", .irregular), "output": ("out.json", .irregular),
  "rect": ("0,0,375,812", .irregular), "quality": (nil, .irregular),
  "fields": ("index,x", .irregular),
  "skip-invalid": (nil, .irregular), "help": (nil, .irregular),
  "version": (nil, .irregular),
]

/// Where each flag's sample lands in the options: a test that a flag writes its own field. Each
/// sample differs from the field's default, so that a flag that wrote nothing fails too.
private let landings: [String: @Sendable (LayoutOptions) -> Bool] = [
  "feed": { $0.feed == .standardInput },
  "items": { $0.shape == FeedShape(items: ["result", "list"]) },
  "keys": {
    $0.shape == FeedShape(img: ["url"], width: ["size", "w"], height: ["size", "h"])
  },
  "pages": { $0.pages == 3 },
  "page-size": { $0.pageSize == 30 }, "keep-partial": { $0.keepPartial },
  "timeout": { $0.fetchPolicy.timeout == 5 }, "max-time": { $0.fetchPolicy.maxTime == 30 },
  "retries": { $0.fetchPolicy.retries == 1 }, "max-bytes": { $0.fetchPolicy.maxBytes == 4096 },
  "quiet": { $0.quiet }, "sizes": { $0.sizes == .images }, "jobs": { $0.jobs == 4 },
  "allow-local-images": { $0.allowsLocalImages },
  "limit": { $0.limits == [CheckLimit(figure: .items, comparison: .atLeast, value: 1)] },
  "images": { $0.checksImages },
  "synthetic": {
    if case .synthetic(10, _, _) = $0.feed { true } else { false }
  },
  "min-height": {
    if case .synthetic(_, 120, 250) = $0.feed { true } else { false }
  },
  "max-height": {
    if case .synthetic(_, 100, 200) = $0.feed { true } else { false }
  },
  "style": { $0.configuration.style == .waterfall }, "columns": { $0.configuration.columns == 4 },
  // 375 points less insets of 10, with spacing 10: six columns of at least 50.
  "min-column-width": { $0.configuration.columns == 6 },
  "width": { $0.configuration.width == 400 },
  "column-spacing": { $0.configuration.columnSpacing == 4 && $0.configuration.rowSpacing == 10 },
  "row-spacing": { $0.configuration.rowSpacing == 4 && $0.configuration.columnSpacing == 10 },
  "spacing": { $0.configuration.columnSpacing == 4 && $0.configuration.rowSpacing == 4 },
  "insets": { $0.configuration.insets == EdgeInsets(top: 1, left: 4, bottom: 3, right: 2) },
  "seed": { $0.configuration.seed == 7 },
  "enlarge-chance": { $0.configuration.enlargeChance == 0.5 },
  "align-tolerance": { $0.configuration.alignTolerance == 0.1 },
  "align": { $0.configuration.alignment == .spread },
  "max-distortion": { $0.configuration.maxDistortion == 0.05 },
  "flat-end": { $0.configuration.flatEnd }, "order": { $0.configuration.order == .leftToRight },
  "tolerance": { $0.configuration.tolerance == 5 },
  "direction": { $0.configuration.direction == .rightToLeft },
  "axis": { $0.configuration.axis == .horizontal }, "scale": { $0.configuration.scale == 2 },
  "header-height": { $0.headerHeight == 44 && $0.footerHeight == 0 },
  "footer-height": { $0.footerHeight == 44 && $0.headerHeight == 0 },
  "min-content-height": { $0.minimumContentHeight == 900 },
  "pattern": {
    $0.configuration.pattern.tiles.map { [$0.columnSpan, $0.rowSpan] } == [
      [2, 2], [1, 1], [1, 1],
    ]
  },
  "height": { $0.configuration.viewportHeight == 500 },
  "item-size": { $0.configuration.itemSize == Size(width: 40, height: 40) },
  "offset": { $0.configuration.offset == Point(x: 0, y: 10) },
  "format": { $0.format == .json }, "output": { $0.output == "out.json" },
  "rect": { $0.rect == Rect(x: 0, y: 0, width: 375, height: 812) }, "quality": { $0.quality },
  "fields": { $0.fields == ["index", "x"] }, "skip-invalid": { $0.skipInvalid },
]

/// `arguments` parsed by the command `flag` belongs to: layout, or check for its own flags.
private func parse(_ arguments: [String], for flag: LayoutFlag) throws -> LayoutOptions {
  try LayoutCommand.parse(arguments, for: flag.commands.contains(.layout) ? .layout : .check)
}

extension LayoutOptions {
  /// The text given for the flag called `name`, if it was given.
  fileprivate subscript(given name: String) -> String? {
    FlagName(rawValue: name).flatMap { given[$0] }
  }
}

/// The arguments that choose a feed of `kind` (nothing for the built-in feed; nothing is read
/// when the arguments are only parsed).
private func feedArguments(_ kind: FeedKind) -> [String] {
  switch kind {
  case .builtIn: []
  case .file: ["--feed", "feed.json"]
  case .standardInput: ["--feed", "-"]
  case .url: ["--feed", "http://127.0.0.1:9/list?page={page}&size={size}"]
  case .generated: ["--synthetic", "5"]
  }
}

/// The flags without which a flag has no effect (``LayoutFlag/isIdle``).
private let contexts: [String: [String]] = [
  "keep-partial": ["--pages", "2"], "max-distortion": ["--align", "spread"],
  "jobs": ["--sizes", "images"], "quiet": ["--sizes", "images"],
  "allow-local-images": ["--sizes", "images"],
]

/// The arguments that give `flag` its sample value, with its style (and a feed it applies to),
/// and with the flags it needs to have an effect unless `alone`.
private func arguments(for flag: LayoutFlag, alone: Bool = false) -> [String] {
  guard let sample = samples[flag.name.rawValue] else {
    Issue.record("--\(flag.name) has no sample in LayoutFlagTests")
    return ["--\(flag.name)", "--style", "irregular"]
  }
  var arguments =
    ["--\(flag.name)"] + (sample.value.map { [$0] } ?? [])
    + (alone ? [] : contexts[flag.name.rawValue] ?? [])
  if !flag.feeds.contains(.builtIn), flag.name != .feed,
    let kind = FeedKind.allCases.first(where: flag.feeds.contains)
  {
    arguments += feedArguments(kind)
  }
  // The style last, where a test may change it.
  if flag.name != .style { arguments += ["--style", sample.style.rawValue] }
  return arguments
}

@Suite(.tags(.process)) struct LayoutFlagTests {
  @Test("docs/cli.md's table of flags names every flag of falls layout, and no other")
  func readmeTable() throws {
    let text = try Documents.text("docs/cli.md")
    let start = try #require(text.range(of: "| flag | meaning | default |\n|---|---|---|\n"))
    let end = text[start.upperBound...].range(of: "\n\n")?.lowerBound ?? text.endIndex
    // The first cell of each row: the flags it is about, as `--name` in backquotes.
    let named = Set(
      text[start.upperBound..<end].split(separator: "\n").flatMap { row in
        let cell = row.split(separator: "|").first ?? ""
        return cell.matches(of: /`--([a-z-]+)/).map { String($0.output.1) }
      })
    let flags = Set(LayoutFlag.all.filter { $0.commands.contains(.layout) }.map(\.name.rawValue))
    #expect(
      named == flags,
      "docs/cli.md lacks \(flags.subtracting(named)), has \(named.subtracting(flags))")
  }

  @Test("Every flag of the table has a sample here, and no sample is of a flag not there")
  func samplesCoverTheTable() {
    #expect(Set(samples.keys) == Set(LayoutFlag.all.map(\.name.rawValue)))
    // Help and the version are answered, not read into the options.
    #expect(Set(landings.keys) == Set(samples.keys).subtracting(["help", "version"]))
    #expect(Set(LayoutFlag.all.map(\.name.rawValue)).count == LayoutFlag.all.count, "a name twice")
  }

  @Test("The help lists every flag, in the table's order, with its placeholder")
  func help() {
    let help = HelpText.layout
    var position = help.startIndex
    for flag in LayoutFlag.all where flag.commands.contains(.layout) {
      let head = "\n" + HelpText.heading(of: flag) + "\n"
      #expect(head.contains("--\(flag.name)"))
      guard let found = help.range(of: head, range: position..<help.endIndex) else {
        Issue.record("--\(flag.name) is not in the help after the flag before it")
        continue
      }
      position = found.upperBound
    }
  }

  @Test(
    "Every flag is read with its sample value, into its own field",
    arguments: LayoutFlag.all.map(\.name.rawValue))
  func readsSample(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    guard let landing = landings[name] else { return }
    let options = try parse(arguments(for: flag), for: flag)
    #expect(options[given: name] == (samples[name]?.value ?? ""))
    #expect(landing(options), "--\(name) \(samples[name]?.value ?? "") did not land")
    // Given with an equals sign, the same.
    if let value = samples[name]?.value {
      var inline = arguments(for: flag)
      inline.replaceSubrange(0..<2, with: ["--\(name)=\(value)"])
      #expect(try parse(inline, for: flag)[given: name] == value)
    }
  }

  @Test(
    "A flag of some styles is refused by the others, naming the styles that take it",
    arguments: LayoutFlag.all.filter { $0.option != nil }.map(\.name.rawValue))
  func styles(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    let option = try #require(flag.option)
    let takers = LayoutStyle.allCases.filter { LayoutConfiguration(style: $0).uses(option) }
    #expect(!takers.isEmpty && takers.count < LayoutStyle.allCases.count)
    for style in LayoutStyle.allCases where !takers.contains(style) {
      var given = arguments(for: flag, alone: true)
      given[given.count - 1] = style.rawValue
      #expect {
        try LayoutCommand.parse(given)
      } throws: { error in
        guard case .usage(let message, _) = error as? CLIError else { return false }
        let axis = option == .viewportHeight ? ", and any style with --axis horizontal" : ""
        return message
          == "--\(name) does not apply to the \(style.rawValue) style; it is for "
          + takers.map(\.rawValue).joined(separator: ", ") + axis
      }
    }
  }

  @Test(
    "A value out of the layout's range names the flag that gave it",
    arguments: LayoutFlag.all.filter { !$0.parameters.isEmpty }.map(\.name.rawValue))
  func parameters(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    var given = arguments(for: flag)
    given[1] = "1e300"
    #expect {
      try LayoutCommand.parse(given)
    } throws: { error in
      guard case .usage(let message, _) = error as? CLIError else { return false }
      return message.hasPrefix("invalid value '1e300' for '--\(name)'; expected ")
    }
  }

  @Test(
    "Every flag of a length or an offset refuses one past 10^9 points and one past every Double, naming the flag",
    arguments: LayoutFlag.all.filter {
      ["PT", "T,L,B,R|ALL", "W[,H]", "[X,]Y", "X,Y,W,H"].contains($0.argument ?? "")
    }.map(\.name.rawValue))
  func lengthLimit(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    for number in ["2e9", "-2e9", "1e309"] {
      // Each number of the value in turn, the others ordinary.
      let count = flag.argument == "X,Y,W,H" ? 4 : 1
      for position in 0..<count {
        var numbers = Array(repeating: "1", count: count)
        numbers[position] = number
        var given = arguments(for: flag)
        given[1] = numbers.joined(separator: ",")
        #expect(
          throws: CLIError.self, "--\(name) \(given[1])",
          performing: { try LayoutCommand.parse(given) })
        do {
          _ = try LayoutCommand.parse(given)
        } catch {
          #expect(outcome(of: error).code == .usage)
          #expect(outcome(of: error).message.contains("--\(name)"), "\(error)")
        }
      }
    }
  }

  @Test("--min-column-width 1e-300 gives the most columns that fit, not one")
  func tinyMinimumColumnWidth() throws {
    let options = try LayoutCommand.parse([
      "--min-column-width", "1e-300", "-s", "0", "-w", "1e9",
    ])
    #expect(options.configuration.columns == LayoutConfiguration.maximumColumns)
  }

  @Test("falls view takes the flags of the table marked for it, and refuses the others")
  func view() throws {
    for flag in LayoutFlag.all where flag.name != .help && flag.name != .version {
      let given = arguments(for: flag)
      if flag.isForView {
        _ = try ViewCommand.parse(given)
      } else {
        #expect(throws: CLIError.self) { try ViewCommand.parse(given) }
      }
    }
    #expect(
      LayoutFlag.all.filter { !$0.isForView }.map(\.name.rawValue).sorted() == [
        "fields", "flat-end", "format", "images", "keep-partial", "limit", "max-time", "output",
        "quality", "quiet", "rect",
      ])
  }

  @Test(
    "A flag of some feeds is refused with the others, naming the feeds that take it",
    arguments: LayoutFlag.all.filter { $0.feeds.count < FeedKind.allCases.count }.map(
      \.name.rawValue))
  func feeds(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    let sample = ["--" + name] + (samples[name]?.value.map { [$0] } ?? []) + (contexts[name] ?? [])
    for kind in FeedKind.allCases {
      let given = sample + feedArguments(kind)
      guard !flag.feeds.contains(kind) else {
        _ = try parse(given, for: flag)
        continue
      }
      #expect {
        try parse(given, for: flag)
      } throws: { error in
        guard case .usage(let message, _) = error as? CLIError else { return false }
        return message
          == "--\(name) does not apply to \(kind.description); it is for \(flag.feeds.description)"
      }
    }
  }

  @Test(
    "A one-letter flag reads as its long name, its value attached or apart",
    arguments: LayoutFlag.all.filter { $0.short != nil }.map(\.name.rawValue))
  func shortForms(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    let letter = try #require(flag.short)
    guard name != "help" else {
      #expect(throws: CLIError.self) { try LayoutCommand.parse(["-h"]) }
      return
    }
    var long = arguments(for: flag)
    let value = samples[name]?.value
    let apart = ["-\(letter)"] + (value.map { [$0] } ?? []) + long.dropFirst(value == nil ? 1 : 2)
    #expect(try LayoutCommand.parse(apart).given == LayoutCommand.parse(long).given)
    if let value {
      long.replaceSubrange(0..<2, with: ["-\(letter)\(value)"])
      #expect(try LayoutCommand.parse(long)[given: name] == value)
    }
  }

  @Test("No two flags share a one-letter form, and the common ones have theirs")
  func shortLetters() {
    let letters = LayoutFlag.all.compactMap(\.short)
    #expect(Set(letters).count == letters.count)
    let expected: [String: Character] = [
      "columns": "c", "width": "w", "spacing": "s", "format": "f", "output": "o", "quiet": "q",
      "help": "h",
    ]
    for (name, letter) in expected { #expect(LayoutFlag.named(name)?.short == letter) }
  }

  @Test(
    "A flag of a few values takes them in any case, and lists them when it gets another",
    arguments: LayoutFlag.all.filter { !$0.choices.isEmpty }.map(\.name.rawValue))
  func choices(name: String) throws {
    let flag = try #require(LayoutFlag.named(name))
    for choice in flag.choices {
      var given = arguments(for: flag)
      given[1] = choice.uppercased()
      if name == "style" { given += ["--style", choice.uppercased()] }
      #expect(try LayoutCommand.parse(given)[given: name] == choice.uppercased())
    }
    var wrong = arguments(for: flag)
    wrong[1] = "nonesuch"
    #expect {
      try LayoutCommand.parse(wrong)
    } throws: { error in
      guard case .usage(let message, _) = error as? CLIError else { return false }
      let listed =
        flag.choices.count == 2
        ? flag.choices.joined(separator: " or ") : "one of " + flag.choices.joined(separator: ", ")
      return message == "invalid value 'nonesuch' for '--\(name)'; expected \(listed)"
    }
  }

  @Test("A flag misspelt by a letter is suggested", arguments: LayoutFlag.all.map(\.name.rawValue))
  func suggestions(name: String) {
    let misspelt = String(name.dropLast()) + "q"
    // In every command that takes it, and in none that does not.
    for command in CommandName.allCases {
      let suggested = HelpText.suggestion(for: misspelt, in: command)
      let takes = LayoutFlag.named(name)?.commands.contains(command) == true
      #expect(
        suggested.hasSuffix("did you mean '--\(name)'?") == takes, "\(command): \(suggested)")
    }
  }

  @Test(
    "Every flag, in every style and with every kind of feed, changes the output or is refused (64) naming what it is for",
    .timeLimit(.minutes(5)), arguments: LayoutFlag.all.map(\.name.rawValue))
  func everyFlagHasAnEffect(name: String) async throws {
    let server = try await TestServer()
    var effective = 0
    for witness in Witness.all(of: name) {
      for style in LayoutStyle.allCases {
        for kind in FeedKind.allCases where witness.kinds.contains(kind) {
          // --style is seen at work where it changes the style.
          if name == "style", witness.value.last == style.rawValue { continue }
          let context = witness.context + (style == .grid ? witness.gridContext : [])
          let base = [witness.command] + context + ["--style", style.rawValue]
          let before = try await witness.run(base, kind: kind, server: server)
          // A context that does not fit this style or feed (its own refusal) shows nothing.
          guard before.code != .usage else { continue }
          let after = try await witness.run(
            base, kind: kind, server: server, then: witness.value)
          let label =
            "--\(name) \(witness.value.dropFirst().joined(separator: " ")) with \(style.rawValue) "
            + "and \(kind.description) \(context)"
          if after.code == .usage {
            #expect(
              after.standardError.contains("--\(name)")
                && !after.standardError.contains("invalid value"),
              "\(label): \(after.standardError)")
          } else {
            let changed =
              after.code != before.code || after.standardOutput != before.standardOutput
              || after.standardError != before.standardError
            #expect(changed, "\(label) changed nothing")
            if changed { effective += 1 }
          }
        }
      }
    }
    // Its witness shows it at work somewhere: a sample that is refused everywhere shows nothing.
    #expect(effective > 0, "--\(name) changed the output nowhere")
  }
}

/// A way to see a flag at work: its value, the flags both runs take, and the feed.
private struct Witness: Sendable {
  /// The flag and its value.
  var value: [String]
  /// Flags both runs take.
  var context: [String] = []
  /// Flags both runs take in the grid style, whose block is as wide as its columns.
  var gridContext: [String] = []
  /// The feed of a file, standard input or a URL, a fixture's name.
  var fixture = "mj-shop-1.json"
  /// The server's path for a URL feed; `/feed/<fixture>` when `nil`.
  var urlPath: String?
  /// Whether standard error is a terminal, where progress shows.
  var terminalError = false
  /// Whether a file is a FIFO that a writer opens half a second late.
  var isFIFO = false
  /// The kinds of feed it is for.
  var kinds = Set(FeedKind.allCases)
  /// The command both runs are of: `layout`, or `check` for its own flags.
  var command = "layout"

  /// The witnesses of the flag `name`.
  static func all(of name: String) -> [Witness] {
    let pages = "/pages/{page}?size={size}"
    switch name {
    case "feed": return [Witness(value: ["--feed", Fixtures.path("zx-shopdata.json")])]
    case "pages": return [Witness(value: ["--pages", "2"], urlPath: pages)]
    case "page-size": return [Witness(value: ["--page-size", "5"], urlPath: pages)]
    case "keep-partial":
      return [
        Witness(value: ["--keep-partial"]),
        Witness(
          value: ["--keep-partial"], context: ["--pages", "2"],
          urlPath: "/failing/2/{page}?size={size}"),
      ]
    case "timeout":
      return [
        Witness(value: ["--timeout", "0.2"], urlPath: "/slow/1/mj-shop-1.json", isFIFO: true)
      ]
    case "retries": return [Witness(value: ["--retries", "0"], urlPath: "/status/503")]
    case "max-time":
      return [Witness(value: ["--max-time", "0.3"], urlPath: "/slow/1/mj-shop-1.json")]
    case "max-bytes": return [Witness(value: ["--max-bytes", "100"])]
    case "quiet":
      // A URL shows its pages' progress; nothing else shows any.
      return [
        Witness(
          value: ["--quiet"], context: ["--pages", "2"], urlPath: pages, terminalError: true,
          kinds: [.url]),
        Witness(
          value: ["--quiet"], terminalError: true, kinds: Set(FeedKind.allCases).subtracting([.url])
        ),
        // Images read for their sizes show how many are done.
        Witness(
          value: ["--quiet"], context: ["--sizes", "images"], fixture: "mis-sized.json",
          terminalError: true, kinds: [.file, .standardInput]),
      ]
    case "sizes":
      // Sizes the feed gives wrong, and one it gives none: the images' own are laid out.
      return [
        Witness(
          value: ["--sizes", "images"], fixture: "mis-sized.json",
          kinds: [.file, .standardInput, .url]),
        Witness(
          value: ["--sizes", "fill"], fixture: "mis-sized.json",
          kinds: [.file, .standardInput, .url]),
      ]
    case "jobs":
      // Four images that answer only when all four are asked for at once: read eight at a
      // time they come; one at a time, the first is not answered within --max-time.
      return [
        Witness(
          value: ["--jobs", "1"],
          context: ["--sizes", "images", "--retries", "0", "--max-time", "2"],
          urlPath: "/together-feed/4", kinds: [.url])
      ]
    case "allow-local-images":
      // A remote feed whose images are files of this machine: refused without it, read with it.
      let image = "file://" + Fixtures.path("images/png-37x23.png")
      let query = image.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
      return [
        Witness(
          value: ["--allow-local-images"], context: ["--sizes", "images"],
          urlPath: "/items-feed?img=\(query)", kinds: [.url])
      ]
    case "limit": return [Witness(value: ["--limit", "items<5"], command: "check")]
    case "images":
      // The feed's data: URLs are read: one is given no size, so the check fails.
      return [
        Witness(
          value: ["--images"], context: ["--sizes", "fill"], fixture: "mis-sized.json",
          kinds: [.file, .standardInput, .url], command: "check")
      ]
    case "synthetic": return [Witness(value: ["--synthetic", "10"])]
    case "min-height": return [Witness(value: ["--min-height", "200"])]
    case "max-height": return [Witness(value: ["--max-height", "120"])]
    case "style":
      return [Witness(value: ["--style", "waterfall"]), Witness(value: ["--style", "irregular"])]
    case "columns":
      return [Witness(value: ["--columns", "4"], gridContext: ["--pattern", "1x1"])]
    case "min-column-width":
      return [Witness(value: ["--min-column-width", "50"], gridContext: ["--pattern", "1x1"])]
    case "max-distortion":
      return [
        Witness(value: ["--max-distortion", "0.01"]),
        Witness(value: ["--max-distortion", "0.01"], context: ["--align", "spread"]),
        Witness(value: ["--max-distortion", "0.01"], context: ["--flat-end"]),
      ]
    case "output":
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("falls-witness-\(UInt64.random(in: 0 ... .max))").path
      return [Witness(value: ["--output", path])]
    case "skip-invalid": return [Witness(value: ["--skip-invalid"], fixture: "invalid-items.json")]
    case "items": return [Witness(value: ["--items", "result.list"], fixture: "nested-shape.json")]
    case "keys":
      return [
        Witness(
          value: ["--keys", "img=url,width=size.w,height=size.h"], fixture: "other-keys.json")
      ]
    default:
      let values: [String: [String]] = [
        "width": ["400"], "column-spacing": ["4"], "row-spacing": ["4"], "spacing": ["4"],
        "insets": ["1,2,3,4"], "seed": ["7"], "enlarge-chance": ["0"], "align-tolerance": ["0"],
        "align": ["spread"], "flat-end": [], "order": ["left-to-right"], "tolerance": ["200"],
        "direction": ["rtl"], "axis": ["horizontal"], "scale": ["3"], "header-height": ["44"],
        "footer-height": ["44"], "min-content-height": ["1e6"], "pattern": ["2x2,1x1,1x1"],
        "height": ["500"], "item-size": ["40"], "offset": ["100"], "format": ["json"],
        "fields": ["index"], "quality": [], "rect": ["0,0,100,100"], "help": [], "version": [],
      ]
      guard let value = values[name] else {
        Issue.record("--\(name) has no witness")
        return []
      }
      return [Witness(value: ["--" + name] + value)]
    }
  }

  /// Runs `falls` with `arguments`, a feed of `kind`, and then `flag` (after the feed, so that
  /// a flag that gives the feed has the last word).
  func run(
    _ arguments: [String], kind: FeedKind, server: TestServer, then flag: [String] = []
  ) async throws -> CLIResult {
    let path = Fixtures.path(fixture)
    var feed: [String]
    var fifo: String?
    switch kind {
    case .builtIn: feed = []
    case .file where isFIFO:
      fifo = try lateFIFO(of: path)
      feed = ["--feed", fifo ?? ""]
    case .file: feed = ["--feed", path]
    case .standardInput: feed = ["-"]
    case .url: feed = ["--feed", server.url(urlPath ?? "/feed/\(fixture)")]
    case .generated: feed = ["--synthetic", "40"]
    }
    defer { if let fifo { unlink(fifo) } }
    let input = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    let all = arguments + feed + flag
    let result = await runCLI(all, input: input) {
      $0.standardErrorIsTerminal = terminalError
      $0.backoff = 0.01
    }
    for (position, argument) in all.enumerated() where argument == "--output" {
      unlink(all[position + 1])
    }
    return result
  }

  /// A FIFO whose writer opens it half a second from now, writes `path`'s bytes and closes it;
  /// when no reader waits by then, the writer gives up.
  private func lateFIFO(of path: String) throws -> String {
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("falls-fifo-\(UInt64.random(in: 0 ... .max))").path
    guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.5)
      let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
      guard descriptor >= 0 else { return }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      bytes.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    return fifo
  }
}
