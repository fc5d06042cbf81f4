# falls: the everyday commands. Each is a thin wrapper over the Swift toolchain.
PREFIX ?= /usr/local
SWIFT ?= swift
ARGS ?=

.PHONY: build release test test-quick run lint format dist dist-check install embed bench fuzz sanitize screenshot docs pictures quality api-docs clean

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) test

# The suite without the tests that start other programs (tagged .process), while developing.
test-quick:
	scripts/test-quick.sh

# make run ARGS="--columns 4 --format json"
run:
	$(SWIFT) run falls layout $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Fuzz
	scripts/check-subjects.sh

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Benchmarks Fuzz

# dist/falls: a release binary with the Swift runtime and Foundation linked in
# (--static-swift-stdlib), stripped, which runs on a machine without the toolchain; it needs only
# the system's libcurl (libcurl4; building it needs libcurl4-openssl-dev). Built in a folder of
# its own, so that it does not replace the release build the benchmark runs.
dist:
	$(SWIFT) build -c release --product falls --static-swift-stdlib --scratch-path .build/dist
	mkdir -p dist
	cp "$$($(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/dist --show-bin-path)/falls" dist/falls
	strip dist/falls

# Checks dist/falls: no Swift library linked dynamically, and it runs with the toolchain hidden
# (as root: it mounts a tmpfs over the toolchain in a namespace of its own).
dist-check: dist
	scripts/check-dist.sh

# dist/falls, and the manual page falls.1 that it writes from its flag table.
install: dist
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 dist/falls $(DESTDIR)$(PREFIX)/bin/falls
	dist/falls manual > $(DESTDIR)$(PREFIX)/share/man/man1/falls.1
	chmod 644 $(DESTDIR)$(PREFIX)/share/man/man1/falls.1

# Builds in release and runs the benchmark (BENCHMARKS.md); BENCH_ARGS="--json" for JSON.
BENCH_ARGS ?=
bench:
	$(SWIFT) build -c release --product falls
	$(SWIFT) run -c release falls-bench $(BENCH_ARGS)

# Builds the fuzz targets in Fuzz/ with libFuzzer and AddressSanitizer and runs each for
# FUZZ_SECONDS (default 60); FUZZ_TARGETS="feed layout cli image document probe" picks them (CONTRIBUTING,
# "Fuzzing").
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= feed layout cli image document probe
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)" scripts/fuzz.sh

# The test suite under AddressSanitizer, then the concurrent parts under ThreadSanitizer, as
# .ci/run runs them.
sanitize:
	scripts/sanitize.sh

# Renders the layout of the built-in feed (or SCREENSHOT_ARGS) as SVG and HTML, then each to a
# PNG with headless Chromium (apt-get install chromium), into screenshots/, for people to look at.
SCREENSHOT_ARGS ?= --columns 3
CHROMIUM ?= chromium
screenshot:
	$(SWIFT) build --product falls
	mkdir -p screenshots
	"$$($(SWIFT) build --show-bin-path)/falls" layout $(SCREENSHOT_ARGS) --format svg --output screenshots/layout.svg
	"$$($(SWIFT) build --show-bin-path)/falls" layout $(SCREENSHOT_ARGS) --format html --output screenshots/layout.html
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=375,900 \
	  --screenshot="$$PWD/screenshots/layout-svg.png" "file://$$PWD/screenshots/layout.svg"
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=420,900 \
	  --screenshot="$$PWD/screenshots/layout-html.png" "file://$$PWD/screenshots/layout.html"

# The picture in docs/layout-rules.md: the same feed and seed with --align seed, spread and planned side
# by side (docs/alignments.svg), and a PNG of it when Chromium is there to render it.
DOCS_FEED ?= Tests/Fixtures/mj-shop-1.json
DOCS_SEED ?= 2
DOCS_COUNT ?= 24
docs:
	$(SWIFT) build --product falls
	mkdir -p docs
	python3 scripts/side-by-side.py "$$($(SWIFT) build --show-bin-path)/falls" $(DOCS_FEED) \
	  $(DOCS_SEED) $(DOCS_COUNT) docs/alignments.svg
	if command -v $(CHROMIUM) >/dev/null; then \
	  $(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1221,$$(python3 -c "import re;print(int(float(re.search(r'height=.([0-9.]+)',open('docs/alignments.svg').read()).group(1)))+1)") \
	    --screenshot="$$PWD/docs/alignments.png" "file://$$PWD/docs/alignments.svg"; \
	fi
	$(MAKE) pictures

# The pictures of docs/output.md: a page of the loaded-images fixture (its markings over its images), and
# the ring styles in SVG and HTML at their viewports, each rendered by headless Chromium into
# docs/ (needs chromium).
PICTURES_FEED ?= Tests/Fixtures/loaded-images.json
pictures:
	$(SWIFT) build --product falls
	mkdir -p .build/pictures docs
	falls="$$($(SWIFT) build --show-bin-path)/falls"; \
	"$$falls" layout $(PICTURES_FEED) -f html -o .build/pictures/loaded.html; \
	"$$falls" layout $(PICTURES_FEED) --style cube --offset 120 -f svg -o .build/pictures/cube.svg; \
	"$$falls" layout $(PICTURES_FEED) --style sphere --offset 0,300 -f html -o .build/pictures/sphere.html; \
	"$$falls" layout $(PICTURES_FEED) --style circle -f svg -o .build/pictures/circle.svg
	for picture in loaded.html:420,900 cube.svg:375,695 sphere.html:420,800 circle.svg:375,695; do \
	  name=$${picture%%:*}; size=$${picture##*:}; \
	  $(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=$$size \
	    --virtual-time-budget=2000 --screenshot="$$PWD/docs/$${name%%.*}-$${name##*.}.png" \
	    "file://$$PWD/.build/pictures/$$name" 2>/dev/null; \
	done

# The quality table of docs/layout-rules.md: --align seed and spread, with and without
# --flat-end, on the real feeds and 500 random sizes, seeds 1-5.
quality:
	$(SWIFT) build --product falls
	python3 scripts/quality-table.py "$$($(SWIFT) build --show-bin-path)/falls"

# The API documentation of FallsCore for the apps that embed it: the compiler's symbol graph of
# the module and the catalog Sources/FallsCore/FallsCore.docc, built by the toolchain's own docc
# into .build/docs/FallsCore.doccarchive. Any DocC warning (a broken symbol link, say) fails it.
# (The graphs are kept: the compiler writes them only when it compiles the module again.)
API_DOCS_BUILD ?= .build/api-docs
api-docs:
	rm -rf .build/docs/FallsCore.doccarchive
	mkdir -p $(API_DOCS_BUILD)/symbol-graphs .build/docs
	$(SWIFT) build --target FallsCore --scratch-path $(API_DOCS_BUILD) \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
	  -Xswiftc $(API_DOCS_BUILD)/symbol-graphs
	docc convert Sources/FallsCore/FallsCore.docc \
	  --additional-symbol-graph-dir $(API_DOCS_BUILD)/symbol-graphs \
	  --fallback-display-name FallsCore --fallback-bundle-identifier org.falls.FallsCore \
	  --output-path .build/docs/FallsCore.doccarchive --warnings-as-errors

# Regenerates Sources/FallsFeed/Decoding/EmbeddedFeed.swift from its fixture.
embed:
	python3 scripts/embed-feed.py

clean:
	rm -rf .build
