/// Whether a columnar style enlarges and aligns: a type, so that the placement loop of the plain
/// waterfall is compiled without the irregular rules.
protocol ColumnStyle {
  static var enlargesAndAligns: Bool { get }
  /// Whether alignment is ``SpreadAlignment``'s rather than the seed's.
  static var spreads: Bool { get }
  /// What the loop keeps of each column's free run.
  associatedtype Runs: RunTracking
}

/// The irregular style: the rules of ``Enlargement`` and ``Alignment`` apply.
enum Irregular: ColumnStyle {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { false }
  typealias Runs = NoRuns
}

/// The irregular style with the seed's alignment, keeping the free runs for a flat end.
enum TrackedIrregular: ColumnStyle {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { false }
  typealias Runs = FreeRuns
}

/// The irregular style with the rules of ``Enlargement`` and ``SpreadAlignment``.
enum Spread: ColumnStyle {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { true }
  typealias Runs = FreeRuns
}

/// The waterfall style: every item at its natural height.
enum Plain: ColumnStyle {
  static var enlargesAndAligns: Bool { false }
  static var spreads: Bool { false }
  typealias Runs = NoRuns
}
