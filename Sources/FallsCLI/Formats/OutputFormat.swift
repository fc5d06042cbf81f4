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
