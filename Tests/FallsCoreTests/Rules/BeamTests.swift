import Testing

@testable import FallsCore

@Suite struct BeamTests {
  private static func info(
    enlargements: Int, waiting: Bool = false, places: Double = 0, distortion: Double = 0
  ) -> Beam.Info {
    Beam.Info(
      waiting: waiting ? 0 : -1, enlargements: enlargements, places: places,
      distortion: distortion)
  }

  @Test(
    "States rank by enlargements (a waiting pair half of one), then by places + 1,000 × distortion")
  func ranking() {
    #expect(Self.info(enlargements: 2).isBetter(than: Self.info(enlargements: 1, waiting: true)))
    #expect(Self.info(enlargements: 1, waiting: true).isBetter(than: Self.info(enlargements: 1)))
    #expect(
      Self.info(enlargements: 1, places: 3).isBetter(than: Self.info(enlargements: 1, places: 4)))
    // 1% more distortion costs as much as an enlargement ten items later.
    #expect(
      Self.info(enlargements: 1, places: 13, distortion: 0).isBetter(
        than: Self.info(enlargements: 1, places: 2, distortion: 0.012)))
    #expect(
      !Self.info(enlargements: 1, places: 13).isBetter(than: Self.info(enlargements: 1, places: 13))
    )
  }

  @Test("Within the margin: as many enlargements, and a cost at most the margin above the best")
  func margin() {
    let best = Self.info(enlargements: 2, places: 5)
    #expect(Self.info(enlargements: 2, places: 5 + PlannedAlignment.margin).isAlmost(as: best))
    #expect(!Self.info(enlargements: 2, places: 5.01 + PlannedAlignment.margin).isAlmost(as: best))
    #expect(!Self.info(enlargements: 1, places: 0).isAlmost(as: best))
  }

  @Test("A state copied to another slot is the same state, and the copy is its own")
  func copy() {
    var beam = Beam(columns: 3)
    beam.bottoms[4] = 7
    beam.tailNatural[2] = 9
    beam.info[0].enlargements = 3
    beam.copy(0, to: 5)
    #expect(beam.bottoms[5 * beam.stride + 4] == 7 && beam.tailNatural[5 * 9 + 2] == 9)
    #expect(beam.info[5].enlargements == 3)
    beam.bottoms[4] = 8
    #expect(beam.bottoms[5 * beam.stride + 4] == 7)
  }
}
