#!/usr/bin/env bash
# make sanitize (and .ci/run): the whole test suite under AddressSanitizer, with LeakSanitizer,
# then the concurrent parts under ThreadSanitizer: the shared-value lock, the parallel JSON
# writer, the feed parser that reads in two halves, mapped files, the fetcher and libcurl, the
# image prober's parallel requests, falls diff's two readers. Fails on a failed test or on any
# sanitizer report, in the test process or in a falls it starts (each report is written to
# .build/sanitizers/<sanitizer>.<pid> and shown at the end).
#
#   SANITIZERS=address make sanitize     one of them
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=${SANITIZERS:-"address thread"}
reports="$PWD/.build/sanitizers"
mkdir -p "$reports"
# Tests that measure a process's memory skip themselves under a sanitizer.
export FALLS_SANITIZER=1
# The Swift runtime's crash report reads memory in a way the sanitizers object to.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/.ci/lsan-suppressions.txt"

status=0
for sanitizer in $sanitizers; do
  rm -f "$reports/$sanitizer".*
  case $sanitizer in
    address)
      filter=()
      export ASAN_OPTIONS="log_path=$reports/address:detect_leaks=1"
      ;;
    thread)
      filter=(--filter "LockedTests|ImageProberTests|ParallelWritingTests|FeedParserTests|FeedReaderTests|FeedFetcherTests|CurlTransportTests|PagedLayoutTests|ViewCommandTests|DiffCommandTests")
      export TSAN_OPTIONS="log_path=$reports/thread:halt_on_error=1:suppressions=$PWD/.ci/tsan-suppressions.txt"
      ;;
    *) echo "sanitize: no sanitizer '$sanitizer'; they are address, thread" >&2; exit 64 ;;
  esac
  echo "== swift test --sanitize=$sanitizer"
  start=$SECONDS
  if ! swift test --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" "${filter[@]}" \
    > "$reports/$sanitizer-test.log" 2>&1; then
    echo "sanitize: the tests failed under $sanitizer" >&2
    grep -E "✘|error:" "$reports/$sanitizer-test.log" | head -40 >&2 || true
    status=1
  fi
  grep -E "Test run with|Executed [0-9]+ tests" "$reports/$sanitizer-test.log" || true
  # A report file that lists only the suppressions used is no report.
  found=$(grep -l -E "ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer" \
    "$reports/$sanitizer".* 2> /dev/null || true)
  if [ -n "$found" ]; then
    echo "sanitize: $sanitizer reported:" >&2
    # shellcheck disable=SC2086
    cat $found | head -200 >&2
    status=1
  fi
  echo "sanitize: $sanitizer took $((SECONDS - start)) s"
done
exit $status
