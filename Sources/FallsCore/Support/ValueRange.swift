/// The numbers a setting takes, stated once: its check and the words that describe it in a
/// message or the help both come from here.
///
///     let lengths = ValueRange(from: 0, to: 1e9)
///     lengths.contains(10)        // true
///     lengths.words("a number")   // "a number from 0 to 1000000000"
///
/// A value is in the range only when it is finite.
public struct ValueRange: Hashable, Sendable {
  /// The least value, or the value every one must be above (``isLowerIncluded``).
  public let lower: Double
  /// The largest value, or the value every one must be below (``isUpperIncluded``).
  public let upper: Double
  public let isLowerIncluded: Bool
  public let isUpperIncluded: Bool

  /// `lower...upper`.
  public init(from lower: Double, to upper: Double) {
    (self.lower, self.upper, isLowerIncluded, isUpperIncluded) = (lower, upper, true, true)
  }

  /// Above `lower`, at most `upper`.
  public init(above lower: Double, atMost upper: Double) {
    (self.lower, self.upper, isLowerIncluded, isUpperIncluded) = (lower, upper, false, true)
  }

  /// `lower..<upper`.
  public init(from lower: Double, below upper: Double) {
    (self.lower, self.upper, isLowerIncluded, isUpperIncluded) = (lower, upper, true, false)
  }

  /// Whether `value` is finite and in the range.
  @inline(__always)
  public func contains(_ value: Double) -> Bool {
    value.isFinite && (isLowerIncluded ? value >= lower : value > lower)
      && (isUpperIncluded ? value <= upper : value < upper)
  }

  /// The bounds in words: `from 0 to 1000`, `above 0, at most 86400`, `from 0 up to (not
  /// including) 1`.
  public var bounds: String {
    let (low, high) = (Self.text(of: lower), Self.text(of: upper))
    switch (isLowerIncluded, isUpperIncluded) {
    case (true, true): return "from \(low) to \(high)"
    case (false, true): return "above \(low), at most \(high)"
    case (true, false): return "from \(low) up to (not including) \(high)"
    case (false, false): return "above \(low) and below \(high)"
    }
  }

  /// What the range holds, in words: `noun` and its ``bounds`` (`a number of seconds above 0,
  /// at most 86400`).
  public func words(_ noun: String = "a number") -> String {
    noun + " " + bounds
  }

  /// A bound as the user types it: a whole number without a fraction (`1000000000`, not
  /// `1e+09`), any other as Swift writes it.
  private static func text(of value: Double) -> String {
    value == value.rounded() && abs(value) < 0x1p53 ? String(Int64(value)) : String(value)
  }
}
