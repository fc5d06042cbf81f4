/// How a layout arranges its items.
public enum LayoutStyle: String, CaseIterable, Hashable, Sendable {
  /// The random waterfall: some items are enlarged across two columns whose tops line up, and
  /// one-column items whose bottoms land close to a neighbour column's bottom are stretched or
  /// shrunk to meet it.
  case irregular
  /// The plain waterfall: every item in one column, each in the shortest column.
  case waterfall
  /// A repeating quilt of square tiles (规则瀑布流); see ``QuiltPattern``. Image sizes are not
  /// used.
  case grid
  /// Items of one size on a ring centred in the viewport (环形).
  case circle
  /// The rotary drum (立方): items of one size centred in the viewport at the scroll offset,
  /// each turned about the x axis by its own angle and pushed out along z.
  case cube
  /// The sphere (球形): small items centred at the offset, turned about four axes in turn and
  /// pushed out along z.
  case sphere

  /// The family of engines that lays the style out.
  public var family: StyleFamily {
    switch self {
    case .irregular, .waterfall: .columns
    case .grid: .quilt
    case .circle, .cube, .sphere: .ring
    }
  }

  /// The settings the style takes beyond width, seed and items: the one statement of which
  /// options go with which styles, for ``LayoutConfiguration/validate()`` and for a command line
  /// that refuses an option a style would ignore.
  public var options: Set<LayoutOption> {
    let columns: Set<LayoutOption> = [
      .columns, .spacing, .insets, .order, .tolerance, .direction, .axis, .scale, .sections,
    ]
    return switch self {
    case .irregular: columns.union([.enlargeChance, .alignTolerance, .alignment])
    case .waterfall: columns
    case .grid: [.columns, .spacing, .insets, .direction, .axis, .scale, .sections, .pattern]
    case .circle: [.viewportHeight, .itemSize]
    case .cube: [.viewportHeight, .itemSize, .offsetY]
    case .sphere: [.viewportHeight, .itemSize, .offsetX, .offsetY]
    }
  }

  /// Whether the style reads each item's image size (and span): the columnar styles. The grid
  /// and the ring styles place items by their count alone.
  public var usesItemSizes: Bool { family == .columns }

  /// Whether the style draws anything from the seed's random stream: the enlargements, for the
  /// styles that take an enlargement chance.
  public var drawsAtRandom: Bool { options.contains(.enlargeChance) }

  /// Whether the items share one frame and turn with the scroll offset, each by its own angle:
  /// the styles that take an offset.
  public var turnsWithOffset: Bool { !options.isDisjoint(with: [.offsetX, .offsetY]) }

  /// Whether each item carries a 3D transform and a centre (``WaterfallLayout/transforms``,
  /// ``WaterfallLayout/centers``): the ring styles, whose frames are the untransformed ones.
  public var hasTransforms: Bool { family == .ring }

  /// The styles that take `option`, in their order (``options``).
  public static func taking(_ option: LayoutOption) -> [LayoutStyle] {
    allCases.filter { $0.options.contains(option) }
  }

  /// The item size of a ring style when none is given: 50×50, 260×100 and 30×30, as in the
  /// seed.
  public var defaultItemSize: Size? {
    switch self {
    case .circle: Size(width: 50, height: 50)
    case .cube: Size(width: 260, height: 100)
    case .sphere: Size(width: 30, height: 30)
    case .irregular, .waterfall, .grid: nil
    }
  }
}

/// The styles that share an engine, and with it the options they take.
public enum StyleFamily: Hashable, Sendable {
  /// Items in columns by their image sizes: `irregular` and `waterfall`.
  case columns
  /// Square tiles of a repeating block: `grid`.
  case quilt
  /// Items of one size around a centre, placed by their count: `circle`, `cube` and `sphere`.
  case ring
}
