import FallsCore
import Testing

@testable import FallsFeed

/// A picture as rows of distinct pixels, turned and flipped pixel by pixel.
private typealias Picture = [[Int]]

private func rotateClockwise(_ p: Picture) -> Picture {
  let (height, width) = (p.count, p[0].count)
  return (0..<width).map { row in (0..<height).map { column in p[height - 1 - column][row] } }
}

private func flipLeftToRight(_ p: Picture) -> Picture { p.map { $0.reversed() } }
private func flipTopToBottom(_ p: Picture) -> Picture { p.reversed() }
private func transpose(_ p: Picture) -> Picture {
  (0..<p[0].count).map { row in (0..<p.count).map { column in p[column][row] } }
}

/// What EXIF says each orientation does to show the stored picture (TIFF 6.0 and Exif 2.3).
private func exifDefinition(_ value: Int, _ p: Picture) -> Picture {
  switch value {
  case 1: p
  case 2: flipLeftToRight(p)
  case 3: flipTopToBottom(flipLeftToRight(p))
  case 4: flipTopToBottom(p)
  case 5: transpose(p)
  case 6: rotateClockwise(p)
  case 7: flipTopToBottom(flipLeftToRight(transpose(p)))
  default: rotateClockwise(rotateClockwise(rotateClockwise(p)))
  }
}

/// `orientation` made pixel by pixel: its quarter turns clockwise, then its flip.
private func apply(_ orientation: Orientation, _ p: Picture) -> Picture {
  var turned = p
  for _ in 0..<orientation.turns { turned = rotateClockwise(turned) }
  return orientation.isFlipped ? flipLeftToRight(turned) : turned
}

private let picture: Picture = [[1, 2, 3], [4, 5, 6]]

@Suite struct OrientationTests {
  @Test("Each EXIF number is the symmetry EXIF defines, pixel by pixel", arguments: 1...8)
  func exifNumbers(value: Int) throws {
    let orientation = try #require(Orientation(exif: value))
    #expect(orientation.exif == value)
    #expect(apply(orientation, picture) == exifDefinition(value, picture))
  }

  @Test("No number outside 1 to 8 is an orientation", arguments: [0, 9, -1, 65_535])
  func outside(value: Int) {
    #expect(Orientation(exif: value) == nil)
  }

  @Test("HEIF's irot and imir, composed in any order, are the pixels' own turns and flips")
  func composition() {
    var random = SplitMix64(seed: 0x1234_5678)
    for _ in 0..<500 {
      var composed = Orientation.identity
      var pixels = picture
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        if Bool.random(using: &random) {
          let angle = Int.random(in: 0...3, using: &random)
          composed = composed.then(.anticlockwise(angle))
          // Anticlockwise by `angle` quarters is clockwise by the rest of the turn.
          for _ in 0..<((4 - angle) % 4) { pixels = rotateClockwise(pixels) }
        } else {
          let leftToRight = Bool.random(using: &random)
          composed = composed.then(.mirror(leftToRight: leftToRight))
          pixels = leftToRight ? flipLeftToRight(pixels) : flipTopToBottom(pixels)
        }
      }
      #expect(apply(composed, picture) == pixels)
      #expect(exifDefinition(composed.exif, picture) == pixels)
    }
  }
}
