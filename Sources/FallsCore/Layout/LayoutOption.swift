/// A setting of ``LayoutConfiguration`` that only some styles use.
public enum LayoutOption: String, CaseIterable, Hashable, Sendable {
  case columns
  case spacing
  case insets
  case enlargeChance
  case alignTolerance
  case pattern
  case viewportHeight
  case itemSize
  case offsetX
  case offsetY
  case order
  case tolerance
  case direction
  case axis
  case scale
  /// Headers, footers and a least content height (``SectionedLayout``).
  case sections
  /// The alignment strategy, its distortion bound and the flat end (``AlignmentStrategy``).
  case alignment
}
