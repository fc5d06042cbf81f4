import FallsCore
import Testing

@testable import FallsCLI

@Suite struct StyleWordsTests {
  @Test(
    "Lists read as a sentence lists them",
    arguments: [
      ([String](), ""), (["a"], "a"), (["a", "b"], "a and b"), (["a", "b", "c"], "a, b and c"),
    ])
  func listed(words: [String], sentence: String) {
    #expect(words.listed == sentence)
  }

  @Test("--style's help names every style with its sentence, in order")
  func styleHelp() {
    let help = LayoutFlag[.style].help
    var position = help.startIndex
    for style in LayoutStyle.allCases {
      let phrase = "\(style.rawValue) \(style.summary)"
      guard let found = help.range(of: phrase, range: position..<help.endIndex) else {
        Issue.record("--style's help lacks '\(phrase)' after the style before it")
        continue
      }
      position = found.upperBound
    }
  }

  @Test("A help sentence that names the styles of an option names exactly those that take it")
  func optionsStyles() {
    let cases: [(FlagName, LayoutOption)] = [
      (.height, .viewportHeight), (.itemSize, .itemSize), (.pattern, .pattern),
      (.enlargeChance, .enlargeChance), (.alignTolerance, .alignTolerance), (.align, .alignment),
    ]
    for (name, option) in cases {
      let help = LayoutFlag[name].help
      #expect(help.contains(LayoutStyle.taking(option).listed), "--\(name)")
      for style in LayoutStyle.allCases where !LayoutStyle.taking(option).contains(style) {
        #expect(!help.contains(style.rawValue), "--\(name) names \(style)")
      }
    }
    #expect(LayoutFlag[.offset].help.hasPrefix("cube (Y) and sphere (X,Y): "))
    #expect(LayoutFlag[.itemSize].help.hasSuffix("Defaults: circle 50, cube 260,100, sphere 30."))
    #expect(LayoutFlag[.quality].help.hasSuffix("For the irregular and waterfall styles."))
    // --fields names every key, and the styles of those only some styles write.
    let fields = LayoutFlag[.fields].help
    for field in ElementField.allCases { #expect(fields.contains(field.rawValue), "\(field)") }
    #expect(fields.contains("center and transform in the circle, cube and sphere styles only"))
    #expect(fields.contains("naturalHeight and distortion in the irregular and waterfall styles"))
    #expect(
      fields.contains("for cube and sphere index, page, angle, tx, ty, tz, width, height, img"))
  }
}
