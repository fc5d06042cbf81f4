/// Many images probed at once, as `falls probe`, `falls check --images` and `--sizes` read
/// them: a fixed number of requests in flight, the results in the images' order.
public struct ImageBatch: Sendable {
  /// How many images may be read at once (`--jobs`).
  public static let jobRange = 1...64
  /// How far an image's ratio may be from the feed's, as a fraction of it, by default
  /// (`--tolerance`).
  public static let tolerance = 0.01

  public let prober: ImageProber
  /// How many images are read at once, within ``jobRange``.
  public let jobs: Int

  public init(prober: ImageProber, jobs: Int) {
    precondition(Self.jobRange.contains(jobs), "jobs \(jobs) outside \(Self.jobRange)")
    self.prober = prober
    self.jobs = jobs
  }

  /// The probe of every image, each a reference and where its feed came from, in their order,
  /// ``jobs`` at a time; `done` is told each time one more has ended, with how many have and
  /// of how many.
  public func probeAll(
    _ images: [(img: String, location: FeedLocation)],
    done: (@Sendable (_ count: Int, _ total: Int) -> Void)? = nil
  ) async -> [ImageProbe] {
    await withTaskGroup(of: (Int, ImageProbe).self) { group in
      var results = [ImageProbe?](repeating: nil, count: images.count)
      var next = 0
      func start() {
        guard next < images.count else { return }
        let (position, image) = (next, images[next])
        next += 1
        group.addTask { (position, await prober.probe(image.img, in: image.location)) }
      }
      for _ in 0..<min(jobs, images.count) { start() }
      var count = 0
      while let (position, probe) = await group.next() {
        results[position] = probe
        count += 1
        done?(count, images.count)
        start()
      }
      // Every task ends with a probe: a cancelled group still gives each its result.
      return results.map { $0 ?? ImageProbe(.unreachable("not probed"), bytesRead: 0) }
    }
  }

  /// `feed` with its items' sizes read from their images, as `--sizes` asks: every item's
  /// (`every`), or those the feed gives none (missing, or refused by the rules). An item whose
  /// image cannot be read is left out and listed among the feed's problems when `skipInvalid`;
  /// else the first such item's problem is thrown, numbered as in `feed`. The image is what
  /// failed, not a declared size it was to replace: an item whose declared size was refused and
  /// whose image cannot be read is named for its image.
  public func sized(
    _ feed: Feed, every: Bool, shape: FeedShape, skipInvalid: Bool,
    done: (@Sendable (_ count: Int, _ total: Int) -> Void)? = nil
  ) async throws(FeedItemProblem) -> Feed {
    var feed = feed
    let positions = feed.items.indices.filter { every || !feed.items[$0].hasSize }
    let items = positions.map { feed.items[$0] }
    let probes = await probeAll(items.map { ($0.img, feed.location) }, done: done)
    var failed: [Int] = []
    for (position, (item, probe)) in zip(positions, zip(items, probes)) {
      let reason: FeedItemProblem.Reason
      switch probe.outcome {
      case .header(let header):
        feed.items.setSize(
          at: position, width: Double(header.displayedWidth),
          height: Double(header.displayedHeight))
        continue
      case .unreachable(let why): reason = .imageUnreachable(why)
      case .refused(let why): reason = .imageRefused(why)
      case .notAnImage(let why): reason = .notAnImage(why)
      }
      let problem = FeedItemProblem(
        index: item.index, field: .img, value: FeedItemProblem.quoted(item.img),
        reason: reason, key: shape.key(of: .img))
      guard skipInvalid else { throw problem }
      feed.problems.append(problem)
      failed.append(position)
    }
    for position in failed.reversed() { feed.items.remove(at: position) }
    feed.problems.sort { $0.index < $1.index }
    return feed
  }
}
