import FallsCore
import Testing

@Suite struct LayoutParameterTests {
  @Test(
    "Each parameter states the range it accepts",
    arguments: [
      (LayoutParameter.width, "a number above 0, at most 1000000000"),
      (.columnSpacing, "a number from 0 to 1000000000"),
      (.rowSpacing, "a number from 0 to 1000000000"),
      (.topInset, "a number from 0 to 1000000000"), (.leftInset, "a number from 0 to 1000000000"),
      (.bottomInset, "a number from 0 to 1000000000"),
      (.rightInset, "a number from 0 to 1000000000"),
      (.enlargeChance, "a probability from 0 to 1"),
      (.alignTolerance, "a fraction from 0 up to (not including) 1"),
      (.maxDistortion, "a fraction from 0 up to (not including) 1"),
      (.viewportHeight, "a number above 0, at most 1000000000"),
      (.itemWidth, "a number above 0, at most 1000000000"),
      (.itemHeight, "a number above 0, at most 1000000000"),
      (
        .offsetX,
        "a number from -1000000000 to 1000000000, within a million viewports of 0"
      ),
      (
        .offsetY,
        "a number from -1000000000 to 1000000000, within a million viewports of 0"
      ),
      (.tolerance, "a number from 0 to 1000000000"), (.scale, "a number from 1 to 1000"),
    ])
  func expectations(parameter: LayoutParameter, words: String) {
    #expect(parameter.expectation == words)
  }

  /// A configuration of `style` whose `parameter` is `value`, in a style that takes it.
  private func configuration(_ parameter: LayoutParameter, _ value: Double) -> LayoutConfiguration {
    var configuration = LayoutConfiguration()
    configuration.set(parameter, to: value)
    switch parameter {
    case .viewportHeight, .itemWidth, .itemHeight, .offsetX, .offsetY:
      configuration.style = .sphere
      // Wide and tall enough that the largest offset is within a million viewports.
      configuration.width = 1e9
      configuration.viewportHeight = parameter == .viewportHeight ? value : 1e9
    case .width:
      configuration.insets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
      configuration.columnSpacing = 0
    case .columnSpacing, .leftInset, .rightInset:
      configuration.width = 1e9
    default: break
    }
    return configuration
  }

  @Test(
    "validate() refuses exactly the values outside each parameter's range, naming it",
    arguments: LayoutParameter.allCases)
  func validationIsTheRange(parameter: LayoutParameter) {
    let range = parameter.range
    var values = [range.lower, range.upper, .nan, .infinity, -.infinity, 0, 1]
    values += [range.lower.nextDown, range.lower.nextUp, range.upper.nextDown, range.upper.nextUp]
    for value in values {
      let configuration = configuration(parameter, value)
      var refused: LayoutParameter?
      do {
        try configuration.validate()
      } catch {
        if case .invalidValue(let named, _) = error { refused = named }
      }
      if range.contains(value) {
        #expect(refused == nil, "\(parameter) \(value)")
      } else {
        #expect(refused == parameter, "\(parameter) \(value)")
      }
    }
  }
}
