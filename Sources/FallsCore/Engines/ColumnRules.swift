/// Which of the columnar rules a placement loop applies: a type, so that the loop of the plain
/// waterfall is compiled without the irregular rules, and each set of rules gets a loop of its
/// own (specialised by the compiler from one source).
protocol ColumnRules {
  /// Whether items may be enlarged (``Enlargement``) and their bottoms aligned.
  static var enlargesAndAligns: Bool { get }
  /// Whether alignment is ``SpreadAlignment``'s rather than the seed's (``Alignment``).
  static var spreads: Bool { get }
  /// Whether alignment is ``PlannedAlignment``'s: pairs levelled for an enlargement.
  static var plans: Bool { get }
  /// What the loop keeps of each column's free run.
  associatedtype Runs: RunTracking
  /// What the loop keeps for the planned alignment.
  associatedtype Planning: AlignmentPlanning
}

extension ColumnRules {
  static var plans: Bool { false }
  /// Whether an item may move once placed: the batch's blocks are then measured at its end.
  static var movesPlaced: Bool { spreads || plans }
}

/// The irregular style with the seed's alignment: the rules of ``Enlargement`` and
/// ``Alignment``.
enum EnlargeSeedAlign: ColumnRules {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { false }
  typealias Runs = NoRuns
  typealias Planning = NoPlanner
}

/// The irregular style with the seed's alignment, keeping the free runs for a flat end.
enum EnlargeSeedAlignKeepingRuns: ColumnRules {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { false }
  typealias Runs = FreeRuns
  typealias Planning = NoPlanner
}

/// The irregular style with the rules of ``Enlargement`` and ``SpreadAlignment``.
enum EnlargeSpreadAlign: ColumnRules {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { true }
  typealias Runs = FreeRuns
  typealias Planning = NoPlanner
}

/// The waterfall style: every item at its natural height, none enlarged or aligned.
enum NaturalHeights: ColumnRules {
  static var enlargesAndAligns: Bool { false }
  static var spreads: Bool { false }
  typealias Runs = NoRuns
  typealias Planning = NoPlanner
}

/// The irregular style with the rules of ``Enlargement`` and ``PlannedAlignment``.
enum EnlargePlannedAlign: ColumnRules {
  static var enlargesAndAligns: Bool { true }
  static var spreads: Bool { false }
  static var plans: Bool { true }
  typealias Runs = FreeRuns
  typealias Planning = Planner
}
