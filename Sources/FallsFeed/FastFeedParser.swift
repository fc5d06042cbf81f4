import FallsBase
import FallsCore
import Foundation

/// A byte-level parser for the common shape of a finderlist feed, many times faster than the
/// `JSONDecoder` path it stands in front of.
///
/// It accepts only documents it can read with certainty: strict JSON (no trailing commas, no
/// byte order mark, shallow nesting) whose items are all valid. On anything else (an invalid
/// item, a duplicate key, a number out of range, invalid UTF-8, a syntax error) it gives up and
/// returns `nil`, and ``FeedDecoder`` decodes with `JSONDecoder`, which reports every problem.
/// Values go through the same helpers as that path (``parseDecimal(_:)``, the span rules), and a
/// differential test holds the two paths to the same results.
enum FastFeedParser {
  /// Reads `data`, or returns `nil` where ``FeedDecoder`` must decide.
  ///
  /// A `data` array longer than `threshold` bytes is read in two halves at once, split at an
  /// item boundary near its middle (see `items()`); the result is the same either way.
  ///
  /// With `releasingReadPages` (for a read-only private mapping of a file only), the pages of
  /// the `data` array are given back to the system as they are read; touched again, they are
  /// read from the file again.
  static func parse(
    _ data: Data, splittingAbove threshold: Int = 1 << 22, releasingReadPages: Bool = false
  ) -> Feed? {
    data.withUnsafeBytes { raw in
      var parser = Parser(
        bytes: raw.bindMemory(to: UInt8.self), splitThreshold: threshold,
        releasesReadPages: releasingReadPages)
      return parser.document()
    }
  }

  /// The input, handed to the thread that reads the second half; only ever read.
  private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
  }

  /// What the two halves read; each thread writes only its own.
  private final class Halves: @unchecked Sendable {
    var first: (run: (items: FeedItems, reachedBoundary: Bool), end: Int)?
    var second: (items: FeedItems, end: Int)?
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Arrays of more bytes than this are read in two halves at once.
    var splitThreshold = Int.max
    /// Whether read pages of the array are given back (see `parse`).
    var releasesReadPages = false

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8 { bytes[position] }

    mutating func skipWhitespace() {
      position = positionAfterWhitespace(in: bytes, from: position)
    }

    mutating func consume(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard !atEnd, current == byte else { return false }
      position += 1
      return true
    }

    mutating func document() -> Feed? {
      guard consume(UInt8(ascii: "{")) else { return nil }
      var feed: Feed?
      if consume(UInt8(ascii: "}")) { return nil }
      repeat {
        guard let key = string() else { return nil }
        guard consume(UInt8(ascii: ":")) else { return nil }
        if key == "data" {
          guard feed == nil, let items = items() else { return nil }
          feed = Feed(items: items)
        } else {
          guard skipValue(depth: 1) else { return nil }
        }
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")) else { return nil }
      skipWhitespace()
      return atEnd ? feed : nil
    }

    /// The items of the `data` array.
    ///
    /// A long array is read in two halves on two threads: this one from the first item, the
    /// other from a guess at an item boundary near the middle (a `{` after `}` and `,`; the
    /// bytes could also be inside a string). The first half confirms the guess only by reaching
    /// it as the start of an item, reading as it always does; if it steps past it instead, it
    /// reads on to the end and the other half's work is dropped. Either way the items, and any
    /// reason to give way, are those of reading from the start.
    mutating func items() -> FeedItems? {
      guard consume(UInt8(ascii: "[")) else { return nil }
      if consume(UInt8(ascii: "]")) { return FeedItems() }
      skipWhitespace()
      let start = position
      guard bytes.count - start > splitThreshold,
        let boundary = itemStart(near: start + (bytes.count - start) / 2)
      else {
        guard var items = itemRun(firstIndex: 0)?.items else { return nil }
        items.trimCapacity()
        return items
      }
      let shared = SharedBytes(bytes: bytes)
      let halves = Halves()
      let releases = releasesReadPages
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        var parser = Parser(bytes: shared.bytes, releasesReadPages: releases)
        if half == 0 {
          parser.position = start
          if let run = parser.itemRun(firstIndex: 0, stoppingAt: boundary) {
            halves.first = (run, parser.position)
          }
        } else {
          parser.position = boundary
          if let run = parser.itemRun(firstIndex: 0) {
            halves.second = (run.items, parser.position)
          }
        }
      }
      // Taken out of the box so that each array has one owner and grows in place.
      guard let reached = halves.first?.run.reachedBoundary, let firstEnd = halves.first?.end
      else { return nil }
      var items = halves.first?.run.items ?? FeedItems()
      halves.first = nil
      guard reached else {
        position = firstEnd
        items.trimCapacity()
        return items
      }
      guard var second = halves.second?.items, let end = halves.second?.end else { return nil }
      halves.second = nil
      position = end
      second.offsetIndices(by: items.count)
      return FeedItems.joined(consume items, consume second)
    }

    /// Items from the start of one, numbered from `firstIndex`: up to the closing bracket of the
    /// array (read), or up to `boundary` when an item starts exactly there.
    mutating func itemRun(firstIndex: Int, stoppingAt boundary: Int = -1)
      -> (items: FeedItems, reachedBoundary: Bool)?
    {
      var items = FeedItems()
      let start = position
      var released = position
      while true {
        guard item(index: firstIndex + items.count, into: &items) else { return nil }
        if releasesReadPages, position - released >= 1 << 22 {
          releasePages(released..<position)
          released = position
        }
        if items.count == 1 {
          // Room for the rest at about this item's length (a little more, as lengths vary), so
          // that a long array is not copied as it grows.
          let length = max(position - start, 16)
          let count = (bytes.count - start) / (length - length / 8) + 1
          let imageLength = items.withImage(at: 0) { $0.count }
          items.reserveCapacity(count, imageByteCount: count * (imageLength + imageLength / 8))
        }
        guard consume(UInt8(ascii: ",")) else {
          guard consume(UInt8(ascii: "]")) else { return nil }
          return (items, false)
        }
        skipWhitespace()
        if position == boundary { return (items, true) }
      }
    }

    /// Gives back the whole pages within `range` of the input (see `parse`).
    func releasePages(_ range: Range<Int>) {
      guard let base = bytes.baseAddress else { return }
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      let low = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
      let high = (Int(bitPattern: base) + range.upperBound) / page * page
      guard high > low, let start = UnsafeMutableRawPointer(bitPattern: low) else { return }
      madvise(start, high - low, MADV_DONTNEED)
    }

    /// The first `{` at or after `guess` whose previous non-blank bytes are `,` and `}`, within
    /// 64 KiB.
    func itemStart(near guess: Int) -> Int? {
      func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
      }
      var candidate = guess
      while candidate < min(bytes.count, guess + 1 << 16) {
        defer { candidate += 1 }
        guard bytes[candidate] == UInt8(ascii: "{") else { continue }
        var before = candidate - 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
        guard before > 0, bytes[before] == UInt8(ascii: ",") else { continue }
        before -= 1
        while before > 0, isBlank(bytes[before]) { before -= 1 }
        if bytes[before] == UInt8(ascii: "}") { return candidate }
      }
      return nil
    }

    /// A number or a string as the value of a size: the raw text, and whether it was quoted.
    mutating func scalarText() -> (Substring, Bool)? {
      skipWhitespace()
      guard !atEnd else { return nil }
      if current == UInt8(ascii: "\"") {
        guard let text = string() else { return nil }
        return (text[...], true)
      }
      let start = position
      guard number() else { return nil }
      return (
        Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self),
        false
      )
    }

    /// Reads one item into `items`; false for anything the fast path does not read.
    mutating func item(index: Int, into items: inout FeedItems) -> Bool {
      guard consume(UInt8(ascii: "{")) else { return false }
      var img: StringValue?
      var width: Double?
      var height: Double?
      var span: Int?
      if consume(UInt8(ascii: "}")) { return false }
      repeat {
        guard let key = plainKey(), consume(UInt8(ascii: ":")) else { return false }
        switch key {
        case .img:
          skipWhitespace()
          guard img == nil, !atEnd, current == UInt8(ascii: "\""), let text = stringValue() else {
            return false
          }
          img = text
        case .width, .height:
          guard let value = size(), value.isFinite, value > 0 else { return false }
          if key == .width {
            guard width == nil else { return false }
            width = value
          } else {
            guard height == nil else { return false }
            height = value
          }
        case .span:
          guard span == nil else { return false }
          skipWhitespace()
          if !atEnd, current == UInt8(ascii: "n") {
            guard literal("null") else { return false }
            span = 1
          } else {
            guard let (text, quoted) = scalarText(), let value = spanValue(text, quoted: quoted)
            else { return false }
            span = value
          }
        case .other:
          guard skipValue(depth: 2) else { return false }
        }
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "}")), let img, let width, let height else { return false }
      switch img {
      case .raw(let range):
        // Raw: no escape, no control character, no quote, ASCII; nothing to escape on output.
        items.append(
          index: index, image: UnsafeBufferPointer(rebasing: bytes[range]), width: width,
          height: height, span: span ?? 1, isPlain: true)
      case .decoded(var text):
        text.withUTF8 {
          items.append(index: index, image: $0, width: width, height: height, span: span ?? 1)
        }
      }
      return true
    }

    enum Key { case img, width, height, span, other }

    /// An item's key, told apart by its bytes without making a string; `nil` for a key with
    /// escapes (the `JSONDecoder` path reads those).
    mutating func plainKey() -> Key? {
      skipWhitespace()
      guard !atEnd, current == UInt8(ascii: "\"") else { return nil }
      let start = position + 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
        let byte = bytes[end]
        if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
        end += 1
      }
      guard end < bytes.count else { return nil }
      position = end + 1
      let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
      // Told apart by length first, then by bytes: no string is made.
      func equals(_ word: StaticString) -> Bool {
        guard let base = key.baseAddress, key.count == word.utf8CodeUnitCount else { return false }
        return memcmp(base, word.utf8Start, key.count) == 0
      }
      switch key.count {
      case 3 where equals("img"): return .img
      case 5 where equals("width"): return .width
      case 6 where equals("height"): return .height
      case 4 where equals("span"): return .span
      default: break
      }
      if key.contains(where: { $0 >= 0x80 }), String(validating: key, as: UTF8.self) == nil {
        return nil
      }
      return .other
    }

    /// A size, quoted or not. A plain run of up to 15 digits is read directly (exactly the
    /// Double that parsing its text gives); anything else goes through ``parseDecimal(_:)``.
    mutating func size() -> Double? {
      skipWhitespace()
      guard !atEnd else { return nil }
      let quoted = current == UInt8(ascii: "\"")
      var cursor = quoted ? position + 1 : position
      var value: UInt64 = 0
      var count = 0
      while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]),
        count < 15
      {
        value = value * 10 + UInt64(bytes[cursor] - UInt8(ascii: "0"))
        cursor += 1
        count += 1
      }
      let closes =
        cursor < bytes.count
        && (quoted
          ? bytes[cursor] == UInt8(ascii: "\"")
          : !(bytes[cursor] == UInt8(ascii: ".") || bytes[cursor] == UInt8(ascii: "e")
            || bytes[cursor] == UInt8(ascii: "E")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor])))
      // JSON numbers may not have leading zeros; strings may ("007").
      let leadingZero = !quoted && count > 1 && bytes[position] == UInt8(ascii: "0")
      if count > 0, closes, !leadingZero {
        position = quoted ? cursor + 1 : cursor
        return Double(value)
      }
      guard let (text, _) = scalarText() else { return nil }
      return parseDecimal(text)
    }

    /// The span rules of the `JSONDecoder` path: a whole number of at least 1, or "full".
    func spanValue(_ text: Substring, quoted: Bool) -> Int? {
      if quoted, text.lowercased() == "full" { return LayoutItem.fullSpan }
      guard let value = parseDecimal(text), value >= 1, value.rounded() == value, value < 1e9
      else { return nil }
      return Int(value)
    }

    /// A JSON string, unescaped; `nil` for a bad escape, a control character or invalid UTF-8.
    mutating func string() -> String? {
      switch stringValue() {
      case .raw(let range):
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
      case .decoded(let text): text
      case nil: nil
      }
    }

    /// A JSON string's text: the input bytes themselves when they are plain ASCII without
    /// escapes, or the unescaped string.
    enum StringValue {
      case raw(Range<Int>)
      case decoded(String)
    }

    mutating func stringValue() -> StringValue? {
      skipWhitespace()
      guard !atEnd, current == UInt8(ascii: "\"") else { return nil }
      position += 1
      let start = position
      var plain = true
      while position < bytes.count {
        // Jump to the next quote, then check what was jumped over in one tight pass.
        guard let base = bytes.baseAddress,
          let found = memchr(base + position, Int32(UInt8(ascii: "\"")), bytes.count - position)
        else { return nil }
        let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        var escapedQuote = false
        var scan = position
        while scan < quote {
          let byte = bytes[scan]
          if byte < 0x20 { return nil }
          if byte >= 0x80 { plain = false }
          if byte == UInt8(ascii: "\\") {
            plain = false
            scan += 2
            if scan > quote {
              escapedQuote = true
              break
            }
            continue
          }
          scan += 1
        }
        if escapedQuote {
          // The quote was escaped (\"): go on after it.
          position = quote + 1
          continue
        }
        position = quote
        break
      }
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
      let body = UnsafeBufferPointer(rebasing: bytes[start..<position])
      position += 1
      if plain { return .raw(start..<position - 1) }
      return unescaped(body).map(StringValue.decoded)
    }

    func unescaped(_ body: UnsafeBufferPointer<UInt8>) -> String? {
      var out: [UInt8] = []
      out.reserveCapacity(body.count)
      var index = 0
      func hex(_ at: Int) -> UInt32? {
        guard at + 4 <= body.count else { return nil }
        var value: UInt32 = 0
        for byte in body[at..<at + 4] {
          let digit: UInt8
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
          case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
          case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
          default: return nil
          }
          value = value * 16 + UInt32(digit)
        }
        return value
      }
      while index < body.count {
        let byte = body[index]
        guard byte == UInt8(ascii: "\\") else {
          out.append(byte)
          index += 1
          continue
        }
        guard index + 1 < body.count else { return nil }
        let escape = body[index + 1]
        index += 2
        if let byte = byteOfEscape(escape) {
          out.append(byte)
          continue
        }
        switch escape {
        case UInt8(ascii: "u"):
          guard var scalar = hex(index) else { return nil }
          index += 4
          if (0xD800..<0xDC00).contains(scalar) {
            guard index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
              body[index + 1] == UInt8(ascii: "u"), let low = hex(index + 2),
              (0xDC00..<0xE000).contains(low)
            else { return nil }
            index += 6
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(scalar) {
            return nil
          }
          guard let unicode = Unicode.Scalar(scalar) else { return nil }
          out.append(contentsOf: String(Character(unicode)).utf8)
        default:
          return nil
        }
      }
      return String(validating: out, as: UTF8.self)
    }

    mutating func literal(_ word: StaticString) -> Bool {
      let length = word.utf8CodeUnitCount
      guard position + length <= bytes.count else { return false }
      let matches = word.withUTF8Buffer { expected in
        expected.elementsEqual(bytes[position..<position + length])
      }
      if matches { position += length }
      return matches
    }

    /// A strict JSON number whose value is finite.
    mutating func number() -> Bool {
      let start = position
      func digits() -> Int {
        var count = 0
        while position < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
        {
          position += 1
          count += 1
        }
        return count
      }
      if !atEnd, current == UInt8(ascii: "-") { position += 1 }
      let integerStart = position
      let integerDigits = digits()
      guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0")
      else { return false }
      if !atEnd, current == UInt8(ascii: ".") {
        position += 1
        guard digits() > 0 else { return false }
      }
      if !atEnd, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        position += 1
        if !atEnd, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
        guard digits() > 0 else { return false }
      }
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
      return Double(text)?.isFinite == true
    }

    /// Skips any JSON value, checking its syntax; nests at most 64 deep.
    mutating func skipValue(depth: Int) -> Bool {
      guard depth < 64 else { return false }
      skipWhitespace()
      guard !atEnd else { return false }
      switch current {
      case UInt8(ascii: "\""):
        return string() != nil
      case UInt8(ascii: "{"):
        position += 1
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
          guard string() != nil, consume(UInt8(ascii: ":")), skipValue(depth: depth + 1) else {
            return false
          }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
      case UInt8(ascii: "["):
        position += 1
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
          guard skipValue(depth: depth + 1) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return number()
      }
    }
  }
}
