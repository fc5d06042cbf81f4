import FallsBase
import FallsFeed
import FallsTestSupport
import Foundation
import Testing

@testable import FallsCLI

/// A page of `valid` items and `invalid` problems, as `next` hands it to the run.
private func page(valid: Int, invalid: Int = 0) -> (feed: Feed, count: Int) {
  let items = (0..<valid).map { FeedItem(index: $0, img: "i\($0)", width: 3, height: 4) }
  let problems = (0..<invalid).map {
    FeedItemProblem(index: valid + $0, field: .width, value: "\"0\"", reason: .notPositive)
  }
  return (Feed(items: items, problems: problems), valid + invalid)
}

/// The options of a run of `pages` pages.
private func options(pages: Int, keepPartial: Bool = false) -> LayoutOptions {
  var options = LayoutOptions()
  (options.pages, options.keepPartial) = (pages, keepPartial)
  return options
}

/// Reads the pages of `script`, one entry a page: a page, or the error it fails with.
private func read(
  _ script: [Result<(feed: Feed, count: Int), CLIError>], _ options: LayoutOptions
) async throws(CLIError) -> (run: PageRun, asked: Int) {
  var asked = 0
  let progress = Progress(sink: BufferSink(), pages: options.pages, isShown: false)
  let run = try await PageRun.read(options, progress: progress) { (_) throws(CLIError) in
    asked += 1
    return try script[asked - 1].get()
  }
  return (run, asked)
}

private let serverDown = CLIError.refused("the server is down")

@Suite(.tags(.process)) struct PageRunTests {
  @Test("Every page asked for is read, and what each skipped is kept in order")
  func readsAll() async throws {
    let (run, asked) = try await read(
      [.success(page(valid: 3, invalid: 1)), .success(page(valid: 2, invalid: 2))],
      options(pages: 2))
    #expect(asked == 2)
    #expect(run.pagesRead == 2 && run.itemsRead == 8 && run.kept == 5)
    #expect(run.skipped.map(\.index) == [3, 2, 3])
    #expect(run.notes.isEmpty && run.failedPage == nil)
  }

  @Test("An empty page ends the run, told when more pages were asked for")
  func emptyPageEnds() async throws {
    let (run, asked) = try await read(
      [.success(page(valid: 4)), .success(page(valid: 0)), .success(page(valid: 9))],
      options(pages: 3))
    #expect(asked == 2 && run.pagesRead == 1 && run.kept == 4)
    #expect(run.notes == ["page 2 of 3 is empty: the feed has no more items after 4"])
  }

  @Test(
    "A failed page is the run's error, numbered when more were asked for; the first is, even with --keep-partial",
    arguments: [
      (1, 1, false, "the server is down"), (3, 1, true, "page 1: the server is down"),
      (3, 2, false, "page 2: the server is down"),
    ])
  func failedPageFails(pages: Int, failing: Int, keepPartial: Bool, message: String) async {
    let script: [Result<(feed: Feed, count: Int), CLIError>] = (1...pages).map {
      $0 == failing ? .failure(serverDown) : .success(page(valid: 2))
    }
    do throws(CLIError) {
      _ = try await read(script, options(pages: pages, keepPartial: keepPartial))
      Issue.record("page \(failing) failed, and the run went on")
    } catch {
      #expect(outcome(of: error).message == message)
      #expect(outcome(of: error).code == .usage)
    }
  }

  @Test("With --keep-partial a later page that fails ends the run, the pages before kept")
  func keepPartial() async throws {
    let (run, asked) = try await read(
      [.success(page(valid: 2)), .success(page(valid: 3)), .failure(serverDown)],
      options(pages: 4, keepPartial: true))
    #expect(asked == 3 && run.pagesRead == 2 && run.kept == 5)
    #expect(
      run.failedPage
        == LayoutReport.FailedPage(page: 3, pages: 4, error: "the server is down"))
    #expect(
      run.notes == [
        "page 3 of 4 failed, printing the 2 pages that arrived (5 items): the server is down"
      ])
  }

  @Test("Every item read skipped is no valid item (65), over the pages, not page by page")
  func noValidItem() async throws {
    // A page of invalid items among valid pages is skipped as ever.
    let (run, _) = try await read(
      [.success(page(valid: 0, invalid: 2)), .success(page(valid: 1))], options(pages: 2))
    #expect(run.kept == 1 && run.skipped.count == 2)
    do throws(CLIError) {
      _ = try await read(
        [.success(page(valid: 0, invalid: 2)), .success(page(valid: 0, invalid: 3))],
        options(pages: 2))
      Issue.record("no item was valid, and the run passed")
    } catch {
      #expect(outcome(of: error).code == .dataError)
      #expect(outcome(of: error).message.hasPrefix("no valid item: skipped 5 of 5"))
    }
  }

  @Test(
    "--pages 2 --keep-partial with page 2 failing gives page 1 and 0, in every command that pages",
    arguments: [
      (["layout", "-f", "jsonl"], #"{"kind":"failedPage","page":2,"pages":2,"#),
      (["check", "--images"], "passed: 6 checks; page 2 of 2 failed (--keep-partial)"),
      (["probe"], "3 images: 3 ok; page 2 of 2 failed (--keep-partial)"),
    ])
  func everyCommandKeepsPartial(command: [String], said: String) async throws {
    let server = try await TestServer()
    let feed = server.url("/images-feed/3?path=/image/jpeg-41x29.jpg&fail=2&page={page}")
    let result = await runCLI(
      command + [feed, "--pages", "2", "--keep-partial", "--retries", "0"])
    #expect(result.code == .success)
    #expect(result.standardOutput.contains(said))
    let failed = server.url("/images-feed/3?path=/image/jpeg-41x29.jpg&fail=2&page=2")
    #expect(
      result.standardError
        == "falls: page 2 of 2 failed, printing the 1 page that arrived (3 items): GET \(failed): "
        + "HTTP 500 Internal Server Error; expected a 2xx answer with a finderlist JSON feed\n")
    // Page 1's three images are read by the commands that read images, and no other.
    let images = try server.log().filter { $0["method"] == "GET" }.compactMap { $0["path"] }
      .filter { $0.hasPrefix("/image/") }
    #expect(
      Set(images)
        == (command[0] == "layout" ? [] : Set((0..<3).map { "/image/jpeg-41x29.jpg?\($0)" })))
  }
}
