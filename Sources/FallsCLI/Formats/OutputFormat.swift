import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// The output formats of `falls layout`.
public enum OutputFormat: String, CaseIterable, Sendable {
  /// Aligned columns for a person.
  case table
  /// One JSON document, schema `falls.layout/1`.
  case json
  /// One JSON item object per line.
  case jsonl
  /// One self-contained SVG picture of the layout.
  case svg
  /// One self-contained HTML page showing the feed's images at their frames.
  case html
}

extension OutputFormat {
  /// The format a file name's extension names, in any case: `.json`, `.jsonl`, `.svg`,
  /// `.html`; `nil` for any other (`-o FILE` without `--format` then writes a table).
  init?(extensionOf path: String) {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    guard let format = Self(rawValue: name[name.index(after: dot)...].lowercased()),
      format != .table
    else { return nil }
    self = format
  }

  /// The format `-o FILE` names by its extension when no `--format` is given, for a command
  /// (`falls name`) that writes `formats`: `nil` where the extension names none (a table is
  /// written). A format the command does not write is refused (by `usage`) rather than a table
  /// written under its name.
  static func named(
    byOutput output: String, command name: String, writes formats: [OutputFormat],
    usage: (String) -> CLIError
  ) throws(CLIError) -> OutputFormat? {
    guard let format = OutputFormat(extensionOf: output) else { return nil }
    guard formats.contains(format) else {
      throw usage(
        "-o '\(shownInMessage(output))': falls \(name) does not write \(format); it writes "
          + "\(formats.map(\.rawValue).alternatives): give --format, or another file name")
    }
    return format
  }

  /// What the format is for, after its name, as the `--format` help says it.
  var summary: String {
    switch self {
    case .table: "for people"
    case .json: "for one document (schema \(LayoutReport.schema))"
    case .jsonl: "for one item per line"
    case .svg:
      "for a picture of the layout (items coloured plain, enlarged or aligned, labelled with "
        + "their index)"
    case .html: "for a page showing the feed's images at their frames"
    }
  }
}
