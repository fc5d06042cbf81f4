import FallsFeed
import Testing

@Suite struct ImageHeaderTests {
  @Test(
    "Each format has its name as people write it",
    arguments: [
      (ImageFormat.png, "PNG"), (.jpeg, "JPEG"), (.gif, "GIF"), (.webp, "WebP"), (.avif, "AVIF"),
      (.heic, "HEIC"), (.bmp, "BMP"),
    ])
  func name(format: ImageFormat, name: String) {
    #expect(format.name == name)
  }

  @Test("The formats listed for people: every one, in order, the last after 'or'")
  func listed() {
    #expect(ImageFormat.listed == "PNG, JPEG, GIF, WebP, AVIF, HEIC or BMP")
  }
}
