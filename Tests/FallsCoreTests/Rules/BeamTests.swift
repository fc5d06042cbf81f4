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
    let beam = Beam(columns: 3, floor: 0)
    for slot in [0, 5] {
      for column in -1...3 { (beam[bottom: slot, column], beam[flags: slot, column]) = (0, 0) }
      for column in 0..<3 {
        (beam[enlargedTop: slot, column], beam[enlargedBottom: slot, column]) = (0, 0)
        (beam[tailCount: slot, column], beam[runHead: slot, column]) = (0, -1)
        for index in 0..<PlannedAlignment.tailLength {
          beam[tailNatural: slot, column, index] = 0
          (beam[tailPosition: slot, column, index], beam[tailPartner: slot, column, index]) = (
            0, -1
          )
        }
      }
      beam[info: slot] = Beam.Info()
    }
    beam[bottom: 0, 2] = 7
    beam[flags: 0, 3] = ColumnState.endsEnlarged
    beam[tailNatural: 0, 0, 2] = 9
    beam[tailPartner: 0, 2, 0] = 1
    beam[runHead: 0, 2] = 4
    beam[enlargedBottom: 0, 1] = 3
    beam[info: 0].enlargements = 3
    beam.copy(0, to: 5)
    #expect(beam[bottom: 5, 2] == 7 && beam[flags: 5, 3] == ColumnState.endsEnlarged)
    #expect(beam[tailNatural: 5, 0, 2] == 9 && beam[tailPartner: 5, 2, 0] == 1)
    #expect(beam[runHead: 5, 2] == 4 && beam[enlargedBottom: 5, 1] == 3)
    #expect(beam[info: 5].enlargements == 3)
    // Neighbouring parts of a state do not share memory.
    #expect(beam[bottom: 5, 3] == 0 && beam[tailNatural: 5, 1, 0] == 0)
    #expect(beam[tailPosition: 5, 2, 0] == 0 && beam[runHead: 5, 1] == -1)
    beam[bottom: 0, 2] = 8
    #expect(beam[bottom: 5, 2] == 7)
  }

  @Test("The cheapest levellings, at most the branches, cheapest first, the left pair on a tie")
  func cheapest() {
    // Four columns ending 100, 101, 100, 101, each with one item of natural extent 50 since a
    // fixed edge: every pair is 1 apart, 1% of 100.
    let beam = Beam(columns: 4, floor: 0)
    for column in -1...4 {
      beam[bottom: 0, column] = column < 0 || column > 3 ? .nan : 100 + Double(column % 2)
      beam[flags: 0, column] = 0
    }
    // A tail's extents are set before its length, which sums them.
    for column in 0..<4 {
      (beam[tailPosition: 0, column, 0], beam[tailPartner: 0, column, 0]) = (column, -1)
      beam[tailNatural: 0, column, 0] = 50
      (beam[tailCount: 0, column], beam[runHead: 0, column]) = (1, -1)
    }
    beam[info: 0] = Beam.Info()
    #expect(beam.levellings(0, before: 4, bound: 0.03) == 2)
    #expect(beam.cheapest[0].left == 0 && beam.cheapest[1].left == 1)
    #expect(beam.cheapest[0].distortion == 0.01)
    // A longer tail makes the last pair cheaper: 1 / (50 + 150).
    beam[tailNatural: 0, 3, 0] = 150
    beam[tailCount: 0, 3] = 1
    #expect(beam.levellings(0, before: 4, bound: 0.03) == 2)
    #expect(beam.cheapest[0].left == 2 && beam.cheapest[1].left == 0)
    #expect(beam.cheapest[0].distortion == 1.0 / 200)
    // Over the bound: none.
    #expect(beam.levellings(0, before: 4, bound: 0.004) == 0)
  }
}
