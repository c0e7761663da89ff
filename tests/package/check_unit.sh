#!/bin/sh
# The systemd unit as this build installs it: `cmake --install` into a
# scratch root (binary, unit, configuration, with the build's own prefix),
# then there
#   - systemd-analyze verify: the unit parses without a warning and its
#     ExecStart binary is there and executable;
#   - systemd-analyze security --offline=yes: the sandbox rates OK or better
#     and no worse than MAX_EXPOSURE (a loosened sandbox fails here);
#   - the binary accepts the ExecStart command line's options (`serve --help`
#     lists --config) and the installed configuration passes check-config.
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

# verify prints a line for any unknown key or bad value but still exits 0:
# any output is a failure.
if ! systemd-analyze verify --man=no --root="$root" "$unit" >"$scratch/verify.log" 2>&1 ||
    [ -s "$scratch/verify.log" ]; then
    cat "$scratch/verify.log"
    echo "FAIL: systemd-analyze verify $unit"
    status=1
else
    echo "ok: systemd-analyze verify: no warning"
fi

systemd-analyze security --offline=yes --root="$root" "$root$unit" >"$scratch/security.log" 2>&1 || true
grep '✗' "$scratch/security.log" | sed 's/  */ /g' || true
line="$(grep 'Overall exposure level' "$scratch/security.log" || true)"
echo "$line"
score="$(echo "$line" | sed -n 's/.*: \([0-9.]*\) \([A-Z]*\).*/\1/p')"
rating="$(echo "$line" | sed -n 's/.*: \([0-9.]*\) \([A-Z]*\).*/\2/p')"
case "$rating" in
OK | SAFE | PERFECT)
    if awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s > m) }'; then
        echo "FAIL: exposure $score is above this test's ceiling $max_exposure: was the sandbox loosened?"
        status=1
    else
        echo "ok: exposure $score $rating (ceiling $max_exposure)"
    fi
    ;;
*)
    cat "$scratch/security.log"
    echo "FAIL: systemd-analyze security rates the unit '${rating:-?}', not OK or better"
    status=1
    ;;
esac

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
config="$prefix/etc/vivaref/vivaref.ini"
[ "$prefix" != /usr ] || config=/etc/vivaref/vivaref.ini
if "$binary" check-config "$root$config"; then
    echo "ok: the installed $config passes check-config"
else
    echo "FAIL: the installed $config does not pass check-config"
    status=1
fi

exit "$status"
