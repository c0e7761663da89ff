#!/bin/sh
# The game log commands end to end: usage: cli_test.sh VIVAREF STORE_FILL
set -eu
vivaref=$1
fill=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/games.sqlite
fail() { echo "FAIL: $*" >&2; exit 1; }
# `show` tells in the locale's language: English here, whatever the caller's.
export LC_ALL=C

"$fill" "$db" 12
"$vivaref" games --db "$db" | grep -q "^1 " || fail "games lists game 1"
[ "$("$vivaref" games --db "$db" | wc -l)" -eq 14 ] || fail "games lists 14 games"
"$vivaref" games --db "$db" | grep -q "abandoned" || fail "games shows the abandoned game"
"$vivaref" games --db "$db" | grep -q "in progress" || fail "games shows the game in progress"
"$vivaref" games --db "$db" --json | grep -q '"status":"complete"' || fail "games --json"
"$vivaref" games --db "$db" | grep -q "wait to be pushed" && fail "a table without a club owes it nothing"
# A table with a club: its ended games wait to be pushed (no pusher ran).
"$fill" "$dir/club.sqlite" 2 club
"$vivaref" games --db "$dir/club.sqlite" | grep -q "^3 games wait to be pushed to the club\.$" || fail "games says what waits for the club"
[ "$("$vivaref" games --db "$dir/club.sqlite" | grep -c "waits for the club")" -eq 3 ] || fail "games marks each waiting game"
"$vivaref" games --db "$dir/club.sqlite" --json | grep -q '"club":{"state":"waiting","attempts":0' || fail "games --json gives the club's state"
VIVAREF_DB=$db "$vivaref" games | grep -q "^14 " || fail "VIVAREF_DB names the log"
for id in 1 5 12 13; do
    # Game 13 is still being played: its record holds the hands (--reveal).
    reveal=; [ $id -eq 13 ] && reveal=--reveal
    "$vivaref" export --db "$db" $reveal $id > "$dir/$id.jsonl" 2> "$dir/export.err"
    "$vivaref" replay "$dir/$id.jsonl" > "$dir/$id.result" || fail "export $id replays"
done
grep -q "warning: game 13 is still being played" "$dir/export.err" || fail "export --reveal warns"
status=0; "$vivaref" export --db "$db" 13 > "$dir/13.none" 2> /dev/null || status=$?
[ $status -eq 1 ] && [ ! -s "$dir/13.none" ] || fail "export of a game in progress needs --reveal"
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

# --config: the game log of a castle configuration ([daemon] state_dir and
# database, as serve reads them); --db wins over it; without either, the
# default serve uses ($VIVAREF_DB, else games.sqlite in the state directory).
printf '[castle]\nedition = classic\n\n[daemon]\nhardware = sim\nstate_dir = %s\n' "$dir" > "$dir/castle.ini"
printf '[daemon]\nstate_dir = %s/elsewhere\ndatabase = %s\n' "$dir" "$db" > "$dir/absolute.ini"
printf '[daemon]\nstate_dir = %s/elsewhere\n' "$dir" > "$dir/empty.ini"
for ini in castle absolute; do
    "$vivaref" games --config "$dir/$ini.ini" | grep -q "^14 " || fail "games --config $ini.ini"
    "$vivaref" show --config "$dir/$ini.ini" 1 | grep -q "The game is over" || fail "show --config $ini.ini"
done
"$vivaref" export --config "$dir/castle.ini" 1 | cmp -s - "$dir/1.jsonl" || fail "export --config"
"$vivaref" verify --config "$dir/castle.ini" --all | grep -q "14 games verified" || fail "verify --config"
"$vivaref" stats --config "$dir/castle.ini" | grep -q "^Edition" || fail "stats --config"
"$vivaref" trace export --config "$dir/castle.ini" 1 > /dev/null || fail "trace export --config"
"$vivaref" games --config "$dir/empty.ini" --db "$db" | grep -q "^14 " || fail "--db wins over --config"
status=0; "$vivaref" games --config "$dir/empty.ini" 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "elsewhere/games.sqlite" "$dir/err" || fail "--config names where the log is missing"
[ ! -e "$dir/elsewhere" ] || fail "a missing log is not created through --config"
VIVAREF_DB=$dir/missing.sqlite "$vivaref" games --config "$dir/castle.ini" | grep -q "^14 " \
    || fail "the configuration wins over VIVAREF_DB, as in serve"
env -u VIVAREF_DB STATE_DIRECTORY="$dir" "$vivaref" games | grep -q "^14 " \
    || fail "without --db or --config: the state directory's games.sqlite"
env -u VIVAREF_DB STATE_DIRECTORY="$dir" "$vivaref" games --help | grep -q "$dir/games.sqlite" \
    || fail "--help names the default log"
# A configuration with problems, or none: check-config's FILE:LINE: KEY: reason, exit 2.
printf '[castle]\nedition = chess\n[daemon]\ncolour = blue\n' > "$dir/bad.ini"
for cmd in "games" "show 1" "export 1" "verify --all" "stats" "trace export 1"; do
    status=0; "$vivaref" $cmd --config "$dir/bad.ini" > "$dir/out" 2> "$dir/err" || status=$?
    [ $status -eq 2 ] || fail "$cmd --config bad.ini: exit $status, not 2"
    grep -q "^$dir/bad.ini:2: castle.edition: " "$dir/err" && grep -q "^$dir/bad.ini:4: daemon.colour: " "$dir/err" \
        || fail "$cmd --config bad.ini names each problem: $(cat "$dir/err")"
    [ ! -s "$dir/out" ] || fail "$cmd --config bad.ini prints nothing on stdout"
    status=0; "$vivaref" $cmd --config "$dir/none.ini" 2> "$dir/err" || status=$?
    [ $status -eq 2 ] && grep -q "none.ini" "$dir/err" || fail "$cmd --config none.ini: exit 2 naming the file"
    "$vivaref" $cmd --help | grep -q -- "--config" || fail "$cmd --help explains --config"
done
status=0; "$vivaref" games --config "$dir" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "a directory as --config is exit 2"

# A page overwritten by noise (page 3 of a copy, past the file's header):
# verify says which file, what SQLite says and what to do, exit 1; serve
# refuses to start on it (exit 2, one line), before opening anything else.
damaged=$dir/damaged.sqlite
cp "$db" "$damaged"
head -c 4096 /dev/zero | tr '\000' '\245' | dd of="$damaged" bs=4096 seek=2 conv=notrunc 2> /dev/null
status=0; "$vivaref" verify --db "$damaged" --all > "$dir/out" 2> "$dir/err" || status=$?
[ $status -eq 1 ] || fail "verify of a damaged log: exit $status, not 1"
grep -q "the game log $damaged is damaged (SQLite's check says: " "$dir/err" \
    && grep -q "sqlite3 '$damaged' .recover" "$dir/err" \
    || fail "verify names the damaged file and what to do: $(cat "$dir/err")"
grep -q "with differences" "$dir/out" && fail "verify replays no game of a damaged log"
status=0; "$vivaref" verify --db "$damaged" --all --json > "$dir/out" 2> /dev/null || status=$?
[ $status -eq 1 ] && grep -q '"ok":false,"damage":\[' "$dir/out" || fail "verify --json of a damaged log"
"$vivaref" verify --db "$db" --all > /dev/null || fail "the undamaged original still verifies"
status=0
STATE_DIRECTORY=$dir timeout 20 "$vivaref" serve --hardware=sim --listen 127.0.0.1:0 --db "$damaged" \
    > "$dir/out" 2> "$dir/err" || status=$?
[ $status -eq 2 ] || fail "serve on a damaged log: exit $status, not 2"
[ "$(wc -l < "$dir/err")" -eq 1 ] && grep -q "^vivaref serve: not started: the game log $damaged is damaged" "$dir/err" \
    || fail "serve says once why it does not start: $(cat "$dir/err")"

# A decision tampered with in the log is reported by verify (exit 1).
sqlite_tamper() {
    command -v sqlite3 >/dev/null || return 1
    sqlite3 "$db" "UPDATE games SET result = replace(result, '\"totals\":[', '\"totals\":[1') WHERE id = 2"
}
if sqlite_tamper; then
    status=0; "$vivaref" verify --db "$db" 2 > "$dir/verify" || status=$?
    [ $status -eq 1 ] && grep -q "DIFFERS" "$dir/verify" || fail "verify reports a tampered result"
fi

# The analysis of a game is kept in the log: the second run prints the kept
# one as it is; other settings or --redo make it again; a damaged one is
# refused with what to do; a game in progress is never analysed.
small="--rollouts 6 --iterations 15"
"$vivaref" analyse --db "$db" 1 $small --json > "$dir/a1" || fail "analyse 1"
"$vivaref" analyse --db "$db" 1 --json > "$dir/a1.kept" || fail "analyse 1 again"
cmp -s "$dir/a1" "$dir/a1.kept" || fail "analyse 1 again prints the kept analysis (made with --rollouts 6)"
"$vivaref" analyse --db "$db" 1 | grep -q "6 games played out for each estimate" || fail "the kept analysis as text"
"$vivaref" analyse --db "$db" 1 --rollouts 7 --iterations 15 --json | grep -q '"rollouts":7' || fail "other settings make it again"
"$vivaref" analyse --db "$db" 1 --json | grep -q '"rollouts":7' || fail "... and replace the kept one"
status=0; "$vivaref" analyse --db "$db" 13 $small > /dev/null 2> "$dir/err" || status=$?
[ $status -eq 1 ] && grep -q "still being played" "$dir/err" || fail "analyse refuses a game in progress"
if command -v sqlite3 >/dev/null; then
    [ "$(sqlite3 "$db" "SELECT COUNT(*) FROM analyses WHERE game_id = 13")" -eq 0 ] || fail "no analysis of game 13 is kept"
    sqlite3 "$db" "UPDATE analyses SET result = substr(result, 1, 200) WHERE game_id = 1"
    status=0; "$vivaref" analyse --db "$db" 1 > "$dir/out" 2> "$dir/err" || status=$?
    [ $status -eq 1 ] && [ ! -s "$dir/out" ] && grep -q "the analysis kept in the game log cannot be read (it is not JSON); 'vivaref analyse 1 --redo' makes it again" "$dir/err" \
        || fail "a damaged kept analysis is refused with what to do: $status $(cat "$dir/err")"
    sqlite3 "$db" "UPDATE analyses SET result = '{\"format\":1,\"players\":[\"A\"],\"seats\":[0],\"settings\":{},\"before\":{\"win_chance\":[2],\"expected_score\":[0]}}' WHERE game_id = 1"
    status=0; "$vivaref" analyse --db "$db" 1 > "$dir/out" 2> "$dir/err" || status=$?
    [ $status -eq 1 ] && grep -q "a chance from 0 to 1" "$dir/err" || fail "a kept analysis out of range is refused: $(cat "$dir/err")"
    "$vivaref" analyse --db "$db" 1 $small --redo --json | cmp -s - "$dir/a1" || fail "--redo makes it again, the same as before"
fi

echo "cli: ok"
