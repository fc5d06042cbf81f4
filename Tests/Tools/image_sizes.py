#!/usr/bin/env python3
"""image_sizes.py FILE...: each file's stored and displayed size as Pillow reads it, one line
a file: `NAME WIDTH HEIGHT SHOWN_WIDTH SHOWN_HEIGHT` (the shown size after its EXIF orientation,
as ImageOps.exif_transpose turns it); `NAME - unsupported` for a file whose format this Pillow
has no reader for (AVIF before Pillow 11.2, HEIC without a plugin); `NAME - failed` for a file
in a format it reads that it could not read. Exits 3 when Pillow is missing: the test that runs
it skips then."""
import os
import sys

try:
    from PIL import Image, ImageOps
except ImportError:
    sys.exit(3)

Image.init()
readable = {
    extension
    for extension, format_name in Image.registered_extensions().items()
    if format_name in Image.OPEN
}

for path in sys.argv[1:]:
    name = os.path.basename(path)
    if os.path.splitext(name)[1].lower() not in readable:
        print(name, "-", "unsupported")
        continue
    try:
        with Image.open(path) as image:
            shown = ImageOps.exif_transpose(image)
            print(name, image.size[0], image.size[1], shown.size[0], shown.size[1])
    except Exception:  # noqa: BLE001 - any failure is "Pillow cannot read it"
        print(name, "-", "failed")
