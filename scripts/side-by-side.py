#!/usr/bin/env python3
"""make docs: one SVG of the same feed and seed laid out with --align seed, spread and planned,
side by side, each under a caption with its quality figures.

    scripts/side-by-side.py FALLS FEED SEED COUNT OUTPUT

FALLS is the built binary; the feed is the first COUNT items of FEED, so that the picture stays
short. Each half is falls's own SVG, nested as it is (its legend included); the captions come
from `falls layout --quality --format json`. Nothing here computes a layout.
"""
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SVG = "http://www.w3.org/2000/svg"
ElementTree.register_namespace("", SVG)
GAP = 24
CAPTION = 64


def run(falls, arguments):
    return subprocess.run([falls, "layout", *arguments], check=True, capture_output=True).stdout


def main():
    falls, source, seed, count, output = sys.argv[1:6]
    with open(source, encoding="utf-8") as file:
        document = json.load(file)
    document["data"] = document["data"][: int(count)]
    feed = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(document, feed)
    feed.close()
    feed = feed.name
    halves = []
    for strategy in ("seed", "spread", "planned"):
        arguments = ["--feed", feed, "--seed", seed, "--align", strategy]
        svg = ElementTree.fromstring(run(falls, arguments + ["--format", "svg"]))
        quality = json.loads(run(falls, arguments + ["--quality", "--format", "json"]))
        halves.append((strategy, svg, quality))
    width = sum(float(svg.get("width")) for _, svg, _ in halves) + GAP * (len(halves) + 1)
    height = max(float(svg.get("height")) for _, svg, _ in halves) + CAPTION + GAP
    root = ElementTree.Element(
        f"{{{SVG}}}svg",
        {"width": f"{width:g}", "height": f"{height:g}", "viewBox": f"0 0 {width:g} {height:g}"})
    ElementTree.SubElement(
        root, f"{{{SVG}}}rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    x = GAP
    for strategy, svg, quality in halves:
        lines = [
            f"--align {strategy}",
            f"corrected {quality['correctedShare']:.0%} of items, "
            f"mean {quality['meanDistortion']:.1%}, max {quality['maxDistortion']:.1%}",
            f"enlarged {quality['enlargedShare']:.0%}, ragged end {quality['raggedEnd']:.2f}",
        ]
        for number, line in enumerate(lines):
            text = ElementTree.SubElement(
                root, f"{{{SVG}}}text",
                {"x": f"{x:g}", "y": f"{GAP + number * 18:g}", "font-family": "sans-serif",
                 # falls's own style sheet centres text; an inline style wins over it.
                 "style": "text-anchor:start;dominant-baseline:auto",
                 "font-size": "15" if number == 0 else "12",
                 "font-weight": "bold" if number == 0 else "normal"})
            text.text = line
        svg.set("x", f"{x:g}")
        svg.set("y", f"{CAPTION:g}")
        root.append(svg)
        x += float(svg.get("width")) + GAP
    ElementTree.ElementTree(root).write(output, encoding="UTF-8", xml_declaration=True)


if __name__ == "__main__":
    main()
