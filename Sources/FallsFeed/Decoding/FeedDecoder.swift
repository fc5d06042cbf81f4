import FallsBase
import FallsCore
import Foundation

/// Decodes the finderlist format: `{"data": [{"img": URL, "width": "1200", "height": "2249"}]}`,
/// a top-level array of such items, a stream of them (JSON values separated by whitespace, as
/// JSON Lines and jq write them: one item a value), or a feed of any other shape
/// (``FeedShape``).
///
/// Widths and heights may be strings holding a plain decimal number (`"1200"`, `"2249.5"`,
/// `"1e3"`) or JSON numbers. Keys other than `img`, `width`, `height` and `span` are ignored; a
/// key given twice takes its last value, as JavaScript, Python and jq read it. Every invalid
/// item is reported with its index, field and value; none is dropped silently. Bytes that are
/// not JSON are refused whole, with the line and the column where they stop being JSON.
public enum FeedDecoder {
  /// Decodes a feed from JSON bytes.
  ///
  /// - Parameters:
  ///   - bytes: The feed's JSON text.
  ///   - shape: Where the items and their fields are.
  ///   - allowingMissingSizes: Whether an item without a width or a height, or with one that
  ///     breaks its rule, is kept, its size 0 × 0 (``FeedItem/hasSize``), for its image to give
  ///     it; a refused size is listed in ``Feed/sizeProblems``.
  /// - Returns: The valid items and a problem for each invalid one.
  /// - Throws: ``FeedError/notJSON(detail:)``, ``FeedError/noDataArray(found:)`` or
  ///   ``FeedError/noItemArray(path:found:)``.
  /// - Complexity: O(*n*) in the size of the input.
  public static func decode(
    _ bytes: Data, shape: FeedShape = .finderlist, allowingMissingSizes: Bool = false
  ) throws(FeedError) -> Feed {
    try decode(FeedBytes(data: bytes), shape: shape, allowingMissingSizes: allowingMissingSizes)
  }

  /// Decodes a feed from bytes that may map a file; the pages of a mapping are given back as
  /// they are read, so that a large file is never all in memory at once.
  ///
  /// - Returns: The valid items and a problem for each invalid one.
  /// - Throws: ``FeedError/notJSON(detail:)`` or ``FeedError/noDataArray(found:)``, or
  ///   ``FeedError/unreadable(path:reason:)`` when a mapped file changed while it was read.
  public static func decode(
    _ bytes: FeedBytes, shape: FeedShape = .finderlist, allowingMissingSizes: Bool = false
  ) throws(FeedError) -> Feed {
    let result = bytes.data.withUnsafeBytes { raw in
      Result { () throws(FeedError) in
        try FeedParser.parse(
          raw.bindMemory(to: UInt8.self), shape: shape,
          allowingMissingSizes: allowingMissingSizes, releasingReadPages: bytes.isFileMapping)
      }
    }
    // A file cut short under the mapping reads as zeros from where it ends: whatever was
    // made of them is not the file's.
    if let mapping = bytes.mapping, mapping.hasChanged {
      throw .unreadable(
        path: mapping.path,
        reason: "it changed (it was cut short) while it was read; read it again when it is "
          + "complete")
    }
    var feed = try result.get()
    feed.location = bytes.location
    return feed
  }
}
