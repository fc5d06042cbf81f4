import FallsCore

// AVIF and HEIC: boxes to the primary item's properties.
extension ImageHeaderReader.Reader {
  /// A box: where its contents start and end.
  struct Box {
    var type: String
    var contents: Range<Int>
  }

  /// The box at `offset`, within `end` (nil at the file's top level, whose end is open).
  mutating func box(at offset: Int, within end: Int?) throws(ImageHeaderReader.Stop) -> Box {
    let format = format ?? .heic
    var size = try big(offset, 4)
    let type = String(decoding: try take(offset + 4, 4), as: UTF8.self)
    var headerSize = 8
    if size == 1 {
      size = try big(offset + 8, 8)
      headerSize = 16
    } else if size == 0 {
      // To the end of what holds it, or of the file: an open end (``openEnd``), whether the
      // file's length is known or not, so that what it holds is judged alike by a part and
      // by the whole: by the sizes the boxes claim, each within its parent's.
      size = (end ?? Self.openEnd) - offset
    }
    guard size >= headerSize, size <= (end ?? Self.openEnd) - offset else {
      throw .broken(
        format, "its '\(Self.printable(type))' box at byte \(offset) is \(size) bytes long")
    }
    return Box(type: type, contents: (offset + headerSize)..<(offset + size))
  }

  /// Where a box that runs to the end of the file ends: no box follows it, and the boxes it
  /// holds end where the file does.
  static let openEnd = Int.max

  /// The boxes in `range` (nil for the file's top level), in order, until `body` returns
  /// false, a box runs to the end, or, in a range with an open end, the file is known to end.
  mutating func forEachBox(
    in range: Range<Int>?, from start: Int,
    _ body: (inout Self, Box) throws(ImageHeaderReader.Stop) -> Bool
  ) throws(ImageHeaderReader.Stop) {
    var offset = start
    let end = range?.upperBound ?? Self.openEnd
    while offset < end {
      if end == Self.openEnd, let length = bytes.length, offset >= length {
        // At the file's end the boxes end; past it, the last one ran on past the file.
        guard offset == length else { throw .cutShort(format ?? .heic) }
        return
      }
      let box = try box(at: offset, within: range?.upperBound)
      guard try body(&self, box), box.contents.upperBound != Self.openEnd else { return }
      offset = box.contents.upperBound
    }
  }

  mutating func readISOBMFF() throws(ImageHeaderReader.Stop) -> ImageHeaderReading {
    let ftyp = try box(at: 0, within: nil)
    guard ftyp.type == "ftyp", ftyp.contents.count >= 8 else {
      throw .broken(.heic, "its ftyp box is \(ftyp.contents.count + 8) bytes long")
    }
    var brands = [String(decoding: try take(ftyp.contents.lowerBound, 4), as: UTF8.self)]
    for at in stride(from: ftyp.contents.lowerBound + 8, to: ftyp.contents.upperBound - 3, by: 4) {
      brands.append(String(decoding: try take(at, 4), as: UTF8.self))
    }
    if brands.contains(where: ImageHeaderReader.avifBrands.contains) {
      format = .avif
    } else if !brands.contains(where: ImageHeaderReader.heicBrands.contains) {
      return .unknown(
        looksLike: "an ISO media file of brand '\(Self.printable(brands[0]))', not an image")
    }
    let format = self.format ?? .heic
    var meta: Box?
    try forEachBox(in: nil, from: ftyp.contents.upperBound) {
      (_, box) throws(ImageHeaderReader.Stop) in
      if box.type == "meta" { meta = box }
      return meta == nil
    }
    guard let meta, meta.contents.count >= 4 else {
      throw .broken(format, "it has no meta box")
    }
    // A full box: version and flags first.
    var primary: Int?
    var properties: Box?
    var associations: Box?
    try forEachBox(
      in: meta.contents.lowerBound + 4..<meta.contents.upperBound,
      from: meta.contents.lowerBound + 4
    ) {
      (reader, box) throws(ImageHeaderReader.Stop) in
      switch box.type {
      case "pitm":
        let version = try reader.byte(box.contents.lowerBound)
        primary = try reader.big(box.contents.lowerBound + 4, version == 0 ? 2 : 4)
      case "iprp":
        try reader.forEachBox(in: box.contents, from: box.contents.lowerBound) {
          (_, inner) throws(ImageHeaderReader.Stop) in
          if inner.type == "ipco" { properties = inner }
          if inner.type == "ipma" { associations = inner }
          return true
        }
      default: break
      }
      // Once both are known the rest of meta is not needed (and may run to an open end).
      return primary == nil || properties == nil || associations == nil
    }
    guard let primary else { throw .broken(format, "it names no primary item (pitm)") }
    guard let properties, let associations else {
      throw .broken(format, "it has no item properties (iprp)")
    }
    // The property boxes, numbered from 1.
    var listed: [Box] = []
    try forEachBox(in: properties.contents, from: properties.contents.lowerBound) {
      (_, box) throws(ImageHeaderReader.Stop) in
      listed.append(box)
      return true
    }
    let indices = try associatedProperties(of: primary, in: associations, format: format)
    var size: (width: Int, height: Int)?
    var orientation = Orientation.identity
    for index in indices {
      guard index >= 1, index <= listed.count else {
        throw .broken(format, "its primary item names property \(index) of \(listed.count)")
      }
      let property = listed[index - 1]
      switch property.type {
      case "ispe" where size == nil:
        size = (
          try big(property.contents.lowerBound + 4, 4),
          try big(property.contents.lowerBound + 8, 4)
        )
      case "irot":
        orientation = orientation.then(.anticlockwise(try byte(property.contents.lowerBound) & 3))
      case "imir":
        let axis = try byte(property.contents.lowerBound) & 1
        orientation = orientation.then(.mirror(leftToRight: axis == 0))
      default: break
      }
    }
    guard let size else { throw .broken(format, "its primary item has no size (ispe)") }
    return try header(format, size.width, size.height, orientation: orientation.exif)
  }

  /// The property indices associated with item `item`, in their order (ISO 23008-12 `ipma`).
  mutating func associatedProperties(of item: Int, in box: Box, format: ImageFormat)
    throws(ImageHeaderReader.Stop)
    -> [Int]
  {
    let start = box.contents.lowerBound
    let version = try byte(start)
    let isWide = try big(start + 1, 3) & 1 != 0
    let entries = try big(start + 4, 4)
    var offset = start + 8
    for _ in 0..<entries {
      guard offset < box.contents.upperBound else {
        throw .broken(format, "its ipma box lists more entries than it holds")
      }
      let id = try big(offset, version < 1 ? 2 : 4)
      offset += version < 1 ? 2 : 4
      let count = try byte(offset)
      offset += 1
      let width = isWide ? 2 : 1
      guard offset + count * width <= box.contents.upperBound else {
        throw .broken(format, "its ipma box lists more associations than it holds")
      }
      if id == item {
        var indices: [Int] = []
        for association in 0..<count {
          let value = try big(offset + association * width, width)
          indices.append(isWide ? value & 0x7FFF : value & 0x7F)
        }
        return indices
      }
      offset += count * width
    }
    throw .broken(format, "its primary item \(item) has no properties")
  }
}
