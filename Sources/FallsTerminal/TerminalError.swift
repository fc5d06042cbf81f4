/// A failed terminal call's `errno`.
public struct TerminalError: Error, Hashable, Sendable {
  public var code: Int32
}
