import FallsBase
import FallsFeed

// What a run left out (items --skip-invalid skipped, a page that failed with --keep-partial), as
// every document and verdict line says it.

extension OutputBuffer {
  /// The members of a failed page's object: `"page"`, `"pages"` (how many were asked for) and
  /// `"error"`.
  mutating func appendFailedPageMembers(_ failed: LayoutReport.FailedPage) {
    appendLiteral("\"page\":")
    appendInteger(failed.page)
    appendLiteral(",\"pages\":")
    appendInteger(failed.pages)
    appendLiteral(",\"error\":")
    appendJSONString(failed.error)
  }

  /// What a run left out, as the layout's, `falls check`'s and `falls probe`'s documents end
  /// their head with it: `,"skipped":[…]`, an object an item `--skip-invalid` skipped (nothing
  /// without `--skip-invalid`, `nil`), and `,"failedPage":{…}` when a page failed with
  /// `--keep-partial`.
  mutating func appendLeftOut(
    skipped: [FeedItemProblem]?, failedPage: LayoutReport.FailedPage? = nil
  ) throws(SystemError) {
    if let skipped {
      appendLiteral(",\"skipped\":")
      try appendJSONArray(skipped) { problem, out in
        out.appendLiteral("{")
        out.appendSkippedMembers(problem)
        out.appendLiteral("}")
      }
    }
    if let failedPage {
      appendLiteral(",\"failedPage\":{")
      appendFailedPageMembers(failedPage)
      appendLiteral("}")
    }
  }

  /// The members of a skipped item's object (`--skip-invalid`), as the layout's `skipped` and
  /// `falls check`'s write them: `"index"`, `"field"`, `"key"` (where the feed's shape puts the
  /// field), `"type"` (the JSON type of the feed's value, or `missing`), `"value"` (the value
  /// itself when a string, number or boolean, a long string shortened as a message quotes it;
  /// `null` for a container, a number too long to quote, or none), `"reason"` (a word of
  /// ``skippedReason(_:)``) and `"error"` (why its image could not be read, or `null`).
  mutating func appendSkippedMembers(_ problem: FeedItemProblem) {
    appendLiteral("\"index\":")
    appendInteger(problem.index)
    appendLiteral(",\"field\":")
    appendJSONString(problem.field.rawValue)
    appendLiteral(",\"key\":")
    appendJSONString(problem.key)
    let type = problem.valueType
    appendLiteral(",\"type\":")
    appendJSONString(type)
    appendLiteral(",\"value\":")
    // The notation is the feed's own JSON (strict, as the scanner read it), a string's
    // escaped again. A number is written as the feed wrote it where a double holds it: one
    // shortened for a message, or past a double's range (1e400), is null, as every number
    // falls writes is finite.
    switch (type, problem.value) {
    case ("string", let value?), ("boolean", let value?): append(value)
    case ("number", let value?) where !value.contains("…") && parseDecimal(value)?.isFinite == true:
      append(value)
    default: appendLiteral("null")
    }
    let (reason, error) = skippedReason(problem.reason)
    appendLiteral(",\"reason\":")
    appendJSONString(reason)
    appendLiteral(",\"error\":")
    if let error { appendJSONString(error) } else { appendLiteral("null") }
  }
}

/// What a verdict line adds for what a run left out: `; skipped 2 items (--skip-invalid)`,
/// `; page 3 of 4 failed (--keep-partial)`; nothing when it left nothing out.
func leftOutWords(skipped: [FeedItemProblem]?, failedPage: LayoutReport.FailedPage? = nil)
  -> String
{
  let count = skipped?.count ?? 0
  return (count == 0 ? "" : "; skipped \(count) item\(count == 1 ? "" : "s") (--skip-invalid)")
    + (failedPage.map { "; page \($0.page) of \($0.pages) failed (--keep-partial)" } ?? "")
}

/// Why an item was skipped, as a document says it: a word (the reason's case) and, for its
/// image, the error.
func skippedReason(_ reason: FeedItemProblem.Reason) -> (word: String, error: String?) {
  switch reason {
  case .missing: ("missing", nil)
  case .notANumber: ("notANumber", nil)
  case .notPositive: ("notPositive", nil)
  case .notFinite: ("notFinite", nil)
  case .notAString: ("notAString", nil)
  case .notAnObject: ("notAnObject", nil)
  case .invalidSpan: ("invalidSpan", nil)
  case .tooTall: ("tooTall", nil)
  case .tooShort: ("tooShort", nil)
  case .imageUnreachable(let why): ("imageUnreachable", why)
  case .imageRefused(let why): ("imageRefused", why)
  case .notAnImage(let why): ("notAnImage", why)
  }
}
