/// Which way columns are counted.
public enum LayoutDirection: String, CaseIterable, Hashable, Sendable {
  /// Column 0 is the leftmost.
  case leftToRight = "ltr"
  /// Column 0 is the rightmost, for right-to-left apps; insets stay on their physical edges.
  case rightToLeft = "rtl"
}
