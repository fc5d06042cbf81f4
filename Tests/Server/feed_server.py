#!/usr/bin/env python3
"""A finderlist server with faults, for falls's fetching tests.

Listens on 127.0.0.1 on an ephemeral port (never a fixed one, never another address), prints
"PORT <n>" on its first line of output, and serves until its standard input closes. Feeds come
from the fixtures directory given as the first argument.

Routes (every response but the faults is a finderlist feed):
  /feed/<name>              the fixture <name>
  /flaky/<n>/<name>         500 for the first <n> requests, then the fixture
  /status/<code>            that status with a short text body
  /retry-after/<s>/<name>   429 with Retry-After: <s> once, then the fixture
  /redirect/<name>          302 to /feed/<name>
  /redirect-to?location=<l> 302 to <l>, whatever its scheme
  /loop/<k>                 302 to /loop/<k+1 mod 2>, for ever
  /hang                     reads the request, never answers; logs when the client closes
  /trickle                  a 200 header promising 1000 bytes, then a byte every 0.1 s; logs
                            when the client closes
  /short                    Content-Length 1000 with a body of 20 bytes, then closes
  /html                     a 200 HTML error page
  /gzip/<name>              the fixture, gzip-compressed, Content-Encoding: gzip
  /gzip-bomb/<m>            a gzip body of about m KiB that expands to m MiB
  /big/<bytes>              a 200 JSON body of <bytes> bytes
  /unsized/<bytes>          the same without Content-Length (the body ends when the connection closes)
  /pages/<page>?size=<n>    page <page> (1-based) of the three mj-shop pages, <n> items each;
                            an empty data array after the last item
  /failing/<bad>/<page>?size=<n>  as /pages, but page <bad> always answers 500
  /broken                   a 200 body that starts like JSON and breaks off inside it
  /same                     the next mj-shop page on each request, then an empty one
  /sequence/<a>,<b>,…/<page>  fixture number <page> of the list, then an empty data array
  /image/<name>             the image fixture images/<name>, honouring Range (206, or 416
                            past its end)
  /image-whole/<name>       the same, ignoring Range: 200 and the whole file
  /image-padded/<k>/<name>  the JPEG fixture with <k> KiB of APP segments before its frame
                            header, honouring Range; /image-padded-whole/<k>/<name> ignores it
                            (/image-padded-whole-paced/<k>/<name>: 2 ms after each 16 KiB)
  /image-icc/<k>/<name>     the JPEG fixture with an ICC profile of <k> KiB after its JFIF
                            segment, in APP2 ICC_PROFILE chunks as ImageMagick and libjpeg
                            write them, honouring Range; /image-icc-whole/<k>/<name> ignores it
  /image-slow/<s>/<name>    /image/<name> after <s> seconds
  /slow-images/<n>/<s>      a feed of <n> items whose images are /image-slow/<s>/ ones
                            (?after=<a>: the feed itself after <a> seconds)
  /images-feed/<n>?path=<p> a feed of <n> items whose images are this server's <p>
                            (&page=<k>&fail=<f>: 500 when <k> is <f>, as /failing)
  /image-big/<k>/<name>     the image fixture and <k> KiB after it, honouring Range;
                            /image-big-whole/<k>/<name> ignores it
  /together-feed/<n>        a feed of <n> images that answer only when asked for all at once
  /image-noise              200, then random bytes for ever
  /image-endless-jpeg       200, a JPEG start, then APP segments for ever (no frame header)
  /image-huge               a PNG header of 2147483647 x 2147483647 pixels
  /length/<digits>          200 with Content-Length: <digits> (any number, however large), a
                            43-byte JSON body, then closes
  /range-then-416/<total>   the first range 206 with a JPEG's first 4 bytes, the others 416
                            with Content-Range: bytes */<total>
  /image-tiny-segments      200, a JPEG start, then 4-byte APP1 segments for ever
  /range-at/<start>         206 with Content-Range: bytes <start>-<start+9>/*, whatever was asked
  /one-byte/<name>          the image fixture, each range answered with its first byte only
  /one-byte-slow/<s>/<name> /one-byte/<name>, each answer after <s> seconds
  /same-byte/<name>         the image fixture, each range answered with the file's first byte
                            (Content-Range: bytes 0-0/*), wherever it was asked
  /items-feed?img=<a>&img=<b>…  a feed whose items' img are exactly those strings (37 x 23;
                            with sized=0, no size at all)
  /assets/feeds/feed.json   a feed of relative references: ../img/<n>, img/<n>, /image/<n>,
                            //127.0.0.1:<port>/image/<n>, for <n> png-37x23.png
  /assets/img/<name>, /assets/feeds/img/<name>  the image fixture <name>, as /image/ serves it
  /moved                    302 to /assets/feeds/feed.json
  /log                      the requests so far, but these, as JSON lines: method, path,
                            user agent; and CLOSED entries with the seconds a held connection
                            lasted; SENT entries with the bytes an image route wrote
"""
import gzip
import http.server
import json
import pathlib
import signal
import socketserver
import sys
import threading
import time
import urllib.parse
import zlib

FIXTURES = pathlib.Path(sys.argv[1])
LOCK = threading.Lock()
COUNTS = {}
LOG = []


def count(key):
    with LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


BOMBS = {}

# /together/<n>/...: requests held until <n> of them are in at once, then answered together.
TOGETHER = threading.Condition()
TOGETHER_WAITING = {}
TOGETHER_ROUND = {}


def count_all():
    """A number no earlier call gave."""
    return count("together-feeds")


def wait_together(key, count, timeout=3.0):
    """Whether `count` requests of `key` were in at once within `timeout` seconds."""
    with TOGETHER:
        round_now = TOGETHER_ROUND.get(key, 0)
        TOGETHER_WAITING[key] = TOGETHER_WAITING.get(key, 0) + 1
        if TOGETHER_WAITING[key] >= count:
            TOGETHER_WAITING[key] = 0
            TOGETHER_ROUND[key] = round_now + 1
            TOGETHER.notify_all()
            return True
        met = TOGETHER.wait_for(lambda: TOGETHER_ROUND.get(key, 0) != round_now, timeout)
        if not met:
            TOGETHER_WAITING[key] -= 1
        return met


def gzip_bomb(megabytes):
    """A gzip body that expands to '{"data": [], "x": "' and <megabytes> MiB of spaces."""
    with LOCK:
        if megabytes not in BOMBS:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
            parts = [compressor.compress(b'{"data": [], "x": "')]
            block = b" " * (1 << 20)
            for _ in range(megabytes):
                parts.append(compressor.compress(block))
            parts.append(compressor.flush())
            BOMBS[megabytes] = b"".join(parts)
        return BOMBS[megabytes]


def shop_items():
    items = []
    for page in (1, 2, 3):
        items += json.loads((FIXTURES / f"mj-shop-{page}.json").read_text())["data"]
    return items


def padded_jpeg(kibibytes, name):
    """The JPEG fixture with APP segments of zeros, <kibibytes> KiB in all, after its start."""
    jpeg = (FIXTURES / "images" / name).read_bytes()
    segments = []
    left = kibibytes * 1024
    while left > 0:
        size = min(left, 65533)
        segments.append(b"\xff\xe2" + (size + 2).to_bytes(2, "big") + b"\0" * size)
        left -= size
    return jpeg[:2] + b"".join(segments) + jpeg[2:]


def icc_jpeg(kibibytes, name):
    """The JPEG fixture with an ICC profile of <kibibytes> KiB after its first segment (JFIF), in
    APP2 chunks of at most 65,519 bytes, each "ICC_PROFILE\\0", its number from 1 and the count
    (ICC.1:2010 annex B.4): a profile header (its size, "acsp" at byte 36), then zeros."""
    jpeg = (FIXTURES / "images" / name).read_bytes()
    size = kibibytes * 1024
    profile = bytearray(size)
    profile[0:4] = size.to_bytes(4, "big")
    profile[36:40] = b"acsp"
    chunks = [profile[at:at + 65519] for at in range(0, size, 65519)]
    segments = b"".join(
        b"\xff\xe2" + (len(chunk) + 16).to_bytes(2, "big") + b"ICC_PROFILE\0"
        + bytes([number, len(chunks)]) + chunk
        for number, chunk in enumerate(chunks, start=1))
    first_end = 4 + int.from_bytes(jpeg[4:6], "big")
    return jpeg[:first_end] + segments + jpeg[first_end:]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_closed(self, path, started):
        """Logs when the client closed a connection that the server held open."""
        with LOCK:
            LOG.append({"method": "CLOSED", "path": path,
                        "seconds": f"{time.monotonic() - started:.3f}"})

    def send_image(self, path, body, honour_range=True):
        """Sends `body` (or the range asked for), in chunks, and logs how many bytes went."""
        asked = self.headers.get("Range", "")
        status, headers, start, end = 200, [], 0, len(body)
        if honour_range and asked.startswith("bytes="):
            first, _, last = asked[6:].partition("-")
            start = int(first)
            if start >= len(body):
                self.send_body(416, b"", "text/plain", [("Content-Range", f"bytes */{len(body)}")])
                return
            end = min(int(last) + 1 if last else len(body), len(body))
            status = 206
            headers = [("Content-Range", f"bytes {start}-{end - 1}/{len(body)}")]
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.stream(path, (body[offset:min(offset + 16384, end)]
                           for offset in range(start, end, 16384)),
                    pause=0.002 if "paced" in path else 0)

    def stream(self, path, chunks, pause=0):
        """Writes the chunks until they end or the client goes, `pause` seconds after each (as a
        real network paces them, where loopback would hand many MiB over before a client's
        cancel takes effect); logs the bytes written."""
        sent = 0
        try:
            for chunk in chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
                sent += len(chunk)
                if pause:
                    time.sleep(pause)
        except OSError:
            self.close_connection = True
        with LOCK:
            LOG.append({"method": "SENT", "path": path, "bytes": str(sent)})

    def fixture(self, name):
        path = FIXTURES / name
        if not path.is_file() or "/" in name:
            self.send_body(404, b"no such fixture\n", "text/plain")
        else:
            self.send_body(200, path.read_bytes())

    def do_GET(self):
        if self.path != "/log":
            with LOCK:
                LOG.append({"method": "GET", "path": self.path,
                            "userAgent": self.headers.get("User-Agent", ""),
                            "acceptEncoding": self.headers.get("Accept-Encoding", "")})
        path, _, query = self.path.partition("?")
        parts = path.strip("/").split("/")
        route = parts[0]
        if route == "feed":
            self.fixture(parts[1])
        elif route == "flaky":
            if count(path) <= int(parts[1]):
                self.send_body(500, b"internal error\n", "text/plain")
            else:
                self.fixture(parts[2])
        elif route == "slow":
            # /slow/<seconds>/<fixture>: the fixture after a wait.
            time.sleep(float(parts[1]))
            self.fixture(parts[2])
        elif route == "status":
            self.send_body(int(parts[1]), b"status page\n", "text/plain")
        elif route == "retry-after":
            if count(path) == 1:
                self.send_body(429, b"slow down\n", "text/plain", [("Retry-After", parts[1])])
            else:
                self.fixture(parts[2])
        elif route == "redirect":
            self.send_response(302)
            self.send_header("Location", f"/feed/{parts[1]}")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif route == "redirect-to":
            location = urllib.parse.parse_qs(query).get("location", ["/"])[0]
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif route == "loop":
            self.send_response(302)
            self.send_header("Location", f"/loop/{(int(parts[1]) + 1) % 2}")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif route == "hang":
            started = time.monotonic()
            # Wait for the client to give up: its closing makes the socket readable at its end.
            self.connection.settimeout(120)
            try:
                while self.connection.recv(1024):
                    pass
            except OSError:
                pass
            self.log_closed(path, started)
            self.close_connection = True
        elif route == "trickle":
            started = time.monotonic()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            self.log_closed(path, started)
            self.close_connection = True
        elif route == "short":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"data": [{"img": "a"')
            self.wfile.flush()
            self.close_connection = True
        elif route == "html":
            self.send_body(200, b"<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n",
                           "text/html")
        elif route == "gzip":
            body = gzip.compress((FIXTURES / parts[1]).read_bytes())
            self.send_body(200, body, "application/json", [("Content-Encoding", "gzip")])
        elif route == "gzip-bomb":
            body = gzip_bomb(int(parts[1]))
            self.send_body(200, body, "application/json", [("Content-Encoding", "gzip")])
        elif route in ("big", "unsized"):
            size = int(parts[1])
            body = (b'{"data": [], "padding": "' + b"x" * max(0, size - 27) + b'"}')[:size]
            if route == "big":
                self.send_body(200, body)
            else:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True
        elif route == "late":
            # /late/<seconds>/<page>?size=<n>: the pages of /pages, every page after the first
            # after a wait (on a connection the first one opened).
            if int(parts[2]) > 1:
                time.sleep(float(parts[1]))
            size = int(dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("size", "20"))
            page = int(parts[2])
            items = shop_items()[(page - 1) * size: page * size]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route in ("pages", "failing"):
            size = int(dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("size", "20"))
            page = int(parts[-1])
            if route == "failing" and page == int(parts[1]):
                self.send_body(500, b"internal error\n", "text/plain")
                return
            items = shop_items()[(page - 1) * size: page * size]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "sequence":
            names = parts[1].split(",")
            page = int(parts[2])
            if page <= len(names):
                self.fixture(names[page - 1])
            else:
                self.send_body(200, b'{"data": []}')
        elif route == "broken":
            self.send_body(200, b'{"data": [{"img": "a", "width": "1"')
        elif route == "same":
            page = count("same")
            name = FIXTURES / f"mj-shop-{page}.json"
            if page <= 3:
                self.send_body(200, name.read_bytes())
            else:
                self.send_body(200, b'{"data": []}')
        elif route in ("image", "image-whole", "image-slow", "image-padded", "image-padded-whole",
                       "image-padded-whole-paced", "image-big", "image-big-whole", "image-icc",
                       "image-icc-whole"):
            name = parts[-1]
            if "/" in name or not (FIXTURES / "images" / name).is_file():
                self.send_body(404, b"no such image\n", "text/plain")
                return
            if route == "image-slow":
                time.sleep(float(parts[1]))
            if route.startswith("image-padded"):
                body = padded_jpeg(int(parts[1]), name)
            elif route.startswith("image-icc"):
                body = icc_jpeg(int(parts[1]), name)
            elif route.startswith("image-big"):
                # The image, then <k> KiB after its end: a large file whose header is early.
                body = (FIXTURES / "images" / name).read_bytes() + b"\0" * (int(parts[1]) * 1024)
            else:
                body = (FIXTURES / "images" / name).read_bytes()
            self.send_image(path, body, honour_range="whole" not in route)
        elif route in ("image-noise", "image-endless-jpeg"):
            # No Content-Length: the body goes on until the client closes the connection.
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            self.close_connection = True
            def noise():
                import random
                generator = random.Random(7)
                while True:
                    yield bytes(generator.getrandbits(8) for _ in range(16384))
            def segments():
                yield b"\xff\xd8"
                block = b"\xff\xe2" + (16384).to_bytes(2, "big") + b"\0" * 16382
                while True:
                    yield block
            self.stream(path, noise() if route == "image-noise" else segments())
        elif route == "image-huge":
            body = (b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR"
                    + (2147483647).to_bytes(4, "big") * 2 + b"\x08\x02\0\0\0")
            self.send_image(path, body)
        elif route == "together-feed":
            # /together-feed/<n>: a feed of <n> images that answer only when all <n> are asked
            # for at once (else 503 after 3 s).
            port = self.server.server_address[1]
            images = int(parts[1])
            # A key of each feed's own, so that no request of an earlier run joins this one's.
            key = f"{images}-{count_all()}"
            items = [{"img": f"http://127.0.0.1:{port}/together/{images}/{key}/{n}",
                      "width": "37", "height": "23"} for n in range(images)]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "together":
            if wait_together(parts[2], int(parts[1])):
                self.send_image(path, (FIXTURES / "images" / "png-37x23.png").read_bytes())
            else:
                self.send_body(503, b"not all together\n", "text/plain")
        elif route == "images-feed":
            # /images-feed/<n>?path=<p>: a feed of <n> items whose images are this server's <p>.
            port = self.server.server_address[1]
            asked = urllib.parse.parse_qs(query)
            if "fail" in asked and asked.get("page") == asked["fail"]:
                self.send_body(500, b"internal error\n", "text/plain")
                return
            image = asked.get("path", ["/image/png-37x23.png"])[0]
            items = [{"img": f"http://127.0.0.1:{port}{image}?{n}", "width": "41",
                      "height": "29"} for n in range(int(parts[1]))]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "slow-images":
            # /slow-images/<n>/<s>?after=<a>: a feed of <n> items whose images answer after <s>
            # seconds, itself after <a> seconds (0 by default).
            time.sleep(float(urllib.parse.parse_qs(query).get("after", ["0"])[0]))
            port = self.server.server_address[1]
            items = [{"img": f"http://127.0.0.1:{port}/image-slow/{parts[2]}/png-37x23.png?{n}",
                      "width": "37", "height": "23"} for n in range(int(parts[1]))]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "length":
            body = b'{"data":[{"img":"a","width":"1","height":"2"}]}'[:43]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", parts[1])
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True
        elif route == "range-then-416":
            # /range-then-416/<total>: the first range answered with a JPEG's first four bytes,
            # every later one 416 with Content-Range: bytes */<total> (any text).
            if self.headers.get("Range", "").startswith("bytes=0-"):
                self.send_body(206, b"\xff\xd8\xff\xe1", "image/jpeg",
                               [("Content-Range", "bytes 0-3/*")])
            else:
                self.send_body(416, b"", "text/plain", [("Content-Range", f"bytes */{parts[1]}")])
        elif route == "image-tiny-segments":
            # 200 whatever the Range: a JPEG start, then 4-byte APP1 segments for ever.
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.end_headers()
            self.close_connection = True
            def segments():
                yield b"\xff\xd8"
                block = b"\xff\xe1\x00\x02" * 4096
                while True:
                    yield block
            self.stream(path, segments())
        elif route == "range-at":
            start = int(parts[1])
            self.send_response(206)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Range", f"bytes {start}-{start + 9}/*")
            self.send_header("Content-Length", "10")
            self.end_headers()
            self.wfile.write(b"\x89PNG\r\n\x1a\n\0\0")
        elif route in ("one-byte", "same-byte", "one-byte-slow"):
            if route == "one-byte-slow":
                time.sleep(float(parts[1]))
                route = "one-byte"
            name = parts[-1]
            if "/" in name or not (FIXTURES / "images" / name).is_file():
                self.send_body(404, b"no such image\n", "text/plain")
                return
            body = (FIXTURES / "images" / name).read_bytes()
            asked = self.headers.get("Range", "bytes=0-")
            start = int(asked[6:].partition("-")[0] or 0) if route == "one-byte" else 0
            if start >= len(body):
                self.send_body(416, b"", "text/plain", [("Content-Range", f"bytes */{len(body)}")])
                return
            self.send_body(206, body[start:start + 1], "application/octet-stream",
                           [("Content-Range", f"bytes {start}-{start}/*")])
        elif route == "items-feed":
            fields = urllib.parse.parse_qs(query, keep_blank_values=True)
            sized = fields.get("sized", ["1"])[0] != "0"
            items = [{"img": image, **({"width": "37", "height": "23"} if sized else {})}
                     for image in fields.get("img", [])]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "assets" and parts[1:] == ["feeds", "feed.json"]:
            port = self.server.server_address[1]
            references = ["../img/png-37x23.png", "img/png-37x23.png", "/image/png-37x23.png",
                          f"//127.0.0.1:{port}/image/png-37x23.png"]
            items = [{"img": reference, "width": "37", "height": "23"} for reference in references]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "assets" and "img" in parts[1:3]:
            name = parts[-1]
            if "/" in name or not (FIXTURES / "images" / name).is_file():
                self.send_body(404, b"no such image\n", "text/plain")
                return
            self.send_image(path, (FIXTURES / "images" / name).read_bytes())
        elif route == "moved":
            self.send_response(302)
            self.send_header("Location", "/assets/feeds/feed.json")
            self.send_header("Content-Length", "0")
            self.end_headers()
        # The URLs the documents' examples name at example.com (DocumentedCommandsTests runs
        # them here): a finderlist feed, JSON Lines items whose image is under "url", and a
        # paginated list.
        elif route == "finderlist":
            self.fixture("mj-shop-1.json")
        elif route == "items.jsonl":
            lines = [{"url": item["img"], "width": item["width"], "height": item["height"]}
                     for item in shop_items()[:20]]
            self.send_body(200, "".join(json.dumps(line) + "\n" for line in lines).encode(),
                           "application/x-ndjson")
        elif route == "list":
            arguments = urllib.parse.parse_qs(query)
            size = int(arguments.get("size", ["20"])[0])
            page = int(arguments.get("page", ["1"])[0])
            items = shop_items()[(page - 1) * size: page * size]
            self.send_body(200, json.dumps({"data": items}).encode())
        elif route == "log":
            with LOCK:
                body = "".join(json.dumps(entry) + "\n" for entry in LOG).encode()
            self.send_body(200, body, "application/x-ndjson")
        else:
            self.send_body(404, b"not found\n", "text/plain")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Room for falls's 64 connections at once: with the default backlog of 5, a burst of them
    # loses SYNs that the client sends again only after a second or more.
    request_queue_size = 128


def main():
    # A test process may start this server from a thread that blocks signals, and the mask is
    # inherited: unblocked, SIGTERM stops it. (Its inherited descriptors stay open: one of them
    # is how Foundation's Process in the test learns that this process ended.)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # serve until the test closes our standard input
    server.shutdown()


if __name__ == "__main__":
    main()
