/// The seeded random generator behind every random choice falls makes.
///
/// The algorithm is SplitMix64 (Steele, Lea and Flood, 2014) and it is part of falls's
/// contract: the same seed gives the same stream on every machine, so the same feed, flags and
/// seed give byte-identical layouts. The state starts at the seed; each step adds
/// `0x9E3779B97F4A7C15` to the state (wrapping) and mixes the result:
///
///     z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
///     z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
///     z =  z ^ (z >> 31)
///
/// A probability draw takes the top 53 bits of the next value as `u` in `0..<1` and passes when
/// `u < p`; so `p == 0` never passes and `p == 1` always does.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  /// The current state; the next value is derived from it.
  public private(set) var state: UInt64

  /// Creates a generator whose stream is fixed by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// What each step adds to the state: after *n* steps from a seed, the state is the seed plus
  /// *n* times this (wrapping), so any draw of the stream can be reached at once.
  public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// Returns the next 64 random bits.
  ///
  /// - Complexity: O(1).
  public mutating func next() -> UInt64 {
    state &+= Self.increment
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a number in `0..<1` made of the top 53 bits of the next value.
  ///
  /// - Complexity: O(1).
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// Draws once and tells whether the draw passes `probability`.
  ///
  /// - Parameter probability: The chance of passing, in `0...1`.
  /// - Returns: `true` when the drawn unit number is less than `probability`.
  /// - Complexity: O(1).
  public mutating func draw(_ probability: Double) -> Bool {
    nextUnit() < probability
  }
}
