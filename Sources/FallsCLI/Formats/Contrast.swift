import Foundation

/// Colours as WCAG 2 weighs them: the relative luminance of an sRGB colour, the contrast of
/// two, and the text colour the pictures label a fill with.
enum Contrast {
  /// The dark text of the pictures' labels.
  static let darkText = "#1c1c1e"
  /// The light text, for a fill too dark for the dark one.
  static let lightText = "#ffffff"
  /// The least contrast WCAG 2 (1.4.3, level AA) asks of normal text.
  static let minimumRatio = 4.5

  /// The relative luminance of `hex` (`#rrggbb`), 0 for black to 1 for white (WCAG 2).
  static func luminance(_ hex: String) -> Double {
    let value = Int(hex.dropFirst(), radix: 16) ?? 0
    func linear(_ channel: Int) -> Double {
      let c = Double(channel) / 255
      return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(value >> 16) + 0.7152 * linear((value >> 8) & 0xFF) + 0.0722
      * linear(value & 0xFF)
  }

  /// The contrast ratio of two colours, 1 to 21, whichever is lighter.
  static func ratio(_ first: String, _ second: String) -> Double {
    let (a, b) = (luminance(first), luminance(second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  /// The label colour for text on `fill`: the dark text, or the light one where it reads
  /// better.
  static func text(on fill: String) -> String {
    ratio(darkText, fill) >= ratio(lightText, fill) ? darkText : lightText
  }
}
