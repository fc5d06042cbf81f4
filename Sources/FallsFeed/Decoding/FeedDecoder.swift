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

  /// Decodes one page of a feed as ``decode(_:shape:allowingMissingSizes:)-swift.type.method``
  /// does, and says whose fault bytes that are not JSON are by where they came from: a URL's
  /// body is the server's wrong answer (``FeedReadError/fetch(_:)``, named by that URL), and
  /// markup read from a file or standard input (a page saved from a browser, say) is named as
  /// such.
  public static func decodePage(
    _ bytes: FeedBytes, shape: FeedShape = .finderlist, allowingMissingSizes: Bool = false
  ) throws(FeedReadError) -> Feed {
    do {
      return try decode(bytes, shape: shape, allowingMissingSizes: allowingMissingSizes)
    } catch {
      guard case .notJSON(let detail) = error else { throw .feed(error) }
      let name: String
      switch bytes.location {
      case .web(let url):
        throw .fetch(
          FetchError(url: url.absoluteString, cause: .invalidJSON(detail: detail), attempts: 1))
      case .file(let path): name = "the file '\(shownInMessage(path))'"
      case .currentFolder: name = "standard input"
      }
      let start = bytes.data.prefix(256).drop {
        [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0)
      }
      guard start.first == UInt8(ascii: "<") else { throw .feed(error) }
      let opening =
        String(decoding: start.prefix(40), as: UTF8.self).split(separator: "\n").first ?? ""
      throw .feed(
        .notJSON(
          detail: "\(name) looks like an HTML or XML page (it starts "
            + "\"\(escapingControlCharacters(String(opening)))\"), not a finderlist JSON feed "
            + "(\(detail))"))
    }
  }
}
