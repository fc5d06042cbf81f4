import FallsBase
import FallsCore
import FallsFeed
import Foundation

/// A key of the JSON objects of `--format json` and `jsonl`, in the order they are written.
enum ElementField: String, CaseIterable {
  case kind, index, page, column, span, x, y, width, height, enlarged, aligned
  /// The item's natural extent along the scroll axis, and how far its frame is from it
  /// (``DistortionMeasure``): the styles that use item sizes only.
  case naturalHeight, distortion
  case center, transform
  case img

  /// The field's bit in a ``ChosenFields``.
  var bit: UInt32 { 1 << UInt32(Self.allCases.firstIndex(of: self) ?? 0) }

  /// The fields of the objects of a layout of `style`: the centre and the transform in the ring
  /// styles only, the natural height and the distortion in the styles that use item sizes.
  static func names(for style: LayoutStyle) -> [String] {
    allCases.filter { field in
      switch field {
      case .center, .transform: style.hasTransforms
      case .naturalHeight, .distortion: style.usesItemSizes
      default: true
      }
    }.map(\.rawValue)
  }
}

/// Which fields the JSON writers write: a type for every field and one for those `--fields`
/// chose, so that the writer of every field is compiled without a test per field.
protocol FieldSelection: Sendable {
  func contains(_ field: ElementField) -> Bool
}

/// Every field.
struct EveryField: FieldSelection {
  @inline(__always) func contains(_ field: ElementField) -> Bool { true }
}

/// The fields `--fields` chose.
struct ChosenFields: FieldSelection {
  let bits: UInt32

  init(_ names: Set<String>) {
    bits = ElementField.allCases.filter { names.contains($0.rawValue) }.reduce(0) { $0 | $1.bit }
  }

  @inline(__always) func contains(_ field: ElementField) -> Bool { bits & field.bit != 0 }
}
