/// The grid of `1/scale` points that frame edges snap to on a screen of `scale` pixels a point
/// (``LayoutConfiguration/scale``): the one statement of how a length is snapped.
struct PixelGrid: Hashable, Sendable {
  /// Pixels per point: 2 or 3 on phones.
  let scale: Double

  /// The grid of `scale`, or `nil` for none (no scale, or one that is not a positive number).
  init?(scale: Double?) {
    guard let scale, scale > 0, scale.isFinite else { return nil }
    self.scale = scale
  }

  /// `value` rounded to the nearest grid line, halves away from zero.
  @inline(__always)
  func snap(_ value: Double) -> Double {
    (value * scale).rounded() / scale
  }
}

extension LayoutConfiguration {
  /// The grid frame edges snap to, or `nil` without a ``scale``.
  var pixelGrid: PixelGrid? { PixelGrid(scale: scale) }
}
