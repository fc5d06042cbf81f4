/// Reads an image's size, and how it is turned to be shown, from the first bytes of its file:
/// PNG (`IHDR`), JPEG (any frame header, baseline or progressive, and the EXIF orientation in
/// either byte order), GIF, WebP (`VP8`, `VP8L`, `VP8X`), AVIF and HEIC (the primary item's
/// `ispe`, with its `irot` and `imir`), and BMP.
///
/// It reads only what it needs and says which bytes it needs next: a JPEG's segments before its
/// frame header are skipped by their lengths, and an AVIF's `mdat` before its `meta` box, so
/// that a caller may fetch the bytes after them without the bytes in between.
///
/// - Complexity: O(*s*) for *s* segments or boxes before the header; no byte is read twice.
public enum ImageHeaderReader {
  /// What `bytes` tell of the image: its header, the bytes still needed, or why it is not one.
  public static func read(_ bytes: ImageBytes) -> ImageHeaderReading {
    measuredRead(bytes).reading
  }

  /// What `bytes` tell of the image, and how far into the file the reading looked: the end of
  /// the furthest bytes it read (the offset where it had the size, for a header).
  ///
  /// The reach depends on the file alone, not on how many of its bytes were had beyond it: the
  /// same whether a server sent a range or its whole file.
  public static func measuredRead(_ bytes: ImageBytes) -> (reading: ImageHeaderReading, reach: Int)
  {
    var reader = Reader(bytes: bytes)
    let reading: ImageHeaderReading
    do throws(Stop) {
      reading = try reader.read()
    } catch {
      switch error {
      case .needs(let offset, let count): reading = .needsBytes(at: offset, count: count)
      case .cutShort(let format):
        reading = .malformed(format, reason: "the file ends inside its header")
      case .broken(let format, let reason): reading = .malformed(format, reason: reason)
      }
    }
    return (reading, reader.reach)
  }

  /// Why reading stopped before a header.
  enum Stop: Error {
    case needs(Int, count: Int)
    case cutShort(ImageFormat)
    case broken(ImageFormat, String)
  }

  /// The signatures, at the start of the file.
  private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  private static let gif87: [UInt8] = Array("GIF87a".utf8)
  private static let gif89: [UInt8] = Array("GIF89a".utf8)
  private static let riff: [UInt8] = Array("RIFF".utf8)
  private static let webp: [UInt8] = Array("WEBP".utf8)
  private static let exif: [UInt8] = Array("Exif".utf8) + [0, 0]
  static let avifBrands: Set<String> = ["avif", "avis"]
  static let heicBrands: Set<String> = [
    "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
  ]

  /// Reads a header from its bytes; the boxes of AVIF and HEIC are in ImageHeaderReader+Boxes.
  struct Reader {
    let bytes: ImageBytes
    /// The format, once the signature has said it: what a short read is a short read of.
    var format: ImageFormat?
    /// The end of the furthest bytes taken so far.
    var reach = 0

    /// The `count` bytes at `offset`.
    mutating func take(_ offset: Int, _ count: Int) throws(Stop) -> ArraySlice<UInt8> {
      if let slice = bytes.bytes(at: offset, count: count) {
        // Known bytes lie within a piece, so their end is an offset that exists.
        reach = max(reach, offset + count)
        return slice
      }
      if bytes.endsBefore(offset, count: count) {
        if let format { throw .cutShort(format) }
        throw .needs(offset, count: count)
      }
      let missing = bytes.firstMissing(from: offset)
      throw .needs(missing, count: count - (missing - offset))
    }

    mutating func byte(_ offset: Int) throws(Stop) -> Int { Int(try take(offset, 1).first ?? 0) }

    mutating func big(_ offset: Int, _ count: Int) throws(Stop) -> Int {
      try take(offset, count).reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func little(_ offset: Int, _ count: Int) throws(Stop) -> Int {
      try take(offset, count).reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func read() throws(Stop) -> ImageHeaderReading {
      // Twelve bytes tell every signature apart; a shorter whole file is judged as it is.
      let known = bytes.length.map { min($0, 12) } ?? 12
      let start = Array(try take(0, known))
      func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        start.count >= offset + signature.count
          && Array(start[offset..<(offset + signature.count)]) == signature
      }
      if starts(ImageHeaderReader.png) { return try readPNG() }
      if starts([0xFF, 0xD8, 0xFF]) { return try readJPEG() }
      if starts(ImageHeaderReader.gif87) || starts(ImageHeaderReader.gif89) { return try readGIF() }
      if starts(ImageHeaderReader.riff), starts(ImageHeaderReader.webp, at: 8) {
        return try readWebP()
      }
      if starts(Array("ftyp".utf8), at: 4) {
        // The major brand says which, before the compatible brands are read.
        let major = String(decoding: start[8..<min(start.count, 12)], as: UTF8.self)
        format = ImageHeaderReader.avifBrands.contains(major) ? .avif : .heic
        return try readISOBMFF()
      }
      if starts(Array("BM".utf8)) { return try readBMP() }
      return .unknown(looksLike: Self.kind(of: start))
    }

    /// What bytes of no known image format seem to be, for a message.
    static func kind(of start: [UInt8]) -> String {
      let text = start.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
      guard let first = text.first else {
        return start.isEmpty ? "an empty file" : "white space"
      }
      if first == UInt8(ascii: "<") {
        let lower = String(decoding: text.prefix(12), as: UTF8.self).lowercased()
        return lower.hasPrefix("<!doctype") || lower.hasPrefix("<html")
          ? "an HTML page" : "an HTML or XML document"
      }
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return "JSON text" }
      if text.allSatisfy({ (0x20...0x7E).contains($0) || [0x09, 0x0A, 0x0D].contains($0) }) {
        return "text"
      }
      return "bytes of no known image format"
    }

    func header(_ format: ImageFormat, _ width: Int, _ height: Int, orientation: Int = 1)
      throws(Stop) -> ImageHeaderReading
    {
      guard width > 0, height > 0 else {
        throw .broken(format, "its header gives a size of \(width) × \(height) pixels")
      }
      return .header(
        ImageHeader(format: format, width: width, height: height, orientation: orientation))
    }

    // MARK: PNG, GIF, BMP, WebP: a size at a fixed place

    mutating func readPNG() throws(Stop) -> ImageHeaderReading {
      format = .png
      guard try take(12, 4).elementsEqual("IHDR".utf8) else {
        throw .broken(.png, "its first chunk is not IHDR")
      }
      return try header(.png, try big(16, 4), try big(20, 4))
    }

    mutating func readGIF() throws(Stop) -> ImageHeaderReading {
      format = .gif
      return try header(.gif, try little(6, 2), try little(8, 2))
    }

    mutating func readBMP() throws(Stop) -> ImageHeaderReading {
      format = .bmp
      let size = try little(14, 4)
      if size == 12 { return try header(.bmp, try little(18, 2), try little(20, 2)) }
      guard size >= 40 else { throw .broken(.bmp, "its DIB header is \(size) bytes long") }
      let width = Int(Int32(truncatingIfNeeded: try little(18, 4)))
      // A negative height is a picture stored top down.
      let height = Int(Int32(truncatingIfNeeded: try little(22, 4)))
      return try header(.bmp, width, abs(height))
    }

    mutating func readWebP() throws(Stop) -> ImageHeaderReading {
      format = .webp
      let chunk = String(decoding: try take(12, 4), as: UTF8.self)
      switch chunk {
      case "VP8 ":
        guard try take(23, 3).elementsEqual([0x9D, 0x01, 0x2A]) else {
          throw .broken(.webp, "its VP8 frame has no start code")
        }
        return try header(.webp, try little(26, 2) & 0x3FFF, try little(28, 2) & 0x3FFF)
      case "VP8L":
        guard try byte(20) == 0x2F else { throw .broken(.webp, "its VP8L signature is wrong") }
        let bits = try little(21, 4)
        return try header(.webp, bits & 0x3FFF + 1, (bits >> 14) & 0x3FFF + 1)
      case "VP8X":
        return try header(.webp, try little(24, 3) + 1, try little(27, 3) + 1)
      default:
        throw .broken(.webp, "its first chunk is '\(Self.printable(chunk))', not VP8, VP8L or VP8X")
      }
    }

    /// A four-character code as it can be shown: other bytes as `?`.
    static func printable(_ code: String) -> String {
      String(code.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
    }

    // MARK: JPEG: segments to the frame header

    mutating func readJPEG() throws(Stop) -> ImageHeaderReading {
      format = .jpeg
      var orientation = 1
      var sawExif = false
      var offset = 2
      while true {
        guard try byte(offset) == 0xFF else {
          throw .broken(.jpeg, "a segment at byte \(offset) does not start with a marker")
        }
        var marker = try byte(offset + 1)
        // Fill bytes before a marker.
        while marker == 0xFF {
          offset += 1
          marker = try byte(offset + 1)
        }
        switch marker {
        case 0x01, 0xD0...0xD7:
          offset += 2
          continue
        case 0xD9:
          throw .broken(.jpeg, "it ends before its frame header")
        case 0xDA:
          throw .broken(.jpeg, "its scan starts before any frame header")
        default: break
        }
        let length = try big(offset + 2, 2)
        guard length >= 2 else {
          throw .broken(.jpeg, "its segment at byte \(offset) is \(length) bytes long")
        }
        switch marker {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
          guard length >= 8 else {
            throw .broken(.jpeg, "its frame header is \(length) bytes long")
          }
          return try header(
            .jpeg, try big(offset + 7, 2), try big(offset + 5, 2), orientation: orientation)
        case 0xE1 where !sawExif && length >= 8:
          let segment = try take(offset + 4, length - 2)
          if segment.starts(with: ImageHeaderReader.exif) {
            sawExif = true
            orientation = Self.orientation(inTIFF: Array(segment.dropFirst(6))) ?? 1
          }
        default: break
        }
        offset += 2 + length
      }
    }

    /// The orientation an EXIF block's TIFF structure gives in its first directory, if it gives
    /// one from 1 to 8; little- or big-endian.
    static func orientation(inTIFF tiff: [UInt8]) -> Int? {
      guard tiff.count >= 8 else { return nil }
      let isLittle: Bool
      switch (tiff[0], tiff[1]) {
      case (0x49, 0x49): isLittle = true
      case (0x4D, 0x4D): isLittle = false
      default: return nil
      }
      func number(_ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= tiff.count else { return nil }
        let slice = tiff[offset..<(offset + count)]
        return (isLittle ? Array(slice.reversed()) : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
      }
      guard number(2, 2) == 42, let directory = number(4, 4), let count = number(directory, 2)
      else { return nil }
      for entry in 0..<count {
        let at = directory + 2 + entry * 12
        guard let tag = number(at, 2) else { return nil }
        guard tag == 0x0112 else { continue }
        guard number(at + 2, 2) == 3, let value = number(at + 8, 2) else { return nil }
        return Orientation(exif: value) != nil ? value : nil
      }
      return nil
    }
  }
}
