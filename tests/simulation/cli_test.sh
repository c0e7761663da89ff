#!/bin/sh
# `vivaref simulate` and `vivaref trace` end to end, and their answers to bad
# input. Usage: cli_test.sh VIVAREF RECORDS_DIR
set -eu
vivaref=$1
records=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A bundled record played on the simulated castle comes back from the log.
for name in classic-4 2024-4-emissary-banished; do
    "$vivaref" trace from-record "$records/$name.jsonl" > "$dir/$name.trace" || fail "from-record $name"
    "$vivaref" simulate "$dir/$name.trace" --db "$dir/$name.sqlite" --epoch 0 > "$dir/$name.summary" \
        || fail "simulate $name"
    grep -q '"games_finished":1' "$dir/$name.summary" || fail "$name: the game finishes"
    grep -q '"refusals":{}' "$dir/$name.summary" || fail "$name: nothing refused"
    "$vivaref" export --db "$dir/$name.sqlite" 1 > "$dir/$name.export"
    cmp -s "$records/$name.jsonl" "$dir/$name.export" || fail "$name: the export is the record"
    "$vivaref" replay "$dir/$name.export" | cmp -s - "$records/$name.expected.json" \
        || fail "$name: the export replays to the expected result"
    "$vivaref" trace export --db "$dir/$name.sqlite" 1 > "$dir/$name.stored"
    cmp -s "$dir/$name.trace" "$dir/$name.stored" || fail "$name: the stored trace is the one run"
    "$vivaref" simulate - --db "$dir/$name-again.sqlite" --epoch 0 < "$dir/$name.stored" > /dev/null \
        || fail "simulate from stdin"
    "$vivaref" trace export --db "$dir/$name-again.sqlite" 1 | cmp -s - "$dir/$name.stored" \
        || fail "$name: trace export -> simulate -> the same trace"
done
# --board=round-robin (the old timing) keeps the same round trip; a castle's
# trace ("once" lines) gives its own scans, whatever --board says.
name=classic-4
"$vivaref" simulate "$dir/$name.trace" --board=round-robin --db "$dir/$name-rr.sqlite" --epoch 0 \
    > "$dir/$name-rr.summary" || fail "simulate --board=round-robin"
grep -q '"games_finished":1' "$dir/$name-rr.summary" || fail "$name: the game finishes on round robin"
"$vivaref" trace export --db "$dir/$name-rr.sqlite" 1 | cmp -s - "$dir/$name.trace" \
    || fail "$name: round robin stores the trace run"
# A real castle's configuration before any tag is enrolled: the record's
# trace is scanned as that castle would scan it, every character by its
# simulated tag (said on stderr), and the game ends as the record did.
example="$records/../../daemon/config/examples/castle-2024.ini"
"$vivaref" trace from-record "$records/2024-4-emissary-banished.jsonl" > "$dir/example.trace"
"$vivaref" simulate "$dir/example.trace" --config "$example" --epoch 0 > "$dir/example.summary" \
    2> "$dir/example.err" || fail "simulate --config the example castle"
grep -q '"games_finished":1' "$dir/example.summary" || fail "the example castle: the game finishes"
grep -q '"refusals":{}' "$dir/example.summary" || fail "the example castle: nothing refused"
grep -q "known by its simulated tag" "$dir/example.err" || fail "the example castle: says the tags are simulated"
printf '%s\n' '{"t":0,"host":{"new-game":{"setup":{"edition":"classic","seats":3,"first":0}}}}' \
    '{"t":1000,"button":{"station":0,"key":"yes"}}' \
    '{"t":2000,"scan":{"reader":"floor3","tags":[],"once":true}}' \
    '{"t":2010,"scan":{"reader":"floor3","tags":[],"once":true}}' \
    '{"t":2060,"scan":{"reader":"floor3","tags":[],"once":true}}' \
    '{"t":2070,"scan":{"reader":"floor3","tags":[],"once":true}}' > "$dir/once.trace"
"$vivaref" simulate "$dir/once.trace" --epoch 0 > "$dir/once-castle.summary" || fail "simulate a castle's trace"
"$vivaref" simulate "$dir/once.trace" --epoch 0 --board=round-robin > "$dir/once-rr.summary" \
    || fail "simulate a castle's trace on round robin"
# The new game, the key and three once lines; the fourth only repeats them (ScanRuns).
grep -q '"trace_lines":5' "$dir/once-castle.summary" || fail "the once lines taken: $(cat "$dir/once-castle.summary")"
cmp -s "$dir/once-castle.summary" "$dir/once-rr.summary" || fail "a castle's trace: --board changes nothing"
status=0; "$vivaref" simulate "$dir/once.trace" --board=spiral 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "castle or round-robin" "$dir/err" || fail "an unknown --board is exit 2"

"$vivaref" trace export --db "$dir/classic-4.sqlite" --json 1 | grep -q '^\[{"t":0,"host":{"new-game"' \
    || fail "trace export --json is one array"

# A malformed trace: exit 1, the line and what is wrong, nothing written.
printf '%s\n' '{"t": 0, "host": {"pause": {}}}' '' '{"t": 5, "lift": {"tag": "odessa", "x": 1}}' > "$dir/bad.trace"
status=0; "$vivaref" simulate "$dir/bad.trace" --db "$dir/bad.sqlite" 2> "$dir/err" || status=$?
[ $status -eq 1 ] || fail "a malformed trace is exit 1 (got $status)"
grep -q 'line 3: .*unknown key "x"' "$dir/err" || fail "the message names line 3 and the key: $(cat "$dir/err")"
[ ! -e "$dir/bad.sqlite" ] || fail "a malformed trace writes no database"
printf '%s\n' '{"t": 9, "lift": {"tag": "odessa"}}' '{"t": 4, "lift": {"tag": "odessa"}}' > "$dir/back.trace"
status=0; "$vivaref" simulate "$dir/back.trace" 2> "$dir/err" || status=$?
[ $status -eq 1 ] && grep -q "line 2: .*goes back" "$dir/err" || fail "t going back is exit 1 at line 2"
printf '%s\n' '{"t": 0, "scan": {"reader": "floor9", "tags": []}}' > "$dir/reader.trace"
status=0; "$vivaref" simulate "$dir/reader.trace" 2> "$dir/err" || status=$?
[ $status -eq 1 ] && grep -q 'line 1: .*no reader "floor9"' "$dir/err" || fail "an unknown reader is exit 1"
printf '%s\n' '{"t": 0, "put": {"tag": "odessa", "place": "7"}}' > "$dir/place.trace"
status=0; "$vivaref" simulate "$dir/place.trace" 2> "$dir/err" || status=$?
[ $status -eq 1 ] && grep -q 'line 1: .*no place "7"' "$dir/err" || fail "an unknown place is exit 1"
printf '{"t": 0, "put": {"tag": "04a1b2c3", "place": "3"}}\n' > "$dir/uid.trace"
status=0; "$vivaref" simulate "$dir/uid.trace" 2> "$dir/err" || status=$?
[ $status -eq 1 ] && grep -q 'line 1:' "$dir/err" || fail "a lowercase UID is exit 1"

# A trace that is well formed but makes no sense for the game still runs: exit 0.
printf '%s\n' '{"t": 0, "button": {"station": 3, "key": "yes"}}' '{"t": 10, "host": {"undo": {}}}' \
    '{"t": 20, "put": {"tag": "nobody", "place": "3"}}' > "$dir/odd.trace"
"$vivaref" simulate "$dir/odd.trace" > "$dir/odd.summary" || fail "an odd but well-formed trace is exit 0"
grep -q '"host_refusals":{"no-game":1}' "$dir/odd.summary" || fail "an undo without a game is refused"

# Files that cannot be read: exit 2.
status=0; "$vivaref" simulate "$dir/missing.trace" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "a missing trace is exit 2"
status=0; "$vivaref" simulate "$dir" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "a directory is exit 2"
status=0; "$vivaref" trace from-record "$dir/missing.jsonl" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "a missing record is exit 2"
status=0; "$vivaref" trace export --db "$dir/classic-4.sqlite" 99 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "no game 99" "$dir/err" || fail "trace export of an unknown game is exit 2"
status=0; "$vivaref" trace export --db "$dir/none.sqlite" 1 2> /dev/null || status=$?
[ $status -eq 2 ] && [ ! -e "$dir/none.sqlite" ] || fail "trace export of a missing log is exit 2"

# An illegal record cannot become a script: exit 1 with GAME-RECORD's code.
status=0; "$vivaref" trace from-record "$records/illegal-floor-full.jsonl" 2> "$dir/err" > /dev/null || status=$?
[ $status -eq 1 ] && grep -q "floor-full" "$dir/err" || fail "an illegal record is exit 1 with its code"

# Help and usage.
"$vivaref" simulate --help | grep -q "virtual time" || fail "simulate --help"
"$vivaref" trace --help | grep -q "from-record" || fail "trace --help"
"$vivaref" trace export --help | grep -q "GAME" || fail "trace export --help"
status=0; "$vivaref" trace shuffle 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "an unknown trace subcommand is exit 2"
status=0; "$vivaref" simulate 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "simulate without a trace is exit 2"
echo "simulation cli: ok"
