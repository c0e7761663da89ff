#!/usr/bin/env bash
# The search player's targets (engine/players/NOTES.md), outside CI: at
# THINK_MS a decision (default 100) on one core, over GAMES games each
# (default 400), the search player against three heuristic players and
# against three random ones, in classic 4 seats and in 2024 5 seats with
# Ambition. One JSON line per tournament is printed and appended to
# build/release/tournaments.jsonl; a summary line follows each.
# Usage: tests/engine/tournaments.sh [VIVAREF]   (default build/release/vivaref)
# Environment: GAMES, THINK_MS, SEED (default 1), PARALLEL (default 1: how
# many tournaments run at once, each on its own core; more than the idle
# cores would cut the iterations each decision gets, which the summary
# shows as iterations a searched decision).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VIVAREF="${1:-$ROOT/build/release/vivaref}"
GAMES="${GAMES:-400}"
THINK_MS="${THINK_MS:-100}"
SEED="${SEED:-1}"
PARALLEL="${PARALLEL:-1}"
out="$ROOT/build/release/tournaments.jsonl"
mkdir -p "$(dirname "$out")"

run() {  # NAME OPTIONS...
    local name="$1"
    shift
    echo "== $name: $GAMES games at $THINK_MS ms a decision" >&2
    local line
    line="$("$VIVAREF" bench "$@" --games "$GAMES" --think-ms "$THINK_MS" --seed "$SEED")"
    echo "$line" | tee -a "$out"
    # The search player's row: win rate, its interval, against a fair share.
    python3 -c '
import json, sys
r = json.loads(sys.argv[1]); p = r["players"][0]; s = p["search"]
print("%s: search wins %.1f %% (95 %% interval %.1f-%.1f %%; fair share %.0f %%), mean score %.1f; %.0f iterations/s, %.2f decisions/s, %.0f iterations a searched decision"
      % (sys.argv[2], 100 * p["win_rate"], 100 * p["win_rate_95"][0], 100 * p["win_rate_95"][1],
         100 * r["fair_share"], p["mean_score"], s["iterations_per_second"], s["decisions_per_second"],
         s["iterations_per_searched_decision"]))' "$line" "$name" >&2
}

# At most PARALLEL at once; the script fails if any tournament did.
running=0
failed=0
start() {
    if ((running >= PARALLEL)); then
        wait -n || failed=1
        running=$((running - 1))
    fi
    run "$@" &
    running=$((running + 1))
}
start "2024 5 seats, Ambition, vs heuristic" --edition 2024 --seats 5 --ambition \
    --players search,heuristic,heuristic,heuristic,heuristic
start "classic 4 seats vs heuristic" --players search,heuristic,heuristic,heuristic
start "2024 5 seats, Ambition, vs random" --edition 2024 --seats 5 --ambition \
    --players search,random,random,random,random
start "classic 4 seats vs random" --players search,random,random,random
while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
