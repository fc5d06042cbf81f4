/// Turns the bytes read from a terminal into keys: printable characters, Ctrl-C, and the escape
/// sequences of the arrow, page and home/end keys (`ESC [ A`, `ESC [ 5 ~`, `ESC O H`, …).
/// Bytes of sequences it does not know are dropped whole.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// The keys completed by `bytes`; an incomplete escape sequence waits for more.
  public mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    while let first = pending.first {
      if first == 0x1B {
        guard pending.count >= 2 else { break }
        guard pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") else {
          // A lone escape followed by something else: drop the escape.
          pending.removeFirst()
          continue
        }
        // A sequence ends at its first byte in 0x40…0x7E after the introducer.
        guard let end = pending.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) })
        else { break }
        let body = String(decoding: pending[2..<end], as: UTF8.self)
        switch (body, pending[end]) {
        case ("", UInt8(ascii: "A")): keys.append(.up)
        case ("", UInt8(ascii: "B")): keys.append(.down)
        case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")):
          keys.append(.home)
        case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")):
          keys.append(.end)
        case ("5", UInt8(ascii: "~")): keys.append(.pageUp)
        case ("6", UInt8(ascii: "~")): keys.append(.pageDown)
        default: break
        }
        pending.removeFirst(end + 1)
        continue
      }
      pending.removeFirst()
      if first == 0x03 {
        keys.append(.interrupt)
      } else if first == 0x0D || first == 0x0A {
        keys.append(.character("\n"))
      } else if (0x20..<0x7F).contains(first) {
        keys.append(.character(Character(Unicode.Scalar(first))))
      }
    }
    return keys
  }
}
