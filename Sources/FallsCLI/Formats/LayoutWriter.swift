import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// Writes a layout as `falls layout --format <format>` does, with `images[i]` as item *i*'s
/// `img` (feed index *i*, page 1): for apps that embed falls and for the benchmark.
public struct LayoutWriter {
  private let report: LayoutReport

  /// Prepares `layout` for writing.
  ///
  /// - Precondition: `images.count == layout.elements.count`.
  /// - Complexity: O(*n*) for *n* elements.
  public init(_ layout: WaterfallLayout, images: [String]) {
    precondition(images.count == layout.elements.count, "one image per element")
    let items = FeedItems(
      images.enumerated().lazy.map { index, img in
        FeedItem(index: index, img: img, width: 1, height: 1)
      })
    report = LayoutReport(sectioned: SectionedLayout(layout), items: PlacedItems(items, page: 1))
  }

  /// Writes the layout in `format` to `sink`.
  ///
  /// - Throws: The error of a failed write.
  /// - Complexity: O(*n*) for *n* elements.
  public func write(_ format: OutputFormat, to sink: any ByteSink) throws(SystemError) {
    try report.write(format, to: sink)
  }
}
