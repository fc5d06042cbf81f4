import FallsCore
import FallsFeed
import Foundation

/// The `falls` command line, run in-process: it never exits and never touches global state, so
/// tests call it with buffers for streams.
public enum CLI {
  /// The version `falls --version` prints.
  public static let version = "0.1.0"

  static let help = """
    OVERVIEW: falls lays out image feeds as waterfalls (瀑布流) and prints the frames.

    USAGE: falls <command> [options]

    COMMANDS:
      layout    Lay out a finderlist feed and print every item's frame (table, json, jsonl).

    OPTIONS:
      --help     Show this help; 'falls layout --help' shows the options of layout.
      --version  Show the version.

    EXAMPLE:
      falls layout --columns 4 --format json | jq '.contentHeight'

    """

  /// Runs `falls` with `arguments` (without the program name) and returns the exit status.
  ///
  /// Results go to standard output only when the whole run succeeds; every message goes to
  /// standard error.
  public static func run(_ arguments: [String], environment: CLIEnvironment) -> ExitCode {
    do {
      try dispatch(arguments, environment: environment)
      return .success
    } catch {
      let result = outcome(of: error)
      let stream = result.toStandardOutput ? environment.standardOutput : environment.standardError
      if !result.message.isEmpty {
        let prefix = result.toStandardOutput ? "" : "falls: "
        let text = prefix + result.message + (result.message.hasSuffix("\n") ? "" : "\n")
        do {
          try stream.write(text)
        } catch {
          return result.code == .success ? outcome(of: .output(error)).code : result.code
        }
      }
      return result.code
    }
  }

  private static func dispatch(_ arguments: [String], environment: CLIEnvironment)
    throws(CLIError)
  {
    guard let command = arguments.first else {
      throw .usage("no command given; try 'falls layout'", command: nil)
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h":
      throw .informational(help)
    case "help":
      if rest.first == LayoutCommand.name { throw .informational(LayoutCommand.help) }
      throw .informational(help)
    case "--version":
      throw .informational("falls \(version)\n")
    case LayoutCommand.name:
      try runLayout(try LayoutCommand.parse(rest), environment: environment)
    default:
      let hint =
        command.hasPrefix("-") ? "unknown option '\(command)'" : "unknown command '\(command)'"
      throw .usage("\(hint); the commands are: layout", command: nil)
    }
  }

  private static func runLayout(_ options: LayoutOptions, environment: CLIEnvironment)
    throws(CLIError)
  {
    let bytes: Data
    switch options.feed {
    case .embedded:
      bytes = Data(EmbeddedFeed.json.utf8)
    case .standardInput:
      do {
        bytes = try environment.readStandardInput()
      } catch {
        throw .feed(.unreadable(path: "-", reason: FeedReader.systemError(error.code)))
      }
    case .file(let path):
      do { bytes = try FeedReader.read(path: path) } catch { throw .feed(error) }
    }
    var feed: Feed
    do { feed = try FeedDecoder.decode(bytes) } catch { throw .feed(error) }
    if !feed.problems.isEmpty, !options.skipInvalid {
      throw .feed(.invalidItems(feed.problems))
    }
    let layout = try laidOut(&feed, options: options)
    if !feed.problems.isEmpty {
      var notes = ""
      for problem in feed.problems { notes += "falls: skipped \(problem.message)\n" }
      let total = feed.items.count + feed.problems.count
      notes +=
        "falls: skipped \(feed.problems.count) of \(total) items; laid out \(feed.items.count)\n"
      try? environment.standardError.write(notes)
    }
    do {
      try LayoutReport(layout: layout, items: feed.items)
        .write(options.format, to: environment.standardOutput)
    } catch {
      throw .output(error)
    }
  }

  /// Lays out the feed's items; an item too tall to lay out is a feed problem like any other.
  private static func laidOut(_ feed: inout Feed, options: LayoutOptions) throws(CLIError)
    -> WaterfallLayout
  {
    while true {
      do {
        return try WaterfallLayout(options.configuration, items: feed.items.lazy.map(\.layoutItem))
      } catch {
        guard case .heightOverflow(let position) = error else {
          throw .usage("unexpected layout error \(error)", command: LayoutCommand.name)
        }
        let item = feed.items[position]
        let problem = FeedItemProblem(
          index: item.index, field: .height, value: formatNumber(item.height), reason: .tooTall)
        guard options.skipInvalid else { throw .feed(.invalidItems([problem])) }
        feed.items.remove(at: position)
        feed.problems.append(problem)
        feed.problems.sort { $0.index < $1.index }
      }
    }
  }
}
