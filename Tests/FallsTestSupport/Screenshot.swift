import FallsFixtures
import Foundation

/// The headless Chromium the picture tests render with, if it is installed (`.ci/run`
/// installs it; without it those tests are skipped).
public let chromiumPath: String? = [
  "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A picture as Chromium draws it: RGB pixels, row by row.
public struct Screenshot: Sendable {
  public var width: Int
  public var height: Int
  private var pixels: [UInt8]

  /// The red, green and blue of the pixel at `x`, `y` (from the top left).
  public func pixel(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
    let start = (y * width + x) * 3
    return (Int(pixels[start]), Int(pixels[start + 1]), Int(pixels[start + 2]))
  }

  /// How many pixels are within `tolerance` of the colour `#rrggbb`, in each channel.
  public func count(of hex: String, tolerance: Int = 8) -> Int {
    let value = Int(hex.dropFirst(), radix: 16) ?? 0
    let (red, green, blue) = (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
    var count = 0
    for start in stride(from: 0, to: pixels.count, by: 3)
    where abs(Int(pixels[start]) - red) <= tolerance
      && abs(Int(pixels[start + 1]) - green) <= tolerance
      && abs(Int(pixels[start + 2]) - blue) <= tolerance
    {
      count += 1
    }
    return count
  }

  /// Renders `file` (an HTML page or an SVG picture) in a window `width` × `height` pixels,
  /// after two seconds of the page's own time (images decoded, lazy ones in view loaded), and
  /// reads the picture back with `Tests/Tools/png_rgb.py`.
  public static func of(_ file: URL, width: Int, height: Int) async throws -> Screenshot {
    guard let chromiumPath else { throw Failure(description: "no Chromium") }
    let png = file.deletingPathExtension().appendingPathExtension("screenshot.png")
    defer { try? FileManager.default.removeItem(at: png) }
    let render = try await shell(
      [
        chromiumPath, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--window-size=\(width),\(height)", "--virtual-time-budget=2000",
        "--screenshot=\(png.path)", "file://\(file.path)",
      ].map(shellQuoted).joined(separator: " "), timeout: 60)
    guard FileManager.default.fileExists(atPath: png.path) else {
      throw Failure(description: "Chromium made no screenshot: \(render.error)")
    }
    let decoder = Fixtures.directory.deletingLastPathComponent()
      .appendingPathComponent("Tools/png_rgb.py")
    let decoded = try await shell("python3 \(shellQuoted(decoder.path)) \(shellQuoted(png.path))")
    guard let newline = decoded.output.firstIndex(of: UInt8(ascii: "\n")) else {
      throw Failure(description: "the PNG was not read: \(decoded.error)")
    }
    let size = String(decoding: decoded.output[..<newline], as: UTF8.self).split(separator: " ")
    guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else {
      throw Failure(description: "the PNG's size was not read")
    }
    let pixels = Array(decoded.output[decoded.output.index(after: newline)...])
    guard pixels.count == width * height * 3 else {
      throw Failure(description: "the PNG held \(pixels.count) bytes for \(width)×\(height)")
    }
    return Screenshot(width: width, height: height, pixels: pixels)
  }

  /// Why no screenshot came.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }
}
