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
}
