import FallsCore

/// What the layout made of an item: left at its place, enlarged across two columns, aligned
/// with a neighbour column, or both (under `--align planned` an enlarged item heading a column's
/// tail moves with a levelling). The one reading of an element's flags, for the table, the
/// pictures' marks and the viewer's boxes.
enum ItemState: Hashable {
  case plain, enlarged, aligned, enlargedAligned

  /// The state of `item`.
  init(_ item: LayoutElement) {
    switch (item.isEnlarged, item.isAligned) {
    case (false, false): self = .plain
    case (true, false): self = .enlarged
    case (false, true): self = .aligned
    case (true, true): self = .enlargedAligned
    }
  }

  /// Whether the item spans two columns as an enlargement (the viewer's double box).
  var isEnlarged: Bool { self == .enlarged || self == .enlargedAligned }
  /// Whether its height was corrected to meet a neighbour column (the viewer's `≈`).
  var isAligned: Bool { self == .aligned || self == .enlargedAligned }

  /// The table's word for it: `enlarged`, `aligned`, `enlarged+aligned`, or `-`.
  var word: StaticString {
    switch self {
    case .plain: "-"
    case .enlarged: "enlarged"
    case .aligned: "aligned"
    case .enlargedAligned: "enlarged+aligned"
    }
  }
}
