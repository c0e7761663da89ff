#!/bin/sh
# The game log commands end to end: usage: cli_test.sh VIVAREF STORE_FILL
set -eu
vivaref=$1
fill=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/games.sqlite
fail() { echo "FAIL: $*" >&2; exit 1; }

"$fill" "$db" 12
"$vivaref" games --db "$db" | grep -q "^1 " || fail "games lists game 1"
[ "$("$vivaref" games --db "$db" | wc -l)" -eq 14 ] || fail "games lists 14 games"
"$vivaref" games --db "$db" | grep -q "abandoned" || fail "games shows the abandoned game"
"$vivaref" games --db "$db" | grep -q "in progress" || fail "games shows the game in progress"
"$vivaref" games --db "$db" --json | grep -q '"status":"complete"' || fail "games --json"
VIVAREF_DB=$db "$vivaref" games | grep -q "^14 " || fail "VIVAREF_DB names the log"
for id in 1 5 12 13; do
    "$vivaref" export --db "$db" $id > "$dir/$id.jsonl"
    "$vivaref" replay "$dir/$id.jsonl" > "$dir/$id.result" || fail "export $id replays"
done
grep -q '"complete":true' "$dir/1.result" || fail "game 1 is complete"
grep -q '"complete":false' "$dir/13.result" || fail "game 13 is cut short"
"$vivaref" verify --db "$db" --all > "$dir/verify" || fail "verify --all"
grep -q "14 games verified, 0 with differences" "$dir/verify" || fail "verify --all summary"
"$vivaref" verify --db "$db" 3 --json | grep -q '"ok":true' || fail "verify 3 --json"
"$vivaref" show --db "$db" 1 | grep -q "The game is over" || fail "show 1"
"$vivaref" stats --db "$db" | grep -q "^Edition" || fail "stats"
"$vivaref" stats --db "$db" --json | grep -q '"editions"' || fail "stats --json"

status=0; "$vivaref" show --db "$db" 99 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "no game 99" "$dir/err" || fail "an unknown game is exit 2 with a message"
status=0; "$vivaref" games --db "$dir/missing.sqlite" 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "does not exist" "$dir/err" || fail "a missing log is exit 2"
[ ! -e "$dir/missing.sqlite" ] || fail "a missing log is not created"
status=0; "$vivaref" verify --db "$db" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "verify without GAME or --all is a usage error"
status=0; "$vivaref" export --db "$db" abc 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "a game id that is not a number is a usage error"

# A decision tampered with in the log is reported by verify (exit 1).
sqlite_tamper() {
    command -v sqlite3 >/dev/null || return 1
    sqlite3 "$db" "UPDATE games SET result = replace(result, '\"totals\":[', '\"totals\":[1') WHERE id = 2"
}
if sqlite_tamper; then
    status=0; "$vivaref" verify --db "$db" 2 > "$dir/verify" || status=$?
    [ $status -eq 1 ] && grep -q "DIFFERS" "$dir/verify" || fail "verify reports a tampered result"
fi
echo "cli: ok"
