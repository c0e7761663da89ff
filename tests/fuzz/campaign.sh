#!/usr/bin/env bash
# A fuzz campaign outside CI (tests/fuzz/NOTES.md): each libFuzzer target run
# for up to RUNS executions (default 10 million) or SECONDS (default: no
# time limit), one target at a time, niced; then the inputs that found
# something new merged into tests/fuzz/corpus/NAME (-merge=1 keeps only those
# that add coverage, so the corpus stays small) for you to commit. A crash
# stops that target: its input is in build/fuzz/campaign/NAME/crash-*, and
# the script exits 1 at the end. One summary line per target is printed and
# appended to build/fuzz/campaign/summary.txt.
#
# Usage: tests/fuzz/campaign.sh [NAME...]     (default: record trace config router tags)
# Environment: RUNS, SECONDS_EACH, JOBS (libFuzzer -jobs/-workers: 1 by
# default, the machine is shared), SEED (default 0: libFuzzer draws one),
# MAX_FILE_BYTES (default 4096: larger finds stay out of the tree),
# BUILD (default build/fuzz, configured as `.ci/dev test` does), NO_BUILD=1
# (the fuzzers are built already: no ninja), MAX_LEN (default 4096: the
# longest input libFuzzer makes), ENTROPIC (default 0: clang 14's libFuzzer
# spends 60 % of a config run in its entropic scheduler's bookkeeping, so it
# is off unless ENTROPIC=1; NOTES.md, "Campaign").
# Two campaigns may run side by side on different targets (one per core):
# each target has its own folder and the summary lines are appended.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-10000000}"
SECONDS_EACH="${SECONDS_EACH:-0}"
JOBS="${JOBS:-1}"
SEED="${SEED:-0}"
BUILD="${BUILD:-build/fuzz}"
[[ "$BUILD" == /* ]] || BUILD="$ROOT/$BUILD"  # absolute: the fuzzers run in their own folders
MAX_FILE_BYTES="${MAX_FILE_BYTES:-4096}"
MAX_LEN="${MAX_LEN:-4096}"
ENTROPIC="${ENTROPIC:-0}"
targets=("$@")
((${#targets[@]})) || targets=(record trace config router tags)

if [[ ! -f "$BUILD/build.ninja" ]]; then
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DCMAKE_CXX_COMPILER=clang++ -DVIVAREF_FUZZ=ON -DVIVAREF_TESTS=ON -DVIVAREF_SANITIZE=OFF
fi
build_targets=()
for name in "${targets[@]}"; do build_targets+=("${name}_fuzzer"); done
[[ "${NO_BUILD:-}" == 1 ]] || nice ninja -C "$BUILD" -j 2 "${build_targets[@]}"

out="$BUILD/campaign"
mkdir -p "$out"
failed=0
for name in "${targets[@]}"; do
    fuzzer="$BUILD/tests/fuzz/${name}_fuzzer"
    tree="$ROOT/tests/fuzz/corpus/$name"
    work="$out/$name"
    mkdir -p "$tree" "$work/corpus"
    # Read-only seeds besides the corpus kept in the tree.
    seeds=("$tree")
    [[ "$name" == record ]] && seeds+=("$ROOT/tests/records")
    [[ "$name" == config ]] && seeds+=("$ROOT/daemon/config/examples")
    dict=()
    [[ -f "$ROOT/tests/fuzz/$name.dict" ]] && dict=(-dict="$ROOT/tests/fuzz/$name.dict")
    log="$work/fuzz.log"
    echo "== $name: up to $RUNS runs${SECONDS_EACH:+ or ${SECONDS_EACH}s} (log: $log)"
    status=0
    limits=(-runs="$RUNS" -max_len="$MAX_LEN" -entropic="$ENTROPIC")
    ((SECONDS_EACH > 0)) && limits+=(-max_total_time="$SECONDS_EACH")
    ((JOBS > 1)) && limits+=(-jobs="$JOBS" -workers="$JOBS")
    t0=$SECONDS
    # In the target's own folder: with -jobs the workers write fuzz-N.log to
    # the current folder, and a campaign beside this one must not take them.
    (cd "$work" && nice "$fuzzer" "${limits[@]}" -timeout=10 -rss_limit_mb=4096 "${dict[@]}" \
        -seed="$SEED" -print_final_stats=1 -artifact_prefix="$work/" \
        "$work/corpus" "${seeds[@]}") >"$log" 2>&1 || status=$?
    elapsed=$((SECONDS - t0))
    # With -jobs the workers log to fuzz-N.log in the current folder, and the
    # main process copies each one into its own output once that job ends
    # ("Job N exited"): a job's file is added only when its copy is missing
    # (an interrupted run), so no job's executions are counted twice.
    for job in "$work"/fuzz-*.log; do
        [[ -f "$job" ]] || continue
        n="${job##*/fuzz-}"
        n="${n%.log}"
        grep -q "^================== Job $n exited" "$log" || cat "$job" >>"$log"
        rm -f "$job"
    done
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')"
    cov="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)"
    crashes="$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'oom-*' | wc -l)"
    ((status == 0)) || failed=1
    # The merge: into a copy of every seed (so that what the bundled records
    # or example configurations already cover is not added), then only the
    # files it added, of at most MAX_FILE_BYTES each, are copied into the tree
    # (the larger ones stay in build/fuzz/campaign/NAME/corpus).
    before="$(find "$tree" -type f | wc -l)"
    merged="$work/merged"
    rm -rf "$merged"
    mkdir -p "$merged"
    for dir in "${seeds[@]}"; do find "$dir" -maxdepth 1 -type f -exec cp -t "$merged" {} +; done
    find "$merged" -type f -printf '%f\n' | sort >"$work/seeds.txt"
    nice "$fuzzer" -merge=1 "${dict[@]}" "$merged" "$work/corpus" >>"$log" 2>&1 || true
    find "$merged" -type f -printf '%f\n' | sort | comm -13 "$work/seeds.txt" - |
        while read -r file; do
            if (($(stat -c %s "$merged/$file") <= MAX_FILE_BYTES)); then cp "$merged/$file" "$tree/"; fi
        done
    after="$(find "$tree" -type f | wc -l)"
    rate=$((elapsed > 0 ? execs / elapsed : 0))
    line="$(date -u +%FT%TZ) $name: $execs executions in ${elapsed}s ($rate/s), ${cov:-cov ?}, corpus $before -> $after files ($(du -sk --apparent-size "$tree" | cut -f1) KiB), $crashes crash/timeout/leak inputs, exit $status"
    echo "$line"
    echo "$line" >>"$out/summary.txt"
done
exit "$failed"
