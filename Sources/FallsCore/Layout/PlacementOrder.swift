/// Which column an item goes to.
public enum PlacementOrder: String, CaseIterable, Hashable, Sendable {
  /// The shortest column (or span of columns), leftmost on ties; see
  /// ``LayoutConfiguration/tolerance``.
  case shortest
  /// Columns in turn from the left: item *i* in column *i* mod *c* (CHT's left-to-right).
  case leftToRight = "left-to-right"
  /// Columns in turn from the right: item *i* in column *c* − 1 − (*i* mod *c*).
  case rightToLeft = "right-to-left"
}
