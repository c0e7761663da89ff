#!/bin/sh
# The systemd unit as this build installs it: `cmake --install` into a
# scratch root (binary, unit, configuration, with the build's own prefix),
# then there
#   - systemd-analyze verify: the unit parses without a warning and its
#     ExecStart binary is there and executable;
#   - systemd-analyze security --offline=yes: the sandbox rates OK or better
#     and no worse than MAX_EXPOSURE (a loosened sandbox fails here);
#   - the binary accepts the ExecStart command line's options (`serve --help`
#     lists --config) and the installed configuration passes check-config;
#   - ExecStart names the configuration where ConfigurationDirectory= puts it
#     (/etc/vivaref, whatever the prefix), and the install put it there;
#   - the generator's drop-in, for the simulated castle and for the example
#     real castle: the devices, groups and port the configuration uses and
#     none else; the unit with it still verifies and rates no worse;
#   - vivaref-reconfigure.path and .service (the drop-in follows the castle
#     the set-up saves) verify, the path watches /var/lib/vivaref/castle.ini,
#     and the service's script, run with a stand-in systemctl, restarts
#     vivaref.service when the drop-in's lines changed and only then.
# Exits 77 (skipped) without systemd-analyze (Debian's systemd package).
#
#   check_unit.sh BUILD_DIR VIVAREF_BINARY [MAX_EXPOSURE]
set -eu

build="$1"
binary="$2"
max_exposure="${3:-2.0}"

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "SKIP: systemd-analyze is missing (Debian package systemd)"
    exit 77
fi

scratch="$(mktemp -d -t vivaref-unit.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
root="$scratch/root"

DESTDIR="$root" cmake --install "$build" >"$scratch/install.log" 2>&1 || {
    cat "$scratch/install.log"
    echo "FAIL: cmake --install $build into $root"
    exit 1
}
prefix="$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")"
unit="$prefix/lib/systemd/system/vivaref.service"
[ -f "$root$unit" ] || { echo "FAIL: no unit at $unit in the installed tree"; exit 1; }
echo "unit: $unit (prefix $prefix)"
grep '^ExecStart=' "$root$unit"

# The targets and slices every service depends on, as this machine's systemd
# has them: verify resolves the unit's dependencies inside the root.
mkdir -p "$root/usr/lib/systemd/system"
for f in /usr/lib/systemd/system/*.target /usr/lib/systemd/system/*.slice \
    /lib/systemd/system/*.target /lib/systemd/system/*.slice; do
    [ -f "$f" ] && [ ! -e "$root/usr/lib/systemd/system/${f##*/}" ] && cp "$f" "$root/usr/lib/systemd/system/"
done

status=0

# The drop-in vivaref-generator writes at boot, as this binary makes it.
generator="$root$prefix/lib/systemd/system-generators/vivaref-generator"
if [ -x "$generator" ] && sh -n "$generator"; then
    echo "ok: the generator is installed and parses: $prefix/lib/systemd/system-generators/vivaref-generator"
else
    echo "FAIL: no executable generator at $prefix/lib/systemd/system-generators/vivaref-generator"
    status=1
fi
dropin_dir="$root/etc/systemd/system/vivaref.service.d"
mkdir -p "$dropin_dir"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
# The generator itself, run with this build's binary on the example castle.
sed -e "s|^$prefix/bin/vivaref |$binary |" -e "s|^config=.*|config=$source_dir/daemon/config/examples/castle-2024.ini|" \
    "$generator" >"$scratch/generator"
sh "$scratch/generator" "$scratch/generated"
real="$scratch/generated/vivaref.service.d/50-access.conf"
expect() {  # expect FILE PATTERN WHAT
    if grep -qE "$2" "$1"; then echo "ok: $3"; else
        cat "$1"
        echo "FAIL: $3 (no line matching '$2')"
        status=1
    fi
}
refuse() {  # refuse FILE PATTERN WHAT
    if grep -qE "$2" "$1"; then
        cat "$1"
        echo "FAIL: $3 (a line matches '$2')"
        status=1
    else echo "ok: $3"; fi
}
if [ -f "$real" ]; then
    expect "$real" '^DeviceAllow=/dev/spidev0\.0 rw$' "real castle: its SPI bus is allowed"
    expect "$real" '^DeviceAllow=/dev/gpiochip2 rw$' "real castle: its GPIO expander is allowed"
    refuse "$real" '^DeviceAllow=(char-([^a]|a[^l])|/dev/tty|/dev/i2c)' "real castle: no serial port, I2C bus or whole device class but ALSA's"
    expect "$real" '^DeviceAllow=char-alsa rw$' "real castle: the voice's sound card (ALSA's nodes)"
    expect "$real" '^SupplementaryGroups=audio gpio spi$' "real castle: the groups audio, gpio and spi only"
    expect "$real" '^SocketBindAllow=tcp:8080$' "real castle: its http_port"
    refuse "$real" '^PrivateUsers=' "real castle: no user namespace (it would hide the device groups)"
else
    echo "FAIL: the generator wrote no drop-in for the example castle"
    status=1
fi
# A configuration with problems: the generator writes nothing.
printf '[daemon]\nhardware = wood\n' >"$scratch/bad.ini"
sed -i "s|^config=.*|config=$scratch/bad.ini|" "$scratch/generator"
sh "$scratch/generator" "$scratch/generated-bad"
if [ -e "$scratch/generated-bad/vivaref.service.d/50-access.conf" ]; then
    echo "FAIL: the generator wrote a drop-in from a configuration with problems"
    status=1
else echo "ok: a configuration with problems gets no drop-in"; fi
# The configuration in force: the castle the set-up saved in the state
# directory (castle.ini) is the generator's source while it is valid.
mkdir -p "$scratch/state"
printf '[castle]\nedition = 2024\n[daemon]\nhardware = sim\nstate_dir = %s\n' "$scratch/state" >"$scratch/given.ini"
sed "s|^state_dir = .*|state_dir = $scratch/state|" "$source_dir/daemon/config/examples/castle-2024.ini" \
    >"$scratch/state/castle.ini"
sed -i "s|^config=.*|config=$scratch/given.ini|" "$scratch/generator"
sh "$scratch/generator" "$scratch/generated-saved"
saved="$scratch/generated-saved/vivaref.service.d/50-access.conf"
if [ -f "$saved" ]; then
    expect "$saved" '^DeviceAllow=/dev/spidev0\.0 rw$' "the generator follows the castle.ini the set-up saved"
    expect "$saved" "^# Written by 'vivaref unit-access' from $scratch/state/castle.ini:" \
        "the drop-in names castle.ini as its source"
else
    echo "FAIL: the generator wrote no drop-in for a saved castle.ini"
    status=1
fi
# The installed configuration (the simulated castle): no device, its own users.
"$binary" unit-access --config "$root/etc/vivaref/vivaref.ini" --output "$dropin_dir/50-access.conf"
sim="$dropin_dir/50-access.conf"
refuse "$sim" '^DeviceAllow=.' "simulated castle: no device"
expect "$sim" '^SupplementaryGroups=$' "simulated castle: no device group"
expect "$sim" '^PrivateUsers=yes$' "simulated castle: a user namespace of its own"

# ExecStart's configuration is where ConfigurationDirectory= makes it.
if grep -q '^ExecStart=.* --config %E/vivaref/vivaref.ini$' "$root$unit" &&
    grep -q '^ConfigurationDirectory=vivaref$' "$root$unit" && [ -f "$root/etc/vivaref/vivaref.ini" ]; then
    echo "ok: ExecStart reads /etc/vivaref/vivaref.ini (%E/vivaref, ConfigurationDirectory=vivaref), installed there"
else
    echo "FAIL: ExecStart's --config is not %E/vivaref/vivaref.ini, or no ConfigurationDirectory=vivaref, or no /etc/vivaref/vivaref.ini installed"
    status=1
fi

# The unit with a drop-in: verify prints a line for any unknown key or bad
# value but still exits 0, so any output is a failure; then its exposure.
rate() {  # rate WHAT (the drop-in in place)
    if ! systemd-analyze verify --man=no --root="$root" "$unit" >"$scratch/verify.log" 2>&1 ||
        [ -s "$scratch/verify.log" ]; then
        cat "$scratch/verify.log"
        echo "FAIL: systemd-analyze verify $unit ($1)"
        status=1
    else
        echo "ok: systemd-analyze verify ($1): no warning"
    fi
    systemd-analyze security --offline=yes --root="$root" "$root$unit" >"$scratch/security.log" 2>&1 || true
    grep '✗' "$scratch/security.log" | sed 's/  */ /g' || true
    line="$(grep 'Overall exposure level' "$scratch/security.log" || true)"
    echo "$1: $line"
    score="$(echo "$line" | sed -n 's/.*: \([0-9.]*\) \([A-Z]*\).*/\1/p')"
    rating="$(echo "$line" | sed -n 's/.*: \([0-9.]*\) \([A-Z]*\).*/\2/p')"
    case "$rating" in
    OK | SAFE | PERFECT)
        if awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s > m) }'; then
            echo "FAIL: exposure $score ($1) is above this test's ceiling $max_exposure: was the sandbox loosened?"
            status=1
        else
            echo "ok: exposure $score $rating ($1; ceiling $max_exposure)"
        fi
        ;;
    *)
        cat "$scratch/security.log"
        echo "FAIL: systemd-analyze security rates the unit '${rating:-?}' ($1), not OK or better"
        status=1
        ;;
    esac
}
rate "simulated castle"
[ ! -f "$real" ] || { cp "$real" "$sim" && rate "real castle"; }

# vivaref-reconfigure.path and .service: installed, verified, and the
# service's script doing what it says.
# (verify looks for ExecStart's /bin/sh inside the root.)
mkdir -p "$root/bin"
[ -e "$root/bin/sh" ] || cp "$(readlink -f /bin/sh)" "$root/bin/sh"
for reconfigure in vivaref-reconfigure.path vivaref-reconfigure.service; do
    path="$prefix/lib/systemd/system/$reconfigure"
    if [ ! -f "$root$path" ]; then
        echo "FAIL: no $reconfigure at $path in the installed tree"
        status=1
    elif ! systemd-analyze verify --man=no --root="$root" "$path" >"$scratch/verify.log" 2>&1 ||
        [ -s "$scratch/verify.log" ]; then
        cat "$scratch/verify.log"
        echo "FAIL: systemd-analyze verify $reconfigure"
        status=1
    else
        echo "ok: systemd-analyze verify $reconfigure: no warning"
    fi
done
expect "$root$prefix/lib/systemd/system/vivaref-reconfigure.path" '^PathChanged=/var/lib/vivaref/castle\.ini$' \
    "the path unit watches the set-up's castle.ini in the state directory"
# The script of ExecStart= (continuation lines joined, $$ unescaped), on a
# scratch drop-in, with a systemctl that logs and plays the generator.
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$root$prefix/lib/systemd/system/vivaref-reconfigure.service" |
    sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" | sed -e 's/\$\$/$/g' \
    -e "s|/run/systemd/generator/vivaref.service.d/50-access.conf|$scratch/reconf/50-access.conf|" \
    >"$scratch/reconfigure.sh"
mkdir -p "$scratch/reconf/bin"
cat >"$scratch/reconf/bin/systemctl" <<SH
#!/bin/sh
echo "\$*" >>"$scratch/reconf/calls"
[ "\$1" != daemon-reload ] || cp "$scratch/reconf/next.conf" "$scratch/reconf/50-access.conf"
SH
chmod +x "$scratch/reconf/bin/systemctl"
reconfigure() {  # reconfigure NOW NEXT: the drop-in before and after the reload; prints the calls
    printf '%b' "$1" >"$scratch/reconf/50-access.conf"
    printf '%b' "$2" >"$scratch/reconf/next.conf"
    rm -f "$scratch/reconf/calls"
    PATH="$scratch/reconf/bin:$PATH" sh "$scratch/reconfigure.sh" >/dev/null
    tr '\n' ';' <"$scratch/reconf/calls"
}
sim_dropin='# from /etc/vivaref/vivaref.ini\n[Service]\nDeviceAllow=\n'
real_dropin='# from /var/lib/vivaref/castle.ini\n[Service]\nDeviceAllow=\nDeviceAllow=/dev/spidev0.1 rw\n'
calls="$(reconfigure "$sim_dropin" "$real_dropin")"
[ "$calls" = "daemon-reload;try-restart vivaref.service;" ] &&
    echo "ok: reconfigure: a drop-in with new devices restarts vivaref.service" ||
    { echo "FAIL: reconfigure with new devices called: '$calls'"; status=1; }
calls="$(reconfigure "$real_dropin" "$(echo "$real_dropin" | sed 's|/var/lib/vivaref/castle.ini|/etc/vivaref/vivaref.ini|')")"
[ "$calls" = "daemon-reload;" ] &&
    echo "ok: reconfigure: the same devices from another file restart nothing" ||
    { echo "FAIL: reconfigure with the same devices called: '$calls'"; status=1; }

# The ExecStart line's options, as the binary understands them.
if "$binary" serve --help >"$scratch/serve.txt" 2>&1; then
    if grep -q -- '--config' "$scratch/serve.txt"; then
        echo "ok: vivaref serve takes --config"
    else
        cat "$scratch/serve.txt"
        echo "FAIL: 'vivaref serve --help' does not list --config, which the unit's ExecStart uses"
        status=1
    fi
else
    echo "note: this vivaref has no serve command yet; the ExecStart line's options are unchecked"
fi
config=/etc/vivaref/vivaref.ini
if "$binary" check-config "$root$config"; then
    echo "ok: the installed $config passes check-config"
else
    echo "FAIL: the installed $config does not pass check-config"
    status=1
fi

exit "$status"
