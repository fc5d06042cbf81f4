import FallsCore

/// What a picture (`--format svg`, `html`) marks an item as: one mark an item, which its class
/// names and the legend explains.
///
/// A distorted item shows its band (``DistortionBand``), which says more than that it was
/// aligned; an aligned item at its natural height (within a grid step) shows as aligned. An
/// enlarged item shows as enlarged unless it is distorted (under `--align planned` one that
/// heads a levelled tail): then its band, and its class names it enlarged too.
enum ItemMark: Hashable, Comparable {
  case plain, enlarged, aligned
  case distorted(DistortionBand)
  case enlargedDistorted(DistortionBand)

  /// The mark of `item`, whose distortion is `distortion` (`nil` for a style without them).
  init(_ item: LayoutElement, distortion: Double?) {
    let band = distortion.map(DistortionBand.init) ?? .natural
    switch ItemState(item) {
    case .enlarged, .enlargedAligned:
      self = band == .natural ? .enlarged : .enlargedDistorted(band)
    case _ where band != .natural: self = .distorted(band)
    case .aligned: self = .aligned
    case .plain: self = .plain
    }
  }

  /// The class the mark adds to an item's `item` class: ` enlarged`, ` aligned`, ` d1` …,
  /// ` enlarged d1` … or nothing.
  var className: String {
    switch self {
    case .plain: ""
    case .enlarged: " enlarged"
    case .aligned: " aligned"
    case .distorted(let band): String(describing: band.className)
    case .enlargedDistorted(let band): " enlarged" + String(describing: band.className)
    }
  }

  /// The marks the legend explains this one by: an enlarged distorted item by both.
  var legendMarks: [ItemMark] {
    guard case .enlargedDistorted(let band) = self else { return [self] }
    return [.enlarged, .distorted(band)]
  }

  /// What the legend says of the mark.
  var label: String {
    switch self {
    case .plain: "item"
    case .enlarged: "enlarged"
    case .aligned: "aligned"
    case .distorted(let band), .enlargedDistorted(let band): band.label
    }
  }

  static func < (a: ItemMark, b: ItemMark) -> Bool {
    func rank(_ mark: ItemMark) -> Int {
      switch mark {
      case .plain: 0
      case .enlarged: 1
      case .aligned: 2
      case .distorted(let band), .enlargedDistorted(let band): 2 + band.rawValue
      }
    }
    return rank(a) < rank(b)
  }
}

extension LayoutReport {
  /// What a picture of the selected elements shows, for a legend that lists only that: the
  /// items' marks, and whether there are headers or footers.
  ///
  /// - Complexity: O(*n*) for the *n* elements selected.
  func usedMarks(distortions: [Double]?) -> (marks: [ItemMark], hasBands: Bool) {
    var marks = Set<ItemMark>()
    var hasBands = false
    forEachSelected { element in
      guard let item = element.item else {
        hasBands = true
        return
      }
      marks.formUnion(ItemMark(item, distortion: distortions?[item.index]).legendMarks)
    }
    return (marks.sorted(), hasBands)
  }
}
