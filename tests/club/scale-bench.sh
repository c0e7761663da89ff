#!/bin/sh
# The league at scale, full size (issue 16, item 6; figures in
# daemon/club/NOTES.md, "Scale"): 100 tables, 2,000 members, 200,000 games,
# measured at 20k, 50k, 100k and 200k. Builds nothing: build the bench first
# (ninja -C build/dev vivaref_club_scale_bench). Takes many minutes; it
# starts its own PostgreSQL in a scratch directory and removes it after.
# Usage: tests/club/scale-bench.sh [BUILD_DIR] [bench options...]
set -eu
build=${1:-build/dev}
[ $# -gt 0 ] && shift
bench="$build/tests/club/vivaref_club_scale_bench"
if [ ! -x "$bench" ]; then
    echo "no $bench: build it first (ninja -C $build vivaref_club_scale_bench)" >&2
    exit 1
fi
exec nice -n 19 "$bench" --checkpoints 20000,50000,100000,200000 --tables 100 --members 2000 \
    --threads 8 --pool 300 --reps 30 "$@"
