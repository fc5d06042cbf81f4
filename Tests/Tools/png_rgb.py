"""Decodes a PNG (8 bits a channel, not interlaced: what Chromium's screenshots are) and writes
its size and its pixels as RGB bytes: "WIDTH HEIGHT\n", then WIDTH x HEIGHT x 3 bytes, row by
row. For the tests that look at screenshots; python's zlib is all it needs.

    python3 png_rgb.py screenshot.png > pixels
"""
import struct
import sys
import zlib


def decode(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour in (2, 6), f"unsupported PNG {header}"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    out = bytearray()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        previous = line
        for x in range(width):
            out += line[x * channels:x * channels + 3]
    return width, height, bytes(out)


if __name__ == "__main__":
    width, height, pixels = decode(open(sys.argv[1], "rb").read())
    sys.stdout.buffer.write(f"{width} {height}\n".encode() + pixels)
