import FallsCheckers
import FallsCore
import Testing

@Suite struct Transform3DTests {
  @Test("The identity and a translation have Core Animation's layout")
  func layout() {
    #expect(Transform3D.identity.entries == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    let moved = Transform3D.translation(x: 3, y: 4, z: 5)
    #expect(moved.entries == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 4, 5, 1])
    #expect(moved[4, 1] == 3 && moved[4, 3] == 5 && moved[3, 4] == 0)
  }

  @Test(
    "Rotations about the axes, worked out by hand (row vectors: x → x·M)",
    arguments: [
      // about z by π/2: x goes to +y
      (0.0, 0.0, 1.0, [0.0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
      // about x by π/2: y goes to +z
      (1, 0, 0, [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1]),
      // about y by π/2: z goes to +x
      (0, 1, 0, [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]),
      // the axis is normalised
      (0, 0, 7, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    ])
  func rotations(x: Double, y: Double, z: Double, expected: [Double]) {
    #expect(
      isClose(
        Transform3D.rotation(angle: Double.pi / 2, x: x, y: y, z: z), expected, tolerance: 1e-12))
  }

  @Test("A zero axis gives the identity, as in Core Animation")
  func zeroAxis() {
    #expect(Transform3D.rotation(angle: 1, x: 0, y: 0, z: 0) == .identity)
  }

  @Test("Concatenation applies the receiver first")
  func order() {
    // Translate by (10, 0, 0), then turn about z by π/2: the point (0,0,0) ends at (0, 10, 0).
    let translate = Transform3D.translation(x: 10, y: 0, z: 0)
    let turn = Transform3D.rotation(angle: Double.pi / 2, x: 0, y: 0, z: 1)
    let both = translate.concatenating(turn)
    #expect(abs(both[4, 1]) < 1e-12 && abs(both[4, 2] - 10) < 1e-12)
    // The other order leaves the translation as it was.
    let reverse = turn.concatenating(translate)
    #expect(abs(reverse[4, 1] - 10) < 1e-12 && abs(reverse[4, 2]) < 1e-12)
  }

  @Test("rotated and translated put the new step first, as CATransform3DRotate and Translate do")
  func prefixSteps() {
    var perspective = Transform3D.identity
    perspective[3, 4] = -0.001
    let rotated = perspective.rotated(by: 0.3, x: 1, y: 0, z: 0)
    #expect(
      rotated == Transform3D.rotation(angle: 0.3, x: 1, y: 0, z: 0).concatenating(perspective))
    let translated = rotated.translated(x: 0, y: 0, z: 40)
    #expect(translated == Transform3D.translation(x: 0, y: 0, z: 40).concatenating(rotated))
  }

  @Test("Points, sizes and subscripts")
  func smallTypes() {
    #expect(Point.zero == Point(x: 0, y: 0))
    #expect(Size(width: 2, height: 3).height == 3)
    var transform = Transform3D.identity
    transform[2, 3] = 9
    #expect(transform.entries[6] == 9)
  }
}
