import FallsBase

/// What a command's run hands back: a report written in one of the command's formats, and the
/// verdict that ends the run with status 1 once it is written.
protocol FormattedReport {
  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError)
  /// A check failed, an image is not ok, the layouts differ; `nil` when all is well.
  var verdict: CLIError? { get }
  /// What is said of the verdict on standard output when the report went to a file instead.
  var verdictSummary: String? { get }
}

extension FormattedReport {
  var verdict: CLIError? { nil }
  var verdictSummary: String? { nil }
}

/// A text that is the whole report, whatever the format: a completion script, the manual.
struct TextReport: FormattedReport {
  var text: String

  func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    try sink.write(text)
  }
}

extension LayoutReport: FormattedReport {}
extension ProbeReport: FormattedReport {}
extension CheckReport: FormattedReport {}

extension DiffReport: FormattedReport {
  var verdict: CLIError? { diff.isSame ? nil : .layoutsDiffer }
  var verdictSummary: String? { summary }
}
