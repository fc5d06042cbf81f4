#!/usr/bin/env bash
# The suite without the tests that start other programs: every suite tagged `.process`
# (Tests/FallsTestSupport/Tags.swift) is skipped by its name, since `swift test` filters by
# names alone. For the loop of a change; `swift test` runs everything, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
suites=$(grep -rhoE '@Suite\([^)]*\.tags\(\.process\)\) (struct|final class|enum) [A-Za-z0-9_]+' Tests \
  | awk '{print $NF}' | sort -u | paste -sd '|' -)
tagged=$(grep -rhoF '.tags(.process)' Tests | wc -l)
named=$(printf '%s' "$suites" | tr '|' '\n' | grep -c .)
if [ "$named" -eq 0 ] || [ "$named" -ne "$tagged" ]; then
  echo "test-quick: $tagged suites are tagged .process, but $named could be named" >&2
  exit 1
fi
exec swift test --skip "\.($suites)/" "$@"
