#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (Fuzz/corpus/) from the test fixtures.

feed:   each fixture feed as it is.
layout: for each fixture and each style, the bytes LayoutTarget reads as a configuration
        (style, columns, then defaults), followed by the fixture's image sizes as items.
cli:    a few argument lists' worth of bytes for CLITarget.

The regression-* files in Fuzz/corpus/<target>/ are inputs that once failed; they are kept, and
this script leaves them alone.
"""
import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "Fixtures"
CORPUS = ROOT / "Fuzz" / "corpus"


def write(target, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:12]
    (folder / name).write_bytes(data)


def sizes(feed):
    for item in feed.get("data", []):
        try:
            yield float(item["width"]), float(item["height"])
        except (KeyError, TypeError, ValueError):
            continue


def main():
    for path in sorted(FIXTURES.glob("*.json")):
        data = path.read_bytes()
        write("feed", data)
        feed = json.loads(data)
        items = bytearray()
        for width, height in list(sizes(feed))[:120]:
            # kind 3: an ordinary item; width and height as 1 + 8·a + b/16, at most 2048.
            scale = 2000 / max(width, height, 1)
            w, h = max(1, width * scale), max(1, height * scale)
            items += bytes([3, min(255, int(w // 8)), 0, min(255, int(h // 8)), 0])
        for style in range(6):
            # style, columns − 1, then 40 bytes of defaults (a seed of zeros, no options).
            write("layout", bytes([style, 2]) + bytes(40) + bytes(items))
    for arguments in [
        [0, 3, 2, 10, 4], [0, 6, 3, 15, 9, 2, 7, 1], [1], [2], [0, 9] + list(range(40)),
        [0, 4, 0, 5, 65, 66, 67, 68, 69, 3, 22, 1],
    ]:
        write("cli", bytes(arguments))


if __name__ == "__main__":
    main()
