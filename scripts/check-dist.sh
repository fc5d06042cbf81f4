#!/usr/bin/env bash
# Checks dist/falls (make dist): it links no Swift library dynamically, and it runs, laying out
# a feed and fetching one from a local server, with the toolchain's folder hidden under an empty
# tmpfs (unshare -m, as root: CI), as on a machine that never had the toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=dist/falls
[ -x "$binary" ] || { echo "check-dist: no $binary; run make dist" >&2; exit 1; }
if ldd "$binary" | grep -Ei 'swift|Foundation|dispatch|BlocksRuntime'; then
  echo "check-dist: $binary links a Swift library dynamically (above)" >&2
  exit 1
fi
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
# The local server of the tests serves a feed; its port is its first line.
exec 3< <(sleep 120 | python3 Tests/Server/feed_server.py Tests/Fixtures)
read -r _ port <&3
unshare -m bash -c "
  set -euo pipefail
  mount -t tmpfs none '$toolchain'
  [ -z \"\$(ls -A '$toolchain')\" ]
  '$binary' --version
  '$binary' layout -f jsonl | wc -l | grep -qx 50
  '$binary' layout 'http://127.0.0.1:$port/feed/mj-shop-1.json' -f jsonl | wc -l | grep -qx 50
"
echo "check-dist: $binary runs with $toolchain hidden, and links no Swift library ($(du -h "$binary" | cut -f1))"
