import Testing

@testable import FallsCLI

@Suite struct CheckLimitTests {
  @Test(
    "Each form of a limit, read and held",
    arguments: [
      ("maxDistortion<=0.1", CheckLimit.Figure.maxDistortion, CheckLimit.Comparison.atMost, 0.1),
      ("items>=20", .items, .atLeast, 20), ("coverage > 0.5", .coverage, .above, 0.5),
      ("skipped<1", .skipped, .below, 1), ("contentHeight <= 1e4", .contentHeight, .atMost, 1e4),
      ("raggedEnd<-0", .raggedEnd, .below, 0),
    ])
  func forms(
    text: String, figure: CheckLimit.Figure, comparison: CheckLimit.Comparison, value: Double
  )
    throws
  {
    let limit = try CheckLimit.parse(text, flag: "limit")
    #expect(limit == CheckLimit(figure: figure, comparison: comparison, value: value))
  }

  @Test(
    "Each comparison holds where it says, and not one ulp past",
    arguments: CheckLimit.Comparison.allCases)
  func comparisons(comparison: CheckLimit.Comparison) {
    let tenth = 0.1
    let holds = [tenth.nextDown, tenth, tenth.nextUp].map { comparison.holds($0, tenth) }
    switch comparison {
    case .atMost: #expect(holds == [true, true, false])
    case .below: #expect(holds == [true, false, false])
    case .atLeast: #expect(holds == [false, true, true])
    case .above: #expect(holds == [false, false, true])
    }
  }

  @Test(
    "A malformed limit or an unknown name is refused, with the forms or the names",
    arguments: [
      "maxDistortion=0.1", "maxDistortion", "<=0.1", "maxDistortion<=x", "maxDistortion<=inf",
      "distortion<=0.1",
    ])
  func refusals(text: String) {
    #expect {
      try CheckLimit.parse(text, flag: "limit")
    } throws: { error in
      guard case .usage(let message, _) = error as? CLIError else { return false }
      return message.contains("NAME<=V") || message.contains("the figures are enlargedShare")
        || message.contains("a finite number")
    }
  }
}
