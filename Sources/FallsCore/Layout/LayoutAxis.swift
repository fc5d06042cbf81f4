/// The direction the content scrolls in.
public enum LayoutAxis: String, CaseIterable, Hashable, Sendable {
  /// Columns side by side, content growing downward.
  case vertical
  /// Rows one above another, content growing to the right: the same rules with x and y
  /// exchanged. The rows share the viewport height; an item's natural width is
  /// `rowHeight · width / height`.
  case horizontal
}
