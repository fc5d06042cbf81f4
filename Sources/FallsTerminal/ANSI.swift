/// The escape sequences the viewer writes.
public enum ANSI {
  public static let alternateScreen = "\u{1B}[?1049h"
  public static let mainScreen = "\u{1B}[?1049l"
  public static let hideCursor = "\u{1B}[?25l"
  public static let showCursor = "\u{1B}[?25h"
  public static let home = "\u{1B}[H"
  public static let clearLine = "\u{1B}[K"
  public static let inverse = "\u{1B}[7m"
  public static let reset = "\u{1B}[0m"

  /// Moves the cursor to `row`, `column` (from 1).
  public static func move(row: Int, column: Int) -> String { "\u{1B}[\(row);\(column)H" }
}
