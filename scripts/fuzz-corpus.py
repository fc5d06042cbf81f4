#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (Fuzz/corpus/) from the test fixtures.

feed:   each fixture feed as it is.
layout: for each fixture and each style, the bytes LayoutTarget reads as a configuration
        (style, columns, then defaults), followed by the fixture's image sizes as items.
cli:    a few argument lists' worth of bytes for CLITarget.
document: small layouts falls writes (json and jsonl, a few styles and flags), alone and as
        pairs split by a byte 0x1E for the diff, from the built falls (.build/debug or release).

The regression-* files in Fuzz/corpus/<target>/ are inputs that once failed; they are kept, and
this script leaves them alone.
"""
import hashlib
import json
import pathlib
import subprocess

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
    documents()


def documents():
    binary = next(
        (path for path in [ROOT / ".build" / "debug" / "falls", ROOT / ".build" / "release" / "falls"]
         if path.exists()), None)
    if binary is None:
        print("fuzz-corpus: no built falls; the document seeds are left as they are")
        return
    for flags in [
        ["--synthetic", "3"], ["--synthetic", "4", "--style", "waterfall", "-c", "2"],
        ["--synthetic", "3", "--header-height", "20", "--footer-height", "10"],
        ["--synthetic", "2", "--axis", "horizontal"], ["--synthetic", "3", "--style", "grid"],
        ["--synthetic", "2", "--style", "sphere"], ["--synthetic", "0"],
        ["--synthetic", "3", "--fields", "index,x,y,width,height"],
    ]:
        pair = []
        for fmt in ["json", "jsonl"]:
            data = subprocess.run([str(binary), "layout", *flags, "-f", fmt],
                                  check=True, capture_output=True).stdout
            write("document", data)
            pair.append(data)
        write("document", pair[0] + bytes([0x1E]) + pair[1])


if __name__ == "__main__":
    main()
