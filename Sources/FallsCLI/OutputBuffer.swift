import FallsFeed

/// Bytes on their way to a sink, sent in large chunks.
struct OutputBuffer {
  private let sink: any ByteSink
  private var bytes: [UInt8] = []
  private let chunkSize: Int

  init(sink: any ByteSink, chunkSize: Int = 1 << 16) {
    self.sink = sink
    self.chunkSize = chunkSize
    bytes.reserveCapacity(chunkSize + 1024)
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends a literal without making a `String` of it.
  mutating func appendLiteral(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends an integer's decimal digits without making a `String` of it.
  mutating func appendInteger(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      bytes.append(contentsOf: buffer[(20 - count)...])
    }
  }

  /// Appends a number as JSON: integers without a fraction, others in the shortest form that
  /// reads back as the same Double.
  mutating func appendNumber(_ value: Double) {
    if isWholeNumber(value) {
      appendInteger(Int(value))
    } else {
      append(value.description)
    }
  }

  /// Appends `text` as a JSON string literal.
  mutating func appendJSONString(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // Most strings (URLs) need no escaping: copy them whole.
      if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
      ) {
        bytes.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""): appendLiteral("\\\"")
        case UInt8(ascii: "\\"): appendLiteral("\\\\")
        case 0x0A: appendLiteral("\\n")
        case 0x0D: appendLiteral("\\r")
        case 0x09: appendLiteral("\\t")
        case 0..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          appendLiteral("\\u00")
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Sends the buffered bytes when a chunk is full.
  mutating func flushIfFull() throws(SystemError) {
    if bytes.count >= chunkSize { try flush() }
  }

  /// Sends everything buffered.
  mutating func flush() throws(SystemError) {
    guard !bytes.isEmpty else { return }
    let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
      do throws(SystemError) { try sink.write(buffer) } catch { return error }
      return nil
    }
    bytes.removeAll(keepingCapacity: true)
    if let failure { throw failure }
  }
}

/// A finite Double as JSON: whole numbers below 2^53 without a fraction (`375`, `-0` as `0`),
/// others in Swift's shortest round-trip form (`111.66666666666667`, `1e-07`).
func formatNumber(_ value: Double) -> String {
  isWholeNumber(value) ? String(Int64(value)) : value.description
}

/// Whether `value` is printed as an integer: whole and below 2^53, where every integer is exact.
func isWholeNumber(_ value: Double) -> Bool {
  value.rounded() == value && abs(value) < 0x1p53
}

/// A number rounded to two decimals for people: `111.67`, `10.00`.
func formatFixed(_ value: Double) -> String {
  guard value.isFinite, abs(value) < 1e15 else { return value.description }
  let hundredths = Int64((value * 100).rounded())
  let sign = hundredths < 0 ? "-" : ""
  let magnitude = hundredths.magnitude
  let fraction = magnitude % 100
  return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
