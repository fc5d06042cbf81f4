/// How the irregular style corrects heights so that neighbouring columns meet.
public enum AlignmentStrategy: String, CaseIterable, Hashable, Sendable {
  /// The seed's rule (``LayoutConfiguration/alignTolerance``): the item being placed alone is
  /// stretched or shrunk, by up to the tolerance, to meet a neighbour column's bottom.
  case seed
  /// The correction is shared by the items of the column since its last fixed edge, and may
  /// meet the neighbour halfway; no item's height moves from its natural height by more than
  /// ``LayoutConfiguration/maxDistortion``. See `SpreadAlignment.swift`.
  case spread
}
