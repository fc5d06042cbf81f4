import FallsBase
import Testing

@Suite struct DisplayWidthTests {
  @Test(
    "Widths on a terminal, by hand: wide and fullwidth 2, combining marks 0, the rest 1",
    arguments: [
      ("", 0), ("abc", 3), ("瀑布流", 6), ("e\u{301}", 1), ("😀", 2), ("ｱ", 1), ("Ａ", 2),
      ("한국", 4), ("テスト", 6), ("a\u{20DD}", 1), ("café-naïve", 10), ("🎉🎈", 4),
      ("\u{3000}", 2), ("→", 1), ("…", 1), ("𠀀", 2),
    ])
  func widths(text: String, width: Int) {
    #expect(displayWidth(text) == width)
  }

  @Test("Every scalar's width is 0, 1 or 2, and a wide range's ends are wide")
  func everyScalar() {
    for value in stride(from: 0, to: 0x10FFFF, by: 97) {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      #expect((0...2).contains(displayWidth(of: scalar)))
    }
    for value: UInt32 in [0x1100, 0x115F, 0x4E00, 0x9FFF, 0xAC00, 0xD7A3, 0xFF01, 0x20000] {
      #expect(displayWidth(of: Unicode.Scalar(value) ?? " ") == 2, "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x10FF, 0x1160, 0xD7A4, 0xFF61] {
      #expect(displayWidth(of: Unicode.Scalar(value) ?? " ") != 2, "U+\(String(value, radix: 16))")
    }
  }

  @Test("A start or an end in columns takes whole characters, never more than the columns")
  func prefixAndSuffix() {
    #expect("瀑布流.jpg".prefix(columns: 3) == "瀑")
    #expect("瀑布流.jpg".prefix(columns: 4) == "瀑布")
    #expect("瀑布流.jpg".suffix(columns: 5) == ".jpg")
    #expect("瀑布流.jpg".suffix(columns: 6) == "流.jpg")
    #expect("cafe\u{301}".suffix(columns: 1) == "e\u{301}")
    #expect(truncated("abcdef", columns: 4) == "abc…")
    #expect(truncated("abc", columns: 4) == "abc")
    #expect(truncated("瀑布流", columns: 4) == "瀑…")
  }

  @Test("Text wraps at the width without breaking words")
  func wrapping() {
    let text = wrap("one two three four five six", indent: 2, width: 12)
    #expect(text == "  one two\n  three four\n  five six")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 12 })
    // Wide characters count twice.
    #expect(wrap("瀑布 流水 山川", indent: 0, width: 9) == "瀑布 流水\n山川")
  }

  @Test("A word longer than a line is broken where the line ends")
  func longWord() {
    #expect(
      wrap("see http://127.0.0.1:8080/a/b/c ok", indent: 0, width: 10)
        == "see\nhttp://127\n.0.0.1:808\n0/a/b/c ok")
    #expect(wrap("abcdefgh", indent: 2, width: 5) == "  abc\n  def\n  gh")
    #expect(wrap("瀑布流瀑布", indent: 0, width: 5) == "瀑布\n流瀑\n布")
  }
}
