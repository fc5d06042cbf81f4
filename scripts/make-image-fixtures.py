#!/usr/bin/env python3
"""Writes the image fixtures of Tests/Fixtures/images/ (tiny files, committed): one or more of
every format ImageHeaderReader reads, at sizes that tell width from height, and JPEGs in every
EXIF orientation in both byte orders. Needs ImageMagick's `convert` (built with libheif for AVIF
and HEIC). The files' sizes are checked in the tests by Pillow and heif-info, not by this script.

    python3 scripts/make-image-fixtures.py
"""
import pathlib
import struct
import subprocess
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent / "Tests/Fixtures/images"
root.mkdir(parents=True, exist_ok=True)


def convert(*arguments):
    subprocess.run(["convert", *arguments], check=True)


def picture(width, height, path):
    """A gradient with a mark in its top left corner, so that a turn shows."""
    convert("-size", f"{width}x{height}", "gradient:#d62728-#1f77b4", "-fill", "#ffffff",
            "-draw", f"rectangle 0,0 {max(width // 4, 1)},{max(height // 4, 1)}", str(path))


def exif_app1(orientation, big_endian):
    """An APP1 segment holding an EXIF block whose first directory gives the orientation."""
    order = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8)
    # One entry: tag 0x0112 (Orientation), type 3 (SHORT), count 1, the value padded to 4 bytes.
    tiff += struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(order + "I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def with_segment(jpeg, segment):
    """The JPEG with `segment` inserted right after its start of image."""
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + segment + jpeg[2:]


with tempfile.TemporaryDirectory() as scratch:
    scratch = pathlib.Path(scratch)
    base = scratch / "base.png"
    picture(37, 23, base)
    convert(str(base), str(root / "png-37x23.png"))
    convert(str(base), str(root / "avif-37x23.avif"))
    convert(str(base), str(root / "heic-37x23.heic"))
    picture(41, 29, scratch / "jpeg.png")
    convert(str(scratch / "jpeg.png"), "-quality", "80", str(root / "jpeg-41x29.jpg"))
    convert(str(scratch / "jpeg.png"), "-interlace", "JPEG", str(root / "jpeg-progressive-41x29.jpg"))
    picture(17, 13, scratch / "gif.png")
    convert(str(scratch / "gif.png"), str(root / "gif-17x13.gif"))
    picture(45, 33, scratch / "webp.png")
    convert(str(scratch / "webp.png"), "-quality", "80", str(root / "webp-lossy-45x33.webp"))
    convert(str(scratch / "webp.png"), "-define", "webp:lossless=true",
            str(root / "webp-lossless-45x33.webp"))
    # Transparency makes the extended format: a VP8X chunk before the frame.
    convert(str(scratch / "webp.png"), "-alpha", "set", "-channel", "A", "-evaluate", "set", "50%",
            "+channel", "-quality", "80", str(root / "webp-extended-45x33.webp"))
    picture(19, 11, scratch / "bmp.png")
    convert(str(scratch / "bmp.png"), "BMP3:" + str(root / "bmp-19x11.bmp"))
    convert(str(scratch / "bmp.png"), "BMP2:" + str(root / "bmp-core-19x11.bmp"))
    # A JPEG of 43 × 31 stored pixels in every orientation, both byte orders of EXIF.
    picture(43, 31, scratch / "turned.png")
    convert(str(scratch / "turned.png"), str(scratch / "turned.jpg"))
    plain = (scratch / "turned.jpg").read_bytes()
    for orientation in range(1, 9):
        for big_endian in (False, True):
            name = f"jpeg-43x31-orientation{orientation}-{'mm' if big_endian else 'ii'}.jpg"
            (root / name).write_bytes(with_segment(plain, exif_app1(orientation, big_endian)))

# Cut short inside their headers: the PNG in its IHDR, the JPEG before its frame header.
(root / "truncated-png.png").write_bytes((root / "png-37x23.png").read_bytes()[:20])
jpeg = (root / "jpeg-41x29.jpg").read_bytes()
(root / "truncated-jpeg.jpg").write_bytes(jpeg[:jpeg.index(b"\xff\xc0")])
(root / "not-an-image.html").write_text(
    "<!DOCTYPE html>\n<html><body><h1>404 Not Found</h1></body></html>\n", encoding="utf-8")
(root / "not-an-image.txt").write_text("this is not an image\n", encoding="utf-8")
print("wrote", len(list(root.iterdir())), "files into", root)
