#!/usr/bin/env bash
# make lint: every commit subject since the rule began is at most 72 characters (the older ones
# are history). Outside a git checkout, or in a shallow one without the start, it says so and
# passes: the rule is about the history, not the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
start=6afdc39
if ! git rev-parse --verify --quiet "$start^{commit}" >/dev/null 2>&1; then
  echo "check-subjects: no commit $start here; not checked"
  exit 0
fi
# Counted in characters, not bytes: a subject may hold × or é.
long=$(git log --format='%h%x09%s' "$start..HEAD" | python3 -c '
import sys
for line in sys.stdin.buffer.read().decode("utf-8").splitlines():
    commit, _, subject = line.partition("\t")
    if len(subject) > 72:
        print(commit, len(subject), subject)
')
if [ -n "$long" ]; then
  echo "check-subjects: commit subjects over 72 characters (put the details in the body):" >&2
  echo "$long" >&2
  exit 1
fi
