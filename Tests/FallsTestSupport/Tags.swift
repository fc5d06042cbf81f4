import Testing

extension Tag {
  /// A test that starts another program: falls itself, the loopback server, a shell, tmux,
  /// Chromium or an image oracle. These make most of the suite's time; while developing,
  /// `swift test --skip tag:process` leaves them out (the README's `swift test` runs all).
  @Tag public static var process: Self
}
