import FallsCore
import FallsFixtures
import FallsTestSupport
import Foundation
import Testing

@testable import FallsFeed

/// The fixture `name` of `Tests/Fixtures/images`, whole.
private func fixture(_ name: String) throws -> [UInt8] {
  Array(try Fixtures.data("images/" + name))
}

private func read(_ bytes: [UInt8], isWhole: Bool = true) -> ImageHeaderReading {
  ImageHeaderReader.read(ImageBytes(bytes, isWhole: isWhole))
}

/// What the fixtures' names say (scripts/make-image-fixtures.py made them so): the format,
/// the stored size, and the orientation.
private let fixtures: [(String, ImageFormat, Int, Int, Int)] =
  [
    ("png-37x23.png", .png, 37, 23, 1), ("jpeg-41x29.jpg", .jpeg, 41, 29, 1),
    ("jpeg-progressive-41x29.jpg", .jpeg, 41, 29, 1), ("gif-17x13.gif", .gif, 17, 13, 1),
    ("webp-lossy-45x33.webp", .webp, 45, 33, 1), ("webp-lossless-45x33.webp", .webp, 45, 33, 1),
    ("webp-extended-45x33.webp", .webp, 45, 33, 1), ("avif-37x23.avif", .avif, 37, 23, 1),
    ("heic-37x23.heic", .heic, 37, 23, 1), ("bmp-19x11.bmp", .bmp, 19, 11, 1),
    ("bmp-core-19x11.bmp", .bmp, 19, 11, 1),
  ]
  + (1...8).flatMap { orientation in
    ["ii", "mm"].map {
      ("jpeg-43x31-orientation\(orientation)-\($0).jpg", .jpeg, 43, 31, orientation)
    }
  }

/// Bytes of a JPEG: its start, then `segments` (marker and contents), then a frame header of
/// `width` × `height`, then the end.
private func jpeg(_ segments: [(UInt8, [UInt8])], width: Int, height: Int, sof: UInt8 = 0xC0)
  -> [UInt8]
{
  var bytes: [UInt8] = [0xFF, 0xD8]
  for (marker, contents) in segments {
    bytes += [0xFF, marker, UInt8((contents.count + 2) >> 8), UInt8((contents.count + 2) & 0xFF)]
    bytes += contents
  }
  bytes += [0xFF, sof, 0, 11, 8, UInt8(height >> 8), UInt8(height & 0xFF)]
  bytes += [UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
  return bytes + [0xFF, 0xD9]
}

/// An ISO media box of `type` holding `contents`.
private func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
  be(contents.count + 8, 4) + Array(type.utf8) + contents
}

private func be(_ value: Int, _ count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - $0))) }
}

/// An AVIF of one item `width` × `height` with the properties `extra` (each a box) associated
/// after its `ispe`, in order; `meta` after an `mdat` of `padding` bytes when `padding` > 0.
private func avif(width: Int, height: Int, extra: [[UInt8]] = [], padding: Int = 0) -> [UInt8] {
  let ftyp = box("ftyp", Array("avif".utf8) + be(0, 4) + Array("avifmif1".utf8))
  let ispe = box("ispe", be(0, 4) + be(width, 4) + be(height, 4))
  let ipco = box("ipco", ispe + extra.joined())
  let count = 1 + extra.count
  let ipma = box(
    "ipma", be(0, 4) + be(1, 4) + be(1, 2) + [UInt8(count)] + (1...count).map { UInt8($0) })
  let meta = box(
    "meta",
    be(0, 4) + box("hdlr", be(0, 8) + Array("pict".utf8) + be(0, 13))
      + box("pitm", be(0, 4) + be(1, 2))
      + box("iprp", ipco + ipma))
  let mdat = padding > 0 ? box("mdat", [UInt8](repeating: 0xAB, count: padding)) : []
  return ftyp + mdat + meta
}

@Suite(.tags(.process)) struct ImageHeaderReaderTests {
  @Test(
    "Every fixture's format, stored size and orientation, as its name says", arguments: fixtures)
  func fixtureHeaders(name: String, format: ImageFormat, width: Int, height: Int, orientation: Int)
    throws
  {
    let header = ImageHeader(format: format, width: width, height: height, orientation: orientation)
    #expect(read(try fixture(name)) == .header(header))
    // Shown turned a quarter, orientations 5 to 8 swap the sides.
    #expect(header.displayedWidth == (orientation >= 5 ? height : width))
  }

  @Test("Every prefix of every fixture asks for more bytes, or is cut short once known whole")
  func prefixes() throws {
    for (name, format, _, _, _) in fixtures {
      let bytes = try fixture(name)
      guard case .header = read(bytes) else { continue }
      // The shortest prefix that holds the header.
      var enough = bytes.count
      for count in 0..<bytes.count {
        let open = read(Array(bytes.prefix(count)), isWhole: false)
        switch open {
        case .needsBytes(let offset, let needed):
          // An ask is always beyond what was given.
          #expect(offset >= count && needed > 0, "\(name) at \(count)")
        case .header:
          enough = min(enough, count)
        case .malformed, .unknown:
          Issue.record("\(name) cut at \(count) read as \(open)")
        }
        if count < enough, count >= 12 {
          // Known whole, a file cut before its header is a broken one of its format.
          let whole = read(Array(bytes.prefix(count)))
          guard case .malformed(format, _) = whole else {
            Issue.record("\(name) cut at \(count), known whole, read as \(whole)")
            continue
          }
        }
      }
      #expect(enough < 1 << 16, "\(name) needs \(enough) bytes")
    }
  }

  @Test("A JPEG's segments before its frame header are skipped by their lengths, unread")
  func jpegSkipsSegments() {
    let big = [UInt8](repeating: 0x42, count: 60_000)
    let file = jpeg(
      [(0xE0, Array("JFIF".utf8) + [0]), (0xE2, big), (0xED, big)], width: 640, height: 480)
    // Only the first 64 KiB: the reader skips both segments by their lengths, and asks for
    // the marker after them, past the bytes given.
    var bytes = ImageBytes(Array(file.prefix(1 << 16)))
    let second = 2 + 9 + 4 + 60_000
    guard case .needsBytes(let offset, _) = ImageHeaderReader.read(bytes) else {
      Issue.record("no ask")
      return
    }
    #expect(offset == second + 4 + 60_000)
    #expect(offset > 1 << 16)
    // Given the bytes from there on but not those in between, it reads on.
    bytes = ImageBytes(Array(file.prefix(second + 4)))
    bytes.add(Array(file[(second + 4 + 60_000)...]), at: second + 4 + 60_000)
    #expect(
      ImageHeaderReader.read(bytes) == .header(ImageHeader(format: .jpeg, width: 640, height: 480)))
  }

  @Test(
    "Every frame header marker gives the size, the others do not",
    arguments: Array(0xC0...0xCF).map { UInt8($0) })
  func frameMarkers(marker: UInt8) {
    let result = read(jpeg([], width: 3, height: 2, sof: marker))
    if [0xC4, 0xC8, 0xCC].contains(marker) {
      // DHT, JPG and DAC are not frame headers: the reader goes on, and meets the end.
      #expect(result == .malformed(.jpeg, reason: "it ends before its frame header"))
    } else {
      #expect(result == .header(ImageHeader(format: .jpeg, width: 3, height: 2)))
    }
  }

  @Test(
    "Broken JPEGs are said broken, with how",
    arguments: [
      ([0xFF, 0xD8, 0xFF, 0xD9], "it ends before its frame header"),
      ([0xFF, 0xD8, 0xFF, 0xDA, 0, 4, 0, 0], "its scan starts before any frame header"),
      ([0xFF, 0xD8, 0xFF, 0xE0, 0, 1], "its segment at byte 2 is 1 bytes long"),
      ([0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0x12], "a segment at byte 6 does not start with a marker"),
      (
        [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 0, 0, 5, 1, 1, 0x11, 0],
        "its header gives a size of 5 × 0 pixels"
      ),
    ] as [([UInt8], String)])
  func brokenJPEG(bytes: [UInt8], reason: String) {
    #expect(read(bytes) == .malformed(.jpeg, reason: reason))
  }

  @Test("The EXIF orientation, either byte order, only 1 to 8, only the first EXIF block")
  func exifOrientation() {
    func exif(_ value: Int, bigEndian: Bool) -> [UInt8] {
      let order: (Int, Int) -> [UInt8] = { value, count in
        bigEndian ? be(value, count) : be(value, count).reversed()
      }
      let tiff =
        Array((bigEndian ? "MM" : "II").utf8) + order(42, 2) + order(8, 4) + order(1, 2)
        + order(0x0112, 2) + order(3, 2) + order(1, 4) + order(value, 2) + [0, 0] + order(0, 4)
      return Array("Exif".utf8) + [0, 0] + tiff
    }
    for value in 0...9 {
      for bigEndian in [false, true] {
        let file = jpeg([(0xE1, exif(value, bigEndian: bigEndian))], width: 30, height: 20)
        let expected = (1...8).contains(value) ? value : 1
        #expect(
          read(file)
            == .header(ImageHeader(format: .jpeg, width: 30, height: 20, orientation: expected)))
      }
    }
    let twice = jpeg(
      [(0xE1, exif(6, bigEndian: true)), (0xE1, exif(3, bigEndian: false))], width: 30, height: 20)
    #expect(
      read(twice) == .header(ImageHeader(format: .jpeg, width: 30, height: 20, orientation: 6)))
  }

  @Test(
    "AVIF: the primary item's ispe, turned by irot and flipped by imir in their order",
    arguments: [
      ([] as [[UInt8]], 1),
      ([box("irot", [1])], 8), ([box("irot", [2])], 3), ([box("irot", [3])], 6),
      ([box("imir", [0])], 2), ([box("imir", [1])], 4),
      ([box("irot", [1]), box("imir", [0])], 7), ([box("imir", [0]), box("irot", [1])], 5),
      ([box("irot", [3]), box("imir", [1])], 7), ([box("pixi", [0, 0, 0, 0, 1, 8])], 1),
    ])
  func avifTransforms(extra: [[UInt8]], orientation: Int) {
    let expected = ImageHeader(format: .avif, width: 300, height: 200, orientation: orientation)
    #expect(read(avif(width: 300, height: 200, extra: extra)) == .header(expected))
  }

  @Test("AVIF: a meta box after the media data is found by skipping it, unread")
  func avifMetaLate() {
    let file = avif(width: 64, height: 48, padding: 200_000)
    var bytes = ImageBytes(Array(file.prefix(1 << 16)))
    guard case .needsBytes(let offset, _) = ImageHeaderReader.read(bytes) else {
      Issue.record("no ask")
      return
    }
    // The box after mdat: ftyp (24 bytes), then mdat's 8-byte header and 200,000 bytes.
    #expect(offset == 24 + 8 + 200_000)
    bytes.add(Array(file[offset...]), at: offset)
    #expect(
      ImageHeaderReader.read(bytes) == .header(ImageHeader(format: .avif, width: 64, height: 48)))
  }

  @Test(
    "AVIF: a box of size 0 runs to the file's end, whether its length is known or not",
    arguments: [
      ([(24, 0)], true), ([(24, 0), (83, 0)], true),
      // iprp claims more than the file holds: its boxes are read to the end of the file.
      ([(24, 0), (83, 100_000)], false),
    ] as [([(Int, Int)], Bool)])
  func avifBoxesToTheEnd(sizes: [(Int, Int)], isRead: Bool) {
    var file = avif(width: 37, height: 23)
    // meta is last: ftyp (24 bytes), then meta's size field; iprp, meta's last box, at 83
    // (meta's header and version 12, hdlr 33, pitm 14). A part and the whole judge the boxes
    // alike, by the sizes they claim, each within its parent's.
    for (at, size) in sizes { file.replaceSubrange(at..<(at + 4), with: be(size, 4)) }
    let expected =
      isRead
      ? ImageHeaderReading.header(ImageHeader(format: .avif, width: 37, height: 23))
      : .malformed(.avif, reason: "the file ends inside its header")
    #expect(read(file) == expected)
    for count in 0..<file.count {
      let open = read(Array(file.prefix(count)), isWhole: false)
      switch open {
      case .needsBytes(let offset, let needed): #expect(offset >= count && needed > 0)
      default: #expect(open == expected && isRead, "cut at \(count)")
      }
    }
    // Known whole, the same file cut inside meta is cut short, not read otherwise.
    #expect(
      read(Array(file.prefix(60))) == .malformed(.avif, reason: "the file ends inside its header"))
  }

  @Test(
    "What is not an image is named by what it looks like",
    arguments: [
      (Array("<!DOCTYPE html><html><body>404</body></html>".utf8), "an HTML page"),
      (Array("  <HTML><p>x".utf8), "an HTML page"),
      (Array("<?xml version=\"1.0\"?><a/>".utf8), "an HTML or XML document"),
      (Array("{\"error\": \"not found\"}".utf8), "JSON text"), (Array("Not Found\n".utf8), "text"),
      (
        [0x00, 0x01, 0x02, 0x03, 0xF0, 0x9F, 0x00, 0x10, 0x20, 0x30, 0x40, 0x50],
        "bytes of no known image format"
      ),
      ([], "an empty file"),
    ] as [([UInt8], String)])
  func notImages(bytes: [UInt8], kind: String) {
    #expect(read(bytes) == .unknown(looksLike: kind))
  }

  @Test("Sizes of zero are broken; the largest a header can give is read as it is")
  func extremeSizes() {
    var png = ImageHeaderReaderTests.pngHeader(width: 0, height: 10)
    #expect(read(png) == .malformed(.png, reason: "its header gives a size of 0 × 10 pixels"))
    png = ImageHeaderReaderTests.pngHeader(width: 0x7FFF_FFFF, height: 0xFFFF_FFFF)
    #expect(
      read(png) == .header(ImageHeader(format: .png, width: 0x7FFF_FFFF, height: 0xFFFF_FFFF)))
    let gif = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
    #expect(read(gif) == .header(ImageHeader(format: .gif, width: 65_535, height: 65_535)))
  }

  /// A PNG's signature and IHDR.
  static func pngHeader(width: Int, height: Int) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13, 4) + Array("IHDR".utf8)
      + be(width, 4) + be(height, 4) + [8, 2, 0, 0, 0]
  }

  @Test("A box that claims more than its parent, or less than its header, is broken")
  func brokenBoxes() {
    var file = avif(width: 10, height: 10)
    // The ftyp box's size, 24, made 3.
    file[3] = 3
    #expect(read(file) == .malformed(.avif, reason: "its 'ftyp' box at byte 0 is 3 bytes long"))
    let noMeta = box("ftyp", Array("heic".utf8) + be(0, 4) + Array("mif1".utf8))
    #expect(read(noMeta) == .malformed(.heic, reason: "it has no meta box"))
  }

  @Test(
    "Random bytes after any signature give an answer that keeps the reader's promises",
    arguments: 0..<4)
  func noise(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    let signatures: [(ImageFormat, [UInt8])] = [
      (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), (.jpeg, [0xFF, 0xD8, 0xFF]),
      (.gif, Array("GIF89a".utf8)), (.webp, Array("RIFF\0\0\0\0WEBP".utf8)),
      (.avif, [0, 0, 0, 24] + Array("ftypavif".utf8)), (.bmp, Array("BM".utf8)),
    ]
    for (format, signature) in signatures {
      for length in [0, 1, 7, 40, 300, 5000] {
        let bytes = signature + (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for isWhole in [false, true] {
          let answer = read(bytes, isWhole: isWhole)
          // The same bytes, the same answer.
          #expect(read(bytes, isWhole: isWhole) == answer)
          switch answer {
          case .header(let header):
            #expect(header.format == format && header.width > 0 && header.height > 0)
          case .needsBytes(let offset, let count):
            // Only bytes not given, and never past the end of a whole file.
            #expect(!isWhole, "\(format) \(length): a whole file needs no more")
            #expect(offset >= bytes.count && count > 0)
          case .malformed(let named, _):
            #expect(named == format || (format == .avif && named == .heic))
          case .unknown:
            // A signature too short to tell (BM alone, say) may read as no image.
            break
          }
        }
      }
    }
  }
}

/// A python3 that has Pillow, the independent reader of image sizes: the one on the path (a
/// virtual environment's, say), or Debian's (python3-pil); `nil` when neither has it.
private let pillowPython: String? = ["python3", "/usr/bin/python3"].first { python in
  (try? shell("\(python) -c 'import PIL' 2>/dev/null"))?.status == 0
}

/// libheif's heif-info, which reads AVIF and HEIC sizes independently, if installed.
private let heifInfo: String? = ["/usr/bin/heif-info"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

@Suite(.tags(.process)) struct ImageHeaderOracleTests {
  /// Whatever Pillow is installed: each fixture in a format it has a reader for is read to the
  /// same sizes; a format it has none for (AVIF before Pillow 11.2, HEIC) is left to heif-info.
  @Test(
    "Pillow reads every fixture it has a reader for to the same stored and shown size",
    .enabled(if: pillowPython != nil, "Pillow is not installed (apt-get install python3-pil)"))
  func pillow() async throws {
    let python = try #require(pillowPython)
    let script = Fixtures.directory.deletingLastPathComponent().appendingPathComponent(
      "Tools/image_sizes.py")
    let paths = fixtures.map { shellQuoted(Fixtures.path("images/" + $0.0)) }
    let run = try await shell(
      "\(python) \(shellQuoted(script.path)) \(paths.joined(separator: " "))")
    #expect(run.status == 0)
    var answered: Set<String> = []
    var checkedFormats: Set<ImageFormat> = []
    for line in run.text.split(separator: "\n") {
      let fields = line.split(separator: " ").map(String.init)
      let name = try #require(fields.first)
      let format = try #require(fixtures.first { $0.0 == name }?.1, "\(name): not asked")
      answered.insert(name)
      if fields.dropFirst() == ["-", "unsupported"] { continue }
      let numbers = fields.dropFirst().compactMap { Int($0) }
      guard numbers.count == 4 else {
        Issue.record("Pillow has a reader for \(name) but could not read it: \(line)")
        continue
      }
      guard case .header(let header) = read(try fixture(name)) else {
        Issue.record("\(name): no header")
        continue
      }
      #expect(
        [header.width, header.height, header.displayedWidth, header.displayedHeight] == numbers,
        "\(name)")
      checkedFormats.insert(format)
    }
    #expect(answered == Set(fixtures.map(\.0)))
    // Every Pillow since long before 9 reads these; one that doesn't is a broken oracle.
    #expect(checkedFormats.isSuperset(of: [.png, .jpeg, .gif, .webp, .bmp]))
  }

  @Test(
    "heif-info reads the AVIF and the HEIC to the same size",
    .enabled(if: heifInfo != nil, "heif-info is not installed (apt-get install libheif-examples)"))
  func libheif() async throws {
    let tool = try #require(heifInfo)
    for (name, _, _, _, _) in fixtures where name.hasSuffix(".avif") || name.hasSuffix(".heic") {
      let run = try await shell("\(tool) \(shellQuoted(Fixtures.path("images/" + name)))")
      // "image: 37x23 (id=1), primary"
      let line = try #require(run.text.split(separator: "\n").first { $0.hasPrefix("image: ") })
      let size = line.dropFirst(7).prefix { $0 != " " }.split(separator: "x").compactMap { Int($0) }
      guard case .header(let header) = read(try fixture(name)) else {
        Issue.record("\(name): no header")
        continue
      }
      #expect([header.displayedWidth, header.displayedHeight] == size, "\(name)")
    }
  }
}

@Suite struct ImageHeaderReachTests {
  @Test(
    "The reach is where each format's size ends, by its specification",
    arguments: [
      // The 12 bytes that tell the signatures apart, or the size's last byte if further:
      // PNG IHDR's height at 20–23; GIF's screen height at 8–9; BMP's height at 22–25; WebP
      // VP8's height at 28–29, VP8L's bits at 21–24, VP8X's height at 27–29; a JPEG's frame
      // header width at its marker + 7–8 (the marker at 158).
      ("png-37x23.png", 24), ("gif-17x13.gif", 12), ("bmp-19x11.bmp", 26),
      ("bmp-core-19x11.bmp", 22), ("webp-lossy-45x33.webp", 30), ("webp-lossless-45x33.webp", 25),
      ("webp-extended-45x33.webp", 30), ("jpeg-41x29.jpg", 167),
    ])
  func reach(name: String, expected: Int) throws {
    let (reading, reach) = ImageHeaderReader.measuredRead(ImageBytes(try fixture(name)))
    guard case .header = reading else {
      Issue.record("\(reading)")
      return
    }
    #expect(reach == expected)
  }

  @Test(
    "The reach is the shortest prefix that gives the header, whatever else is known",
    arguments: fixtures.map(\.0))
  func shortestPrefix(name: String) throws {
    let bytes = try fixture(name)
    let whole = ImageHeaderReader.measuredRead(ImageBytes(bytes, isWhole: true))
    guard case .header = whole.reading else {
      Issue.record("\(whole.reading)")
      return
    }
    let prefix = ImageHeaderReader.measuredRead(ImageBytes(Array(bytes.prefix(whole.reach))))
    #expect(prefix.reading == whole.reading && prefix.reach == whole.reach)
    let short = ImageHeaderReader.read(ImageBytes(Array(bytes.prefix(whole.reach - 1))))
    guard case .needsBytes = short else {
      Issue.record("\(name): \(whole.reach - 1) bytes read as \(short)")
      return
    }
  }
}
