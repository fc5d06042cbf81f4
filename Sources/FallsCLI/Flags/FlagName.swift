/// The name of every flag of `falls layout` and `falls view`, in the order of the help: the keys of
/// the flag table (``LayoutFlag/all``), so that a rule between flags names them as values the
/// compiler checks, not as strings a typo would slip past.
enum FlagName: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case feed
  case items
  case keys
  case pages
  case pageSize = "page-size"
  case keepPartial = "keep-partial"
  case timeout
  case maxTime = "max-time"
  case retries
  case maxBytes = "max-bytes"
  case quiet
  case sizes
  case jobs
  case allowLocalImages = "allow-local-images"
  case synthetic
  case minHeight = "min-height"
  case maxHeight = "max-height"
  case style
  case columns
  case minColumnWidth = "min-column-width"
  case width
  case columnSpacing = "column-spacing"
  case rowSpacing = "row-spacing"
  case spacing
  case insets
  case seed
  case enlargeChance = "enlarge-chance"
  case alignTolerance = "align-tolerance"
  case align
  case maxDistortion = "max-distortion"
  case flatEnd = "flat-end"
  case order
  case tolerance
  case direction
  case axis
  case scale
  case headerHeight = "header-height"
  case footerHeight = "footer-height"
  case minContentHeight = "min-content-height"
  case pattern
  case height
  case itemSize = "item-size"
  case offset
  case format
  case output
  case fields
  case quality
  case rect
  case skipInvalid = "skip-invalid"
  case limit
  case images
  case help
  case version

  /// The name as typed after `--`.
  var description: String { rawValue }
}
