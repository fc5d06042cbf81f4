import FallsBase
import FallsCore
import Foundation
import Testing

@testable import FallsFeed

/// A `data:` URL of a PNG's header only: signature and IHDR, `width` × `height`.
private func pngURL(width: Int, height: Int) -> String {
  func big(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }
  let bytes: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + big(13) + Array("IHDR".utf8)
    + big(width) + big(height) + [8, 2, 0, 0, 0]
  return "data:image/png;base64," + Data(bytes).base64EncodedString()
}

/// A batch that reads no network: `data:` URLs and refused references only.
private func batch(jobs: Int) -> ImageBatch {
  ImageBatch(
    prober: ImageProber(
      fetcher: FeedFetcher(transport: CurlTransport(), policy: FetchPolicy(retries: 0))),
    jobs: jobs)
}

@Suite struct ImageBatchTests {
  @Test(
    "Every image's probe is in the images' place, whatever the jobs, and each end is told once",
    arguments: 0..<24)
  func inOrder(seed: UInt64) async {
    var random = SplitMix64(seed: seed)
    let count = Int(random.next() % 40)
    let jobs = Int(random.next() % 64) + 1
    // Image i is (i + 1) × 7, or, one in five, a reference no feed may use.
    let images = (0..<count).map { index in
      (
        img: index % 5 == 3 ? "gopher://x/\(index)" : pngURL(width: index + 1, height: 7),
        location: FeedLocation.currentFolder
      )
    }
    let told = Locked<[Int]>([])
    let probes = await batch(jobs: jobs).probeAll(images) { done, total in
      #expect(total == count)
      told.withLock { $0.append(done) }
    }
    #expect(probes.count == count)
    for (index, probe) in probes.enumerated() {
      if index % 5 == 3 {
        guard case .refused = probe.outcome else {
          Issue.record("image \(index) is \(probe.outcome), not refused")
          continue
        }
      } else {
        #expect(
          probe.outcome == .header(ImageHeader(format: .png, width: index + 1, height: 7)),
          "image \(index) of \(count), \(jobs) jobs")
      }
    }
    // Told after each end, counting up: the tasks end in any order, the count in one.
    #expect(told.withLock { $0 } == Array(stride(from: 1, through: count, by: 1)))
  }

  /// A feed of `count` items: item i's image is (i + 1) × 7 pixels, or, where `broken` holds
  /// i, a reference no feed may use; item i declares 5 × 5, or no size where `unsized` holds i.
  private func feed(count: Int, broken: Set<Int>, unsized: Set<Int>) throws -> Feed {
    let items = (0..<count).map { index in
      let img = broken.contains(index) ? "gopher://x/\(index)" : pngURL(width: index + 1, height: 7)
      let size = unsized.contains(index) ? "" : #", "width": 5, "height": 5"#
      return #"{"img": "\#(img)"\#(size)}"#
    }
    return try FeedDecoder.decode(
      Data("[\(items.joined(separator: ","))]".utf8), allowingMissingSizes: true)
  }

  @Test("Sizes from images: every item's, or only those the feed gives none, in place")
  func sized() async throws {
    let given = try feed(count: 6, broken: [], unsized: [1, 4])
    let every = try await batch(jobs: 3).sized(
      given, every: true, shape: .finderlist, skipInvalid: false)
    #expect(
      every.items.map(\.width) == [1, 2, 3, 4, 5, 6] && every.items.allSatisfy { $0.height == 7 })
    let fill = try await batch(jobs: 3).sized(
      given, every: false, shape: .finderlist, skipInvalid: false)
    #expect(fill.items.map(\.width) == [5, 2, 5, 5, 5, 5])
    #expect(fill.items.map(\.height) == [5, 7, 5, 5, 7, 5])
    #expect(fill.problems.isEmpty)
  }

  @Test("An image that cannot be read: the first such item thrown, or with skipInvalid left out")
  func unreadable() async throws {
    let given = try feed(count: 6, broken: [2, 4], unsized: [2])
    do {
      _ = try await batch(jobs: 2).sized(
        given, every: true, shape: .finderlist, skipInvalid: false)
      Issue.record("a refused image was read")
    } catch {
      #expect(error.index == 2 && error.field == .img)
      guard case .imageRefused = error.reason else {
        Issue.record("\(error.reason)")
        return
      }
    }
    let skipped = try await batch(jobs: 2).sized(
      given, every: true, shape: .finderlist, skipInvalid: true)
    #expect(skipped.items.map(\.index) == [0, 1, 3, 5])
    #expect(skipped.items.map(\.width) == [1, 2, 4, 6])
    #expect(skipped.problems.map(\.index) == [2, 4])
    #expect(
      skipped.problems.allSatisfy { $0.field == .img && $0.value?.contains("gopher://") == true })
  }

  @Test("The jobs are those --jobs takes: 1 to 64")
  func jobRange() {
    #expect(ImageBatch.jobRange == 1...64)
    #expect(batch(jobs: 1).jobs == 1 && batch(jobs: 64).jobs == 64)
  }
}
