/// A key the viewer reacts to, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
  case character(Character)
  case up, down, pageUp, pageDown, home, end
  /// Ctrl-C: in raw mode it arrives as a byte, not as SIGINT.
  case interrupt
}
