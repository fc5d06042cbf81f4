/// The image formats whose headers ``ImageHeaderReader`` reads.
public enum ImageFormat: String, CaseIterable, Hashable, Sendable {
  case png, jpeg, gif, webp, avif, heic, bmp

  /// The format's name as people write it: `PNG`, `WebP`.
  public var name: String { self == .webp ? "WebP" : rawValue.uppercased() }

  /// Every format falls reads, for a message or a help: `PNG, JPEG, …, HEIC or BMP`.
  public static var listed: String {
    let names = allCases.map(\.name)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }
}

/// What an image's header says of it: its format, the size of its stored pixels, and how they
/// turn to be shown.
public struct ImageHeader: Hashable, Sendable {
  public var format: ImageFormat
  /// The width of the stored pixels.
  public var width: Int
  /// The height of the stored pixels.
  public var height: Int
  /// How the stored pixels are turned to be shown, as EXIF numbers it: 1 as they are, 2 flipped
  /// left to right, 3 turned half round, 4 flipped top to bottom, 5 transposed, 6 turned a
  /// quarter clockwise, 7 transversed, 8 turned a quarter anticlockwise. An AVIF or HEIC image's
  /// `irot` and `imir` are said the same way.
  public var orientation: Int

  /// Creates a header.
  public init(format: ImageFormat, width: Int, height: Int, orientation: Int = 1) {
    self.format = format
    self.width = width
    self.height = height
    self.orientation = orientation
  }

  /// Whether the image is shown a quarter turned: orientations 5 to 8, which swap its sides.
  public var isQuarterTurned: Bool { (5...8).contains(orientation) }

  /// The width as the image is shown (browsers and UIImage apply the orientation).
  public var displayedWidth: Int { isQuarterTurned ? height : width }

  /// The height as the image is shown.
  public var displayedHeight: Int { isQuarterTurned ? width : height }
}

/// What reading a header from the bytes known so far gives.
public enum ImageHeaderReading: Hashable, Sendable {
  /// The header, read.
  case header(ImageHeader)
  /// More bytes are needed: `count` of them at `offset`, which is not among those given.
  case needsBytes(at: Int, count: Int)
  /// An image of a known format whose header is broken; `reason` says how.
  case malformed(ImageFormat, reason: String)
  /// No image of a known format: `looksLike` says what the bytes seem to be ("an HTML page",
  /// "text", "bytes of no known image format").
  case unknown(looksLike: String)
}
