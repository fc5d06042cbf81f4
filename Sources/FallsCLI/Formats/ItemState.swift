import FallsCore

/// What the layout made of an item: left at its place, enlarged across two columns, or aligned
/// with a neighbour column (never both: an enlarged item is never aligned). The one reading of
/// an element's flags, for the table, the pictures' marks and the viewer's boxes.
enum ItemState: Hashable {
  case plain, enlarged, aligned

  /// The state of `item`.
  init(_ item: LayoutElement) {
    self = item.isEnlarged ? .enlarged : item.isAligned ? .aligned : .plain
  }

  /// The table's word for it: `enlarged`, `aligned`, or `-`.
  var word: String {
    switch self {
    case .plain: "-"
    case .enlarged: "enlarged"
    case .aligned: "aligned"
    }
  }
}
