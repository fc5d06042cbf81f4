import FallsFeed
import Testing

@Suite struct FeedErrorTests {
  @Test(
    "Problem messages name the item, the field, the value and what was expected",
    arguments: [
      (
        FeedItemProblem(index: 3, field: .width, value: "\"abc\"", reason: .notANumber),
        "item 3: \"width\" is \"abc\"; expected a positive number, as a string like \"1200\" or a JSON number"
      ),
      (
        FeedItemProblem(index: 0, field: .height, value: nil, reason: .missing),
        "item 0: \"height\" is missing; expected a positive number, as a string like \"1200\" or a JSON number"
      ),
      (
        FeedItemProblem(index: 7, field: .img, value: "3", reason: .notAString),
        "item 7: \"img\" is 3; expected a string, the image's URL"
      ),
      (
        FeedItemProblem(index: 2, field: .item, value: "5", reason: .notAnObject),
        "item 2: the item is 5, not an object; expected an object like {\"img\": …, \"width\": \"1200\", \"height\": \"2249\"}"
      ),
      (
        FeedItemProblem(index: 9, field: .height, value: "1e300", reason: .tooTall),
        "item 9: \"height\" 1e300 makes it too tall to lay out; expected a height/width ratio whose height in points is at most 1e300"
      ),
      (
        FeedItemProblem(index: 4, field: .height, value: "5e-324", reason: .tooShort),
        "item 4: \"height\" 5e-324 makes it too short to lay out; expected a height/width ratio whose height in points is above 0 and not lost in rounding "
          + "against the position it lands at (far below very tall items)"
      ),
    ])
  func messages(problem: FeedItemProblem, message: String) {
    #expect(problem.message == message)
  }
}
