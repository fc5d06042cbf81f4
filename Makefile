# falls: the everyday commands. Each is a thin wrapper over the Swift toolchain.
PREFIX ?= /usr/local
SWIFT ?= swift
ARGS ?=

.PHONY: build release test run lint format install embed tables bench clean

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) test

# make run ARGS="--columns 4 --format json"
run:
	$(SWIFT) run falls layout $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Benchmarks

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/falls" $(DESTDIR)$(PREFIX)/bin/falls

# Builds in release and runs the benchmark (BENCHMARKS.md); BENCH_ARGS="--json" for JSON.
BENCH_ARGS ?=
bench:
	$(SWIFT) build -c release --product falls
	$(SWIFT) run -c release falls-bench $(BENCH_ARGS)

# Regenerates Sources/FallsFeed/EmbeddedFeed.swift from its fixture.
embed:
	python3 scripts/embed-feed.py

# Regenerates Sources/FallsCLI/PowersOfTen.swift, the table the number printer uses.
tables:
	python3 scripts/powers-of-ten.py

clean:
	rm -rf .build
