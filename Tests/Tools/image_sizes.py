#!/usr/bin/env python3
"""image_sizes.py FILE...: each file's stored and displayed size as Pillow reads it, one line
a file: `NAME WIDTH HEIGHT SHOWN_WIDTH SHOWN_HEIGHT` (the shown size after its EXIF orientation,
as ImageOps.exif_transpose turns it), or `NAME -` for a file Pillow cannot read. Exits 3 when
Pillow is missing: the test that runs it skips then."""
import os
import sys

try:
    from PIL import Image, ImageOps
except ImportError:
    sys.exit(3)

for path in sys.argv[1:]:
    name = os.path.basename(path)
    try:
        with Image.open(path) as image:
            shown = ImageOps.exif_transpose(image)
            print(name, image.size[0], image.size[1], shown.size[0], shown.size[1])
    except Exception:  # noqa: BLE001 - any failure is "Pillow cannot read it"
        print(name, "-")
