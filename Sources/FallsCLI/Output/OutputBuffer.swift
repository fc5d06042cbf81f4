import FallsBase

/// Bytes on their way to a sink, sent in large chunks.
///
/// The bytes are kept in memory of its own rather than an array, so that an append is a bounds
/// check and a copy: the JSON writers make about twenty appends per element.
struct OutputBuffer: ~Copyable {
  let sink: any ByteSink
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  private let chunkSize: Int
  /// The text of recently written numbers, by their bit patterns: a layout repeats its column
  /// positions and widths on every row. Slot *i* holds a key in `numberKeys[i]` and, in the 32
  /// bytes at `numberTexts + 32 · i`, the text's length and then the text.
  private let numberKeys: UnsafeMutablePointer<UInt64>
  private let numberTexts: UnsafeMutablePointer<UInt8>
  private static let numberSlots = 64

  init(sink: any ByteSink, chunkSize: Int = 1 << 16) {
    self.sink = sink
    self.chunkSize = chunkSize
    capacity = min(chunkSize, 1 << 16) + 4096  // grows when a chunk is larger
    start = .allocate(capacity: capacity)
    // Every slot starts as 0 (the bit pattern of +0.0) with its text, "0".
    numberKeys = .allocate(capacity: Self.numberSlots)
    numberKeys.initialize(repeating: (0.0 as Double).bitPattern, count: Self.numberSlots)
    // One byte more than the slots: the last slot's text is read 32 bytes at a time.
    numberTexts = .allocate(capacity: Self.numberSlots * 32 + 1)
    numberTexts.initialize(repeating: 0, count: Self.numberSlots * 32 + 1)
    for slot in 0..<Self.numberSlots {
      numberTexts[slot * 32] = 1
      numberTexts[slot * 32 + 1] = UInt8(ascii: "0")
    }
  }

  deinit {
    start.deallocate()
    numberKeys.deallocate()
    numberTexts.deallocate()
  }

  @inline(__always)
  private mutating func reserve(_ needed: Int) {
    if count + needed > capacity { grow(needed) }
  }

  private mutating func grow(_ needed: Int) {
    // Room for what is needed and a chunk more: a long text (a URL of 100 MB) then fits with
    // what follows it, where doubling again would hold it twice.
    let larger = max(capacity * 2, count + needed + min(chunkSize, 1 << 16))
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: start, count: count)
    start.deallocate()
    start = moved
    capacity = larger
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    reserve(bytes.count)
    (start + count).update(from: base, count: bytes.count)
    count += bytes.count
  }

  private mutating func append(byte: UInt8) {
    reserve(1)
    start[count] = byte
    count += 1
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Appends a literal without making a `String` of it.
  @inline(__always)
  mutating func appendLiteral(_ text: StaticString) {
    // A literal of one Unicode scalar is stored as the scalar: at most four bytes.
    write(room: text.hasPointerRepresentation ? text.utf8CodeUnitCount : 4) { $0.literal(text) }
  }

  /// Appends an integer's decimal digits without making a `String` of it.
  @inline(__always)
  mutating func appendInteger(_ value: Int) {
    write(room: ShortestDecimal.room) { $0.integer(value) }
  }

  /// Appends a number as JSON: integers without a fraction, others in the shortest form that
  /// reads back as the same Double; `isCached: false` for a number unlikely to repeat soon,
  /// which then neither asks the cache nor takes a slot.
  @inline(__always)
  mutating func appendNumber(_ value: Double, isCached: Bool = true) {
    write(room: ShortestDecimal.room) { $0.number(value, isCached: isCached) }
  }

  /// Lets `body` write up to `room` bytes straight into the buffer through a cursor, and keeps
  /// what it wrote.
  ///
  /// The JSON writers write an element's twenty fields this way: one check for room, and a
  /// position the compiler keeps in a register, where each append would read and write the
  /// buffer's count in memory (a byte stored through a pointer may be any memory to it).
  @inline(__always)
  mutating func write(room: Int, _ body: (inout Cursor) -> Void) {
    reserve(room)
    var cursor = Cursor(
      position: start + count, end: start + count + room, numberKeys: numberKeys,
      numberTexts: numberTexts)
    body(&cursor)
    count = start.distance(to: cursor.position)
  }

  /// A place in an ``OutputBuffer`` to write at, up to the end of the room made for it by
  /// ``OutputBuffer/write(room:_:)``: a number needs ``ShortestDecimal/room`` bytes of room from
  /// where it starts, a short literal eight, a literal or a string its length. Every write checks
  /// its room in debug builds; a release build trusts the room its writer asked for.
  struct Cursor {
    var position: UnsafeMutablePointer<UInt8>
    /// Where the room made for this cursor ends.
    let end: UnsafeMutablePointer<UInt8>
    fileprivate let numberKeys: UnsafeMutablePointer<UInt64>
    fileprivate let numberTexts: UnsafeMutablePointer<UInt8>

    /// Checks, in debug builds, that `count` bytes from the position are within the room.
    @inline(__always)
    private func checkRoom(_ count: Int) {
      assert(position + count <= end, "a write of \(count) bytes past the room made for it")
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
      text.withUTF8Buffer { bytes in
        guard let base = bytes.baseAddress else { return }
        checkRoom(bytes.count)
        position.update(from: base, count: bytes.count)
        position += bytes.count
      }
    }

    /// Writes `text`, an object's member after its comma, without the comma when it is the
    /// object's first member, and notes that it no longer is.
    @inline(__always)
    mutating func member(_ text: StaticString, isFirst: inout Bool) {
      text.withUTF8Buffer { bytes in
        guard let base = bytes.baseAddress else { return }
        let skipped = isFirst ? 1 : 0
        checkRoom(bytes.count)
        position.update(from: base + skipped, count: bytes.count - skipped)
        position += bytes.count - skipped
      }
      isFirst = false
    }

    /// Writes `true` or `false` with one store (a literal chosen at run time costs a memcpy call).
    @inline(__always)
    mutating func boolean(_ value: Bool) {
      checkRoom(8)
      let (text, count): (UInt64, Int) = value ? (0x6575_7274, 4) : (0x65_736C_6166, 5)
      UnsafeMutableRawPointer(position).storeBytes(of: text.littleEndian, as: UInt64.self)
      position += count
    }

    /// Writes `text` with one store of eight bytes (those after it are left undefined).
    ///
    /// - Precondition: eight bytes of room.
    @inline(__always)
    mutating func short(_ text: ShortLiteral) {
      checkRoom(8)
      UnsafeMutableRawPointer(position).storeBytes(of: text.bytes.littleEndian, as: UInt64.self)
      position += text.count
    }

    @inline(__always)
    mutating func integer(_ value: Int) {
      checkRoom(ShortestDecimal.room)
      position += ShortestDecimal.writeInteger(value, to: position)
    }

    /// See ``OutputBuffer/appendNumber(_:isCached:)``.
    @inline(__always)
    mutating func number(_ value: Double, isCached: Bool = true) {
      checkRoom(ShortestDecimal.room)
      guard isCached else {
        position += ShortestDecimal.writeJSON(value, to: position)
        return
      }
      // The cache is asked first, whatever the number: a slot holds the exact text of its key's
      // bit pattern (it starts as 0 and "0").
      let key = value.bitPattern
      let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
      // Always 32 bytes each way, the length byte and up to 24 of text: a copy of a fixed size
      // is two moves; the length says how many count.
      let text = numberTexts + slot * 32
      if numberKeys[slot] == key {
        ShortestDecimal.moveSixteen(from: text + 1, to: position)
        ShortestDecimal.moveSixteen(from: text + 17, to: position + 16)
        position += Int(text[0])
        return
      }
      let length = ShortestDecimal.writeJSON(value, to: position)
      ShortestDecimal.moveSixteen(from: position, to: text + 1)
      ShortestDecimal.moveSixteen(from: position + 15, to: text + 16)
      text[0] = UInt8(length)
      numberKeys[slot] = key
      position += length
    }

    /// Writes `count` spaces: a table's padding.
    @inline(__always)
    mutating func spaces(_ count: Int) {
      checkRoom(count)
      position.initialize(repeating: UInt8(ascii: " "), count: count)
      position += count
    }

    /// Writes the `count` bytes at `bytes`.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafePointer<UInt8>, count: Int) {
      checkRoom(count)
      position.update(from: bytes, count: count)
      position += count
    }

    /// `utf8` in quotes, as it is: for text known to need no escaping.
    @inline(__always)
    mutating func plainString(_ utf8: UnsafeBufferPointer<UInt8>) {
      checkRoom(utf8.count + 2)
      position[0] = UInt8(ascii: "\"")
      if let base = utf8.baseAddress { (position + 1).update(from: base, count: utf8.count) }
      position[1 + utf8.count] = UInt8(ascii: "\"")
      position += utf8.count + 2
    }
  }

  /// Appends the UTF-8 text `utf8` for people: its control and format characters escaped
  /// (``forEachEscapedRun(of:keepingNewlines:_:)``), the rest copied as it lies.
  mutating func appendEscapedForPeople(_ utf8: UnsafeBufferPointer<UInt8>) {
    forEachEscapedRun(of: utf8) { append($0) }
  }

  /// Appends `text` as a JSON string literal.
  mutating func appendJSONString(_ text: String) {
    var text = text
    text.withUTF8 { appendJSONString($0) }
  }

  /// Appends the UTF-8 text `utf8` as a JSON string literal; `isPlain` says that the caller
  /// knows it needs no escaping, so that its bytes are not looked at.
  mutating func appendJSONString(_ utf8: UnsafeBufferPointer<UInt8>, isPlain: Bool = false) {
    // Most strings (URLs) need no escaping: copy them whole.
    guard !isPlain, needsJSONEscaping(utf8) else {
      write(room: utf8.count + 2) { $0.plainString(utf8) }
      return
    }
    append(byte: UInt8(ascii: "\""))
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): appendLiteral("\\\"")
      case UInt8(ascii: "\\"): appendLiteral("\\\\")
      case 0x0A: appendLiteral("\\n")
      case 0x0D: appendLiteral("\\r")
      case 0x09: appendLiteral("\\t")
      case 0..<0x20:
        let hex: StaticString = "0123456789abcdef"
        appendLiteral("\\u00")
        append(byte: hex.utf8Start[Int(byte >> 4)])
        append(byte: hex.utf8Start[Int(byte & 0xF)])
      default: append(byte: byte)
      }
    }
    append(byte: UInt8(ascii: "\""))
  }

  /// Appends the UTF-8 text `utf8` escaped for XML and HTML, in text and in double- or
  /// single-quoted attributes alike: `&`, `<`, `>`, `"` and `'` become character references, and
  /// every character XML 1.0 does not allow becomes U+FFFD: the control characters other than
  /// tab and newline, and the noncharacters U+FFFE and U+FFFF (surrogates cannot occur in
  /// valid UTF-8).
  mutating func appendEscapedMarkup(_ utf8: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      index += 1
      switch byte {
      case UInt8(ascii: "&"): appendLiteral("&amp;")
      case UInt8(ascii: "<"): appendLiteral("&lt;")
      case UInt8(ascii: ">"): appendLiteral("&gt;")
      case UInt8(ascii: "\""): appendLiteral("&quot;")
      case UInt8(ascii: "'"): appendLiteral("&#39;")
      case 0x09, 0x0A: append(byte: byte)
      case 0..<0x20, 0x7F: appendLiteral("\u{FFFD}")
      // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
      case 0xEF
      where index + 1 < utf8.count && utf8[index] == 0xBF && utf8[index + 1] & 0xFE == 0xBE:
        appendLiteral("\u{FFFD}")
        index += 2
      default: append(byte: byte)
      }
    }
  }

  /// Appends `text` escaped for XML and HTML; see ``appendEscapedMarkup(_:)-(UnsafeBufferPointer<UInt8>)``.
  mutating func appendEscapedMarkup(_ text: String) {
    var text = text
    text.withUTF8 { appendEscapedMarkup($0) }
  }

  /// Appends `{"schema":` and the schema's name: the start of a falls document, whose members
  /// follow.
  mutating func appendDocumentStart(schema: String) {
    appendLiteral("{\"schema\":")
    appendJSONString(schema)
  }

  /// Appends `true` or `false`.
  mutating func appendBoolean(_ value: Bool) {
    appendLiteral(value ? "true" : "false")
  }

  /// Appends `elements` as a JSON array, each written by `element`, sending what is written
  /// whenever the buffer is full, so that a long array is never held whole.
  mutating func appendJSONArray<Elements: Sequence>(
    _ elements: Elements, _ element: (Elements.Element, inout OutputBuffer) -> Void
  ) throws(SystemError) {
    appendLiteral("[")
    for (position, value) in elements.enumerated() {
      if position > 0 { appendLiteral(",") }
      element(value, &self)
      try flushIfFull()
    }
    appendLiteral("]")
  }

  /// Sends the buffered bytes when a chunk is full.
  mutating func flushIfFull() throws(SystemError) {
    if count >= chunkSize { try flush() }
  }

  mutating func flush() throws(SystemError) {
    guard count > 0 else { return }
    let pending = count
    count = 0
    try sink.write(RawSpan(_unsafeStart: UnsafeRawPointer(start), byteCount: pending))
  }
}
