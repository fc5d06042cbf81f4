#!/usr/bin/env bash
# make fuzz: builds the fuzz targets in Fuzz/ with libFuzzer and AddressSanitizer
# (swiftc -sanitize=fuzzer,address) and runs each for FUZZ_SECONDS seconds (60 by default).
#
#   FUZZ_SECONDS=600 make fuzz          longer runs
#   FUZZ_TARGETS="feed" make fuzz       one target (feed, layout, cli, image, document, probe)
#
# Each target starts from its checked-in seeds (Fuzz/corpus/<target>) and the inputs earlier runs
# found (.build/fuzz/corpus/<target>, kept between runs). An input that makes a target fail is
# written to .build/fuzz/crashes/<target>-crash-<sha1>; the run then fails. Replay one with
#   SWIFT_BACKTRACE=enable=no .build/fuzz/<target>-fuzz .build/fuzz/crashes/<target>-crash-<sha1>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"feed layout cli image document probe"}
build=.build/fuzz
mkdir -p "$build/lib" "$build/crashes"
flags=(-sanitize=fuzzer,address -O -g -enable-testing -parse-as-library -package-name falls
  -I "$build/lib" -L "$build/lib" -I "$build/cmodules")

# A module is built again when a file of its sources, or a library it imports, is newer, or when
# its list of sources changed (a file added, moved or removed).
newer() {
  local file=$1
  shift
  [ ! -f "$file" ] && return 0
  [ -n "$(find "$@" -newer "$file" \( -name '*.swift' -o -name '*.a' \) 2>/dev/null | head -1)" ]
}
module() {
  local name=$1 folder=$2
  shift 2
  local library="$build/lib/lib$name.a"
  local sources
  sources=$(find "$folder" -name '*.swift' | sort)
  if [ "$sources" = "$(cat "$library.sources" 2>/dev/null)" ]; then
    newer "$library" "$folder" "$@" || return 0
  fi
  echo "fuzz: building $name"
  # A new archive: one built over the old would keep the objects of files since removed.
  rm -f "$library"
  swiftc "${flags[@]}" -module-name "$name" -emit-module \
    -emit-module-path "$build/lib/$name.swiftmodule" -emit-library -static -o "$library" \
    $sources 2> "$build/build.log" || { cat "$build/build.log" >&2; exit 1; }  # (no blanks in the paths)
  echo "$sources" > "$library.sources"
}
# The C modules FallsFeed imports (CCurl, CFileSystem): each header as a clang module, each file
# as a library, as SwiftPM builds them.
mkdir -p "$build/cmodules"
: > "$build/cmodules/module.modulemap"
cmodules=()
for name in CCurl CFileSystem; do
  cat >> "$build/cmodules/module.modulemap" <<MAP
module $name {
  header "$PWD/Sources/$name/include/$name.h"
  export *
}
MAP
  library="$build/lib/lib$name.a"
  if [ ! -f "$library" ] || [ -n "$(find "Sources/$name" -newer "$library" 2>/dev/null | head -1)" ]; then
    echo "fuzz: building $name"
    clang -O -g -fsanitize=address -I "Sources/$name/include" \
      -c "Sources/$name/$name.c" -o "$build/$name.o"
    rm -f "$library"
    ar rcs "$library" "$build/$name.o"
  fi
  cmodules+=("$library")
done
module FallsMemory Sources/FallsMemory
module FallsCore Sources/FallsCore "$build/lib/libFallsMemory.a"
module FallsBase Sources/FallsBase "$build/lib/libFallsMemory.a"
module FallsFeed Sources/FallsFeed "$build/lib/libFallsCore.a" "$build/lib/libFallsBase.a" \
  "${cmodules[@]}"
module FallsTerminal Sources/FallsTerminal "$build/lib/libFallsBase.a"
module FallsCLI Sources/FallsCLI "$build/lib/libFallsFeed.a" "$build/lib/libFallsTerminal.a"
module FallsCheckers Tests/FallsCheckers "$build/lib/libFallsCore.a"
module FallsFixtures Tests/FallsFixtures "$build/lib/libFallsFeed.a"
module FallsTestSupport Tests/FallsTestSupport "$build/lib/libFallsFeed.a" \
  "$build/lib/libFallsCheckers.a" "$build/lib/libFallsFixtures.a"

status=0
for target in $targets; do
  case $target in
    feed) source=Fuzz/FeedTarget.swift ;;
    layout) source=Fuzz/LayoutTarget.swift ;;
    cli) source=Fuzz/CLITarget.swift ;;
    image) source=Fuzz/ImageTarget.swift ;;
    document) source=Fuzz/LayoutDocumentTarget.swift ;;
    probe) source=Fuzz/ProbeTarget.swift ;;
    *) echo "fuzz: no target '$target'; the targets are feed, layout, cli, image, document, probe" >&2
      exit 64 ;;
  esac
  binary="$build/$target-fuzz"
  if newer "$binary" "$source" Fuzz/Support "$build/lib"; then
    echo "fuzz: building $target-fuzz"
    # (The linker's warnings about the sanitizer's local symbols are noise: kept in the log.)
    swiftc "${flags[@]}" "$source" Fuzz/Support/*.swift -o "$binary" \
      -lFallsTestSupport -lFallsFixtures -lFallsCheckers -lFallsCLI -lFallsTerminal -lFallsFeed -lFallsBase \
      -lFallsCore -lFallsMemory -lCCurl -lCFileSystem -ldl \
      2> "$build/build.log" || { cat "$build/build.log" >&2; exit 1; }
  fi
  mkdir -p "$build/corpus/$target"
  echo "fuzz: $target for $seconds s"
  # The Swift runtime's own crash report reads memory in a way AddressSanitizer objects to; the
  # fuzzer's report is the one wanted. Leaks that are libcurl's or Foundation's are not ours.
  if ! SWIFT_BACKTRACE=enable=no \
    LSAN_OPTIONS="suppressions=$PWD/.ci/lsan-suppressions.txt" \
    "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=30 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$build/crashes/$target-" \
      "$build/corpus/$target" "Fuzz/corpus/$target" > "$build/$target.log" 2>&1; then
    echo "fuzz: $target FAILED; see $build/$target.log and $build/crashes/" >&2
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$build/$target.log" | head -20 >&2 || true
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$build/$target.log" \
      | sed "s/^/fuzz: $target /"
  fi
done
exit $status
