/// How the irregular style corrects heights so that neighbouring columns meet.
public enum AlignmentStrategy: String, CaseIterable, Hashable, Sendable {
  /// The seed's rule (``LayoutConfiguration/alignTolerance``): the item being placed alone is
  /// stretched or shrunk, by up to the tolerance, to meet a neighbour column's bottom.
  case seed
  /// The correction is shared by the items of the column since its last fixed edge, and may
  /// meet the neighbour halfway; no item's height moves from its natural height by more than
  /// ``LayoutConfiguration/maxDistortion``. See `SpreadAlignment.swift`.
  case spread
  /// Two columns are levelled only so that an enlargement can follow, where a look-ahead over
  /// the next items finds it buys the most enlargements for the least distortion: each
  /// column's last items share the correction, by at most 3% (or
  /// ``LayoutConfiguration/maxDistortion`` when that is less), and every column is still the
  /// shortest when its item is placed. See `PlannedAlignment.swift`.
  case planned
}
