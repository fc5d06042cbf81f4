// How wide text is on a terminal, in columns: what the table, the viewer and the progress line
// measure with, so that nothing they print wraps.

/// The East Asian Wide and Fullwidth ranges of Unicode 15 (EastAsianWidth.txt) outside the
/// emoji, which ``displayWidth(of:)`` finds by their emoji presentation: Hangul Jamo, the CJK
/// blocks and ideographs, Hiragana, Katakana, Hangul syllables, the fullwidth forms, Tangut,
/// Kana supplements and the ideographic planes.
private let wideRanges: [ClosedRange<UInt32>] = [
  0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
  0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
  0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
  0x16FF0...0x16FF1, 0x17000...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1B2FB,
  0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
  0x20000...0x2FFFD, 0x30000...0x3FFFD,
]

/// The columns `scalar` takes on a terminal: 2 for an East Asian wide or fullwidth character
/// and an emoji shown as one, 0 for a combining mark (it sits on the character before it) and a
/// zero-width one, 1 for every other.
///
/// - Complexity: O(log *r*) for the *r* ranges of wide characters.
public func displayWidth(of scalar: Unicode.Scalar) -> Int {
  let value = scalar.value
  if value < 0x300 { return 1 }
  switch scalar.properties.generalCategory {
  case .nonspacingMark, .enclosingMark, .format: return 0
  default: break
  }
  if scalar.properties.isEmojiPresentation { return 2 }
  var (low, high) = (0, wideRanges.count)
  while low < high {
    let middle = (low + high) / 2
    if wideRanges[middle].upperBound < value { low = middle + 1 } else { high = middle }
  }
  return low < wideRanges.count && wideRanges[low].contains(value) ? 2 : 1
}

/// The columns `text` takes on a terminal: the sum of its scalars' (``displayWidth(of:)``).
///
///     displayWidth("瀑布流.jpg")  // 10
///
/// - Complexity: O(*n*) in the length of `text`.
public func displayWidth(_ text: some StringProtocol) -> Int {
  var width = 0
  for scalar in text.unicodeScalars { width += displayWidth(of: scalar) }
  return width
}

extension StringProtocol {
  /// The longest start of the text, in whole characters, at most `width` columns wide.
  public func prefix(columns width: Int) -> SubSequence {
    var used = 0
    var end = startIndex
    for character in self {
      let next = used + displayWidth(String(character))
      guard next <= width else { break }
      used = next
      end = index(after: end)
    }
    return self[..<end]
  }

  /// The longest end of the text, in whole characters, at most `width` columns wide.
  public func suffix(columns width: Int) -> SubSequence {
    var used = 0
    var start = endIndex
    while start > startIndex {
      let before = index(before: start)
      let next = used + displayWidth(String(self[before]))
      guard next <= width else { break }
      used = next
      start = before
    }
    return self[start...]
  }
}

/// `text` in at most `width` columns: whole, or its start and `…`.
public func truncated(_ text: String, columns width: Int) -> String {
  guard displayWidth(text) > width else { return text }
  guard width > 1 else { return String(text.prefix(columns: width)) }
  return text.prefix(columns: width - 1) + "…"
}

/// Wraps `text` at its spaces into lines of at most `width` columns, each after `indent`
/// spaces; a word wider than a line is broken where the line ends.
///
/// - Complexity: O(*n*) in the length of `text`.
public func wrap(_ text: String, indent: Int, width: Int) -> String {
  let prefix = String(repeating: " ", count: indent)
  let room = max(width - indent, 1)
  var lines: [String] = []
  var line = prefix
  var used = indent
  for word in text.split(separator: " ") {
    var word = Substring(word)
    var wordWidth = displayWidth(word)
    if used > indent, used + 1 + wordWidth > width {
      lines.append(line)
      (line, used) = (prefix, indent)
    }
    while wordWidth > room {
      if used > indent { lines.append(line) }
      let piece = word.prefix(columns: room)
      // A character wider than the room still goes, alone on its line.
      let taken = piece.isEmpty ? word.prefix(1) : piece
      lines.append(prefix + taken)
      word = word[taken.endIndex...]
      wordWidth = displayWidth(word)
      (line, used) = (prefix, indent)
    }
    if used > indent {
      line += " "
      used += 1
    }
    line += word
    used += wordWidth
  }
  lines.append(line)
  return lines.joined(separator: "\n")
}
