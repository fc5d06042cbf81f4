/// A way of turning an image to be shown: one of the eight symmetries of a rectangle, as a
/// number of quarter turns clockwise followed by a flip left to right or not.
///
/// EXIF numbers them 1 to 8; an AVIF or HEIC image gives them as `irot` (quarter turns
/// anticlockwise) and `imir` (a flip), applied in the order the image lists them.
struct Orientation: Hashable, Sendable {
  /// Quarter turns clockwise, 0 to 3, made first.
  var turns: Int
  /// Whether the turned image is then flipped left to right.
  var isFlipped: Bool

  static let identity = Orientation(turns: 0, isFlipped: false)

  /// `other` made after this one: a flip followed by turns is the opposite turns followed by
  /// the flip, so turns after a flip count backwards.
  func then(_ other: Orientation) -> Orientation {
    let turned = isFlipped ? turns - other.turns : turns + other.turns
    return Orientation(turns: (turned % 4 + 4) % 4, isFlipped: isFlipped != other.isFlipped)
  }

  /// A quarter turn anticlockwise `count` times (HEIF's `irot`).
  static func anticlockwise(_ count: Int) -> Orientation {
    Orientation(turns: (4 - count % 4) % 4, isFlipped: false)
  }

  /// A flip about the vertical axis (left to right) or the horizontal one (HEIF's `imir`).
  static func mirror(leftToRight: Bool) -> Orientation {
    // Top to bottom is left to right after half a turn.
    leftToRight ? Orientation(turns: 0, isFlipped: true) : Orientation(turns: 2, isFlipped: true)
  }

  /// The EXIF number, 1 to 8.
  var exif: Int {
    switch (turns, isFlipped) {
    case (0, false): 1
    case (0, true): 2
    case (2, false): 3
    case (2, true): 4
    case (1, true): 5
    case (1, false): 6
    case (3, true): 7
    default: 8
    }
  }

  /// The orientation EXIF numbers `value`, or `nil` for a number outside 1 to 8.
  init?(exif value: Int) {
    switch value {
    case 1: self.init(turns: 0, isFlipped: false)
    case 2: self.init(turns: 0, isFlipped: true)
    case 3: self.init(turns: 2, isFlipped: false)
    case 4: self.init(turns: 2, isFlipped: true)
    case 5: self.init(turns: 1, isFlipped: true)
    case 6: self.init(turns: 1, isFlipped: false)
    case 7: self.init(turns: 3, isFlipped: true)
    case 8: self.init(turns: 3, isFlipped: false)
    default: return nil
    }
  }

  init(turns: Int, isFlipped: Bool) {
    self.turns = turns
    self.isFlipped = isFlipped
  }
}
