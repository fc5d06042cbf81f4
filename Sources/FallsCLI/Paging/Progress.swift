import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// What `falls layout` is doing, on a terminal's standard error: the page it fetches when there
/// are several, a request that has taken more than a second, and each retry. One line, written
/// again in place and cleared at the end; a retry keeps a line of its own. Every line is cut to
/// one column less than the terminal, with `…`, so that none wraps (a wrapped line could not be
/// cleared in place). Shown only on a terminal and without `--quiet`, and never on standard
/// output.
///
/// `@unchecked Sendable`: the sink is not Sendable, and is written only inside the lock that
/// guards ``hasLine``, from the run and from the task that tells of a slow request.
final class Progress: @unchecked Sendable {
  private let sink: any ByteSink
  let pages: Int
  let isShown: Bool
  /// The terminal's width, if known.
  let columns: Int?
  /// Whether a line is shown that a next one, or the end, writes over.
  private let hasLine = Locked(false)

  init(sink: any ByteSink, pages: Int, isShown: Bool, columns: Int? = nil) {
    self.sink = sink
    self.pages = pages
    self.isShown = isShown
    self.columns = columns
  }

  /// The progress of a command run with `options`: shown on a terminal's standard error unless
  /// `--quiet` is given.
  convenience init(for options: LayoutOptions, environment: CLIEnvironment) {
    self.init(
      sink: environment.standardError, pages: options.pages,
      isShown: environment.standardErrorIsTerminal && !options.quiet,
      columns: environment.standardErrorColumns)
  }

  func fetching(page: Int, items: Int) {
    guard pages > 1 else { return }
    show("falls: fetching page \(page) of \(pages), \(items) items so far")
  }

  func waiting(for url: String, page: Int) {
    let shown = shownInMessage(redactingCredentials(url))
    let which = pages > 1 ? " (page \(page) of \(pages))" : ""
    show("falls: waiting for GET \(shown)\(which)…")
  }

  func retrying(in seconds: Double, after cause: FetchError.Cause, attempt: Int, of attempts: Int) {
    let tenths = Int((seconds * 10).rounded())
    show(
      "falls: retrying in \(tenths / 10).\(tenths % 10) s: "
        + "\(shownInMessage(cause.description)), attempt \(attempt) of \(attempts)\n")
  }

  func probed(_ done: Int, of total: Int) {
    show("falls: probed \(done) of \(total) images")
  }

  /// ``probed(_:of:)``, for ``ImageBatch/probeAll(_:done:)`` to tell.
  var probedImages: @Sendable (Int, Int) -> Void {
    { [self] done, total in probed(done, of: total) }
  }

  /// Clears the line, if one is shown.
  func clear() {
    show("")
  }

  func finish(pages loaded: Int, items: Int) {
    guard pages > 1 else { return clear() }
    show("falls: fetched \(loaded) of \(pages) pages, \(items) items\n")
  }

  /// Writes `text` over the line shown; an empty text clears it, if there is one.
  private func show(_ text: String) {
    guard isShown else { return }
    let isLine = text.hasSuffix("\n")
    let body = isLine ? String(text.dropLast()) : text
    // The last column is left free: a line that fills it moves some terminals to the next.
    let shown = columns.map { truncated(body, columns: max($0 - 1, 8)) } ?? body
    hasLine.withLock { hasLine in
      guard !text.isEmpty || hasLine else { return }
      try? sink.write("\r\u{1B}[K" + shown + (isLine ? "\n" : ""))
      hasLine = !text.isEmpty && !isLine
    }
  }
}
