#!/bin/sh
# `vivaref check-config` and `vivaref enrol` end to end.
# Usage: cli_test.sh VIVAREF EXAMPLES_DIR
set -eu
vivaref=$1
examples=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for example in "$examples"/*.ini; do
    "$vivaref" check-config "$example" > "$dir/out" || fail "the shipped example $example is valid"
    grep -q ": valid\. A " "$dir/out" || fail "a valid file prints a summary"
done
"$vivaref" check-config --json "$examples/castle-2024.ini" | grep -q '"ok":true,"problems":\[\],"summary":{"edition":"2024"' ||
    fail "check-config --json"

cat > "$dir/bad.ini" <<'INI'
[castle]
edition = 2024
[reader.floor3-a]
place = 3
bus = /dev/spidev0.0
chip_select = gpiochip0:17
colour = blue
[station.0]
yes = gpiochip0:17
INI
status=0; "$vivaref" check-config "$dir/bad.ini" > "$dir/out" || status=$?
[ $status -eq 1 ] || fail "a file with problems is exit 1, not $status"
grep -qx "$dir/bad.ini:7: reader.floor3-a.colour: unknown key in \[reader.floor3-a\]; its keys are place, type, bus, chip_select, spi_hz, neighbours" "$dir/out" ||
    fail "an unknown key is named with its file and line"
grep -qx "$dir/bad.ini:9: station.0.yes: gpiochip0:17 is already used by reader.floor3-a.chip_select (line 6)" "$dir/out" ||
    fail "a pin used twice is named"
grep -qx "$dir/bad.ini: place 0 has no reader: add a \[reader.NAME\] with place = 0" "$dir/out" ||
    fail "a place without a reader is named"
grep -qx "$dir/bad.ini: 15 problems" "$dir/out" || fail "every problem is counted"
status=0; "$vivaref" check-config --json "$dir/bad.ini" > "$dir/out" || status=$?
[ $status -eq 1 ] && grep -q '"ok":false' "$dir/out" && grep -q '{"line":7,"key":"reader.floor3-a.colour"' "$dir/out" ||
    fail "check-config --json with problems"

status=0; "$vivaref" check-config "$dir/missing.ini" 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "missing.ini: no such file" "$dir/err" || fail "a missing file is exit 2"
status=0; "$vivaref" check-config "$dir" 2> "$dir/err" || status=$?
[ $status -eq 2 ] || fail "a directory is exit 2"
head -c 4096 "$vivaref" > "$dir/binary.ini"
status=0; "$vivaref" check-config "$dir/binary.ini" > "$dir/out" || status=$?
[ $status -eq 1 ] && grep -q "this is not a text file" "$dir/out" || fail "a binary file is one problem"
status=0; "$vivaref" check-config 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "check-config without FILE is a usage error"

# The simulated castle's bench, beside the file: its bad statements named by its own file and line.
printf '[daemon]\nhardware = sim\nsim_bench = bench.txt\n' > "$dir/bench.ini"
printf 'no-chip floor2\nwiggle gpiochip0:5\n' > "$dir/bench.txt"
status=0; "$vivaref" check-config "$dir/bench.ini" > "$dir/out" || status=$?
[ $status -eq 1 ] && grep -qx "$dir/bench.txt:2: wiggle: 'wiggle' is not a bench statement: chip, no-chip, couple, version, stuck, crossed or dead-led" "$dir/out" ||
    fail "a bench's bad statement is named by its file and line"
printf 'no-chip floor2\n' > "$dir/bench.txt"
"$vivaref" check-config "$dir/bench.ini" > /dev/null || fail "a good bench is valid"
rm "$dir/bench.txt"
status=0; "$vivaref" check-config "$dir/bench.ini" > "$dir/out" || status=$?
[ $status -eq 1 ] && grep -q "^$dir/bench.ini:3: daemon.sim_bench: the bench $dir/bench.txt is not a file" "$dir/out" ||
    fail "a missing bench is named on the key's line"

# Enrolment on the simulated castle: the demo player puts each character's tag.
"$vivaref" enrol --edition 2024 --tags "$dir/state/tags.json" > "$dir/out" || fail "enrol on the simulated castle"
grep -q "^14 enrolled, 0 kept, 0 skipped; 14 tags of the 2024 edition" "$dir/out" || fail "enrol enrols 14 characters"
grep -q '"jester": \|"jester"$' "$dir/state/tags.json" || grep -q '"jester"' "$dir/state/tags.json" ||
    fail "the registry names the characters"
"$vivaref" enrol --edition classic --tags "$dir/state/tags.json" --skip odessa,piero > "$dir/out" ||
    fail "enrol a second edition"
grep -q "^11 enrolled, 0 kept, 0 skipped; 11 tags of the classic edition" "$dir/out" || fail "--skip"
"$vivaref" enrol --config "$examples/castle-2024.ini" --hardware sim --tags "$dir/state/tags.json" > "$dir/out" ||
    fail "enrol again on the 2024 castle's layout"
grep -q "^0 enrolled, 14 kept" "$dir/out" || fail "a second enrolment keeps the tags"
grep -q '"classic"' "$dir/state/tags.json" || fail "the other edition's tags stay"
status=0; "$vivaref" enrol --skip gandalf --tags "$dir/state/tags.json" 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "gandalf" "$dir/err" || fail "--skip of an unknown character is a usage error"
echo '{"format": "vivaref-tags", "version": 1, "editions": {"classic": {"04A1": "odessa"}}}' > "$dir/broken.json"
status=0; "$vivaref" enrol --tags "$dir/broken.json" 2> "$dir/err" || status=$?
[ $status -eq 2 ] && grep -q "broken.json:1: tag UID \"04A1\" has 4 hex digits" "$dir/err" ||
    fail "a broken registry stops enrol with its line"
# The configuration in force (daemon/config/config_in_force.hpp): castle.ini in
# the given file's state directory while it is valid, else the given file;
# check-config --in-force and unit-access decide as serve does.
mkdir -p "$dir/state"
printf '[castle]\nedition = 2024\n[daemon]\nhardware = sim\nstate_dir = %s\n' "$dir/state" > "$dir/given.ini"
"$vivaref" check-config --in-force --config "$dir/given.ini" > "$dir/out" ||
    fail "check-config --in-force of a valid file"
grep -qx "the configuration in force is $dir/given.ini (no castle saved by the set-up in $dir/state)" "$dir/out" ||
    fail "--in-force says the given file is in force"
"$vivaref" unit-access --config "$dir/given.ini" | grep -q "^DeviceAllow=$" || fail "the sim castle allows no device"
# A saved castle of real readers: in force, and the drop-in follows it.
sed 's/^hardware = real/hardware = sim/' "$examples/castle-2024.ini" |
    sed "s|^state_dir = .*|state_dir = $dir/state|" > "$dir/state/castle.ini"
"$vivaref" check-config --in-force --config "$dir/given.ini" --json > "$dir/out" ||
    fail "check-config --in-force of a saved castle"
grep -q "\"in_force\":\"$dir/state/castle.ini\"" "$dir/out" && grep -q '"readers":28' "$dir/out" ||
    fail "--in-force --json names castle.ini"
sed -i 's/^hardware = sim/hardware = real/' "$dir/state/castle.ini"
"$vivaref" unit-access --config "$dir/given.ini" > "$dir/out" || fail "unit-access on the saved castle"
grep -q "^DeviceAllow=/dev/spidev0.1 rw$" "$dir/out" && grep -q "from $dir/state/castle.ini" "$dir/out" ||
    fail "unit-access follows castle.ini"
# Broken by hand: the given file is in force again, and the first line says why.
printf '[reader.stray]\n' >> "$dir/state/castle.ini"
"$vivaref" check-config --in-force --config "$dir/given.ini" > "$dir/out" || fail "--in-force falls back"
head -1 "$dir/out" | grep -q "^$dir/state/castle.ini, the castle saved by the set-up, cannot be used ($dir/state/castle.ini:[0-9]*: reader.stray.place: " ||
    fail "--in-force says why castle.ini is not in force"
grep -q "^$dir/given.ini: valid" "$dir/out" || fail "--in-force checks the given file then"
"$vivaref" unit-access --config "$dir/given.ini" | grep -q "^DeviceAllow=$" || fail "unit-access falls back with serve"
status=0; "$vivaref" check-config --in-force "$dir/given.ini" 2> /dev/null || status=$?
[ $status -eq 2 ] || fail "--in-force without --config is a usage error"
echo "config cli: ok"
