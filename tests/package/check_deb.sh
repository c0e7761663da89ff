#!/bin/bash
# Checks a vivaref .deb, then installs, upgrades, removes and purges it in a
# scratch root with its maintainer scripts run there, and checks each step:
#   - dpkg-deb: Package, Version, Architecture, Depends (the libraries the
#     binary links), the conffile list, the maintainer scripts, every file
#     owned by root, the binary built for ARCH;
#   - installed: the binary, web page, unit, sysusers and udev files,
#     configuration and examples; the vivaref user in gpio, spi, dialout and
#     i2c; the unit enabled; the state directory; the conffile registered;
#   - upgrade (the same package again): the edited configuration and the
#     game log are kept, the unit still enabled;
#   - remove: program files gone; configuration, game log and user kept;
#   - purge: configuration, user and enablement gone; the game log kept.
#
#   check_deb.sh DEB ARCH
#
# The scratch root is a directory with a dpkg database of its own: dpkg
# --root --force-script-chrootless runs the scripts on this machine with
# DPKG_ROOT set, and the scripts put every change under it. As root, it all
# runs as the user nobody, so that a script that forgot DPKG_ROOT fails
# instead of changing this machine. Needs dpkg (and setpriv when root).
set -euo pipefail

deb="$(realpath "$1")"
arch="$2"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

scratch="$(mktemp -d -t vivaref-deb.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
chmod 0755 "$scratch"

# --- the package file ---------------------------------------------------------

info="$(dpkg-deb --info "$deb")"
field() { dpkg-deb --field "$deb" "$1"; }
[[ "$(field Package)" == vivaref ]] && ok "Package: vivaref" || fail "Package is '$(field Package)'"
[[ "$(field Architecture)" == "$arch" ]] && ok "Architecture: $arch" || fail "Architecture is '$(field Architecture)', not $arch"
[[ -n "$(field Version)" ]] && ok "Version: $(field Version)" || fail "no Version"
depends="$(field Depends)"
echo "Depends: $depends"
# depends_on PACKAGE: Depends names PACKAGE (with or without a version).
depends_on() {
    local item
    while read -r item; do
        [[ "${item%% *}" == "$1" ]] && return 0
    done < <(tr ',' '\n' <<<"$depends" | sed 's/^ *//')
    return 1
}
for lib in libc6 libstdc++6 libgcc-s1 libsqlite3-0 libgpiod2 libnfc6 libboost-program-options1.74.0; do
    depends_on "$lib" || fail "Depends lacks $lib"
done
control="$scratch/control"
dpkg-deb --control "$deb" "$control"
if [[ "$(cat "$control/conffiles" 2>/dev/null)" == /etc/vivaref/vivaref.ini ]]; then
    ok "conffiles: /etc/vivaref/vivaref.ini"
else
    fail "conffiles should list /etc/vivaref/vivaref.ini alone: '$(cat "$control/conffiles" 2>/dev/null)'"
fi
for script in postinst prerm postrm; do
    [[ -x "$control/$script" ]] && sh -n "$control/$script" && ok "$script: there, executable, parses" ||
        fail "$script missing, not executable or not valid sh"
done

contents="$(dpkg-deb --contents "$deb")"
if awk '{ if ($2 != "root/root") { print; bad = 1 } } END { exit bad }' <<<"$contents"; then
    ok "every file belongs to root/root"
else
    fail "files not owned by root/root (above)"
fi
expected_files=(
    ./usr/bin/vivaref
    ./usr/share/vivaref/web-ui/index.html
    ./usr/lib/systemd/system/vivaref.service
    ./usr/lib/systemd/system/vivaref-reconfigure.path
    ./usr/lib/systemd/system/vivaref-reconfigure.service
    ./usr/lib/sysusers.d/vivaref.conf
    ./usr/lib/udev/rules.d/60-vivaref.rules
    ./etc/vivaref/vivaref.ini
    ./usr/share/doc/vivaref/README.md
    ./usr/share/doc/vivaref/copyright
    ./usr/share/doc/vivaref/examples/castle-2024.ini
    ./usr/share/doc/vivaref/examples/sim.ini
)
for f in "${expected_files[@]}"; do
    grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
done
ok "the package holds its $(wc -l <<<"$contents") entries, among them ${#expected_files[@]} checked by name"

# The binary's ELF machine (e_machine at offset 18): 0x3e x86-64, 0xb7 AArch64.
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/vivaref >"$scratch/vivaref.bin"
machine="$(od -An -tx2 -j18 -N2 "$scratch/vivaref.bin" | tr -d ' ')"
case "$arch:$machine" in
amd64:003e | arm64:00b7) ok "the binary is built for $arch (ELF machine 0x$machine)" ;;
*) fail "the binary's ELF machine 0x$machine is not $arch's" ;;
esac
# Every library the binary needs comes from a package that Depends names
# (the :ARCH libraries are installed here: .ci/dev deps).
triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH -a"$arch" 2>/dev/null)"
needed="$(readelf -d "$scratch/vivaref.bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')"
for soname in $needed; do
    owner=""
    for dir in "/lib/$triplet" "/usr/lib/$triplet"; do
        owner="$(dpkg -S "$dir/$soname" 2>/dev/null | head -n 1 | cut -d: -f1)" && [[ -n "$owner" ]] && break
    done
    # libpqxx-6.4:arm64 is not Multi-Arch: .ci/dev (arm64_pqxx) unpacks its
    # library by hand, so no installed package owns it; it is that package's.
    if [[ -z "$owner" && "$arch" == arm64 && "$soname" == libpqxx-6.4.so && -f "/usr/lib/$triplet/$soname" ]]; then
        owner=libpqxx-6.4
    fi
    if [[ -z "$owner" ]]; then
        fail "no installed $arch package holds $soname, which the binary needs"
    elif depends_on "$owner"; then
        ok "needs $soname: Depends names $owner"
    else
        fail "the binary needs $soname ($owner), which Depends does not name"
    fi
done

# --- the scratch roots ----------------------------------------------------------

# This machine's own users and units, which nothing here may change.
host_state() { cat /etc/passwd /etc/group; ls -l /etc/systemd/system/multi-user.target.wants/ 2>/dev/null; }
host_before="$(host_state | sha256sum)"

pkgdeb="$scratch/$(basename "$deb")"
cp "$deb" "$pkgdeb"
chmod 0644 "$pkgdeb"

# new_root DIR: an empty system for dpkg: its database, root and nobody.
new_root() {
    root="$1"
    mkdir -p "$root"/etc "$root"/var/lib/dpkg/{info,updates,triggers} "$root"/var/log
    : >"$root/var/lib/dpkg/status"
    : >"$root/var/lib/dpkg/available"
    # A foreign package needs its architecture known to this root's dpkg.
    [[ "$arch" == "$(dpkg --print-architecture)" ]] || echo "$arch" >"$root/var/lib/dpkg/arch"
    printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' \
        >"$root/etc/passwd"
    printf 'root:x:0:\ndialout:x:20:\nnogroup:x:65534:\n' >"$root/etc/group"
    printf 'root:*:19000:0:99999:7:::\nnobody:*:19000:0:99999:7:::\n' >"$root/etc/shadow"
    printf 'root:*::\ndialout:*::\nnogroup:*::\n' >"$root/etc/gshadow"
    chmod 0640 "$root/etc/shadow" "$root/etc/gshadow"
}

# How dpkg runs: as_user is the command prefix of the pass.
as_user=()
dpkg_root() {
    "${as_user[@]}" dpkg --root="$root" --log="$scratch/dpkg.log" --force-not-root \
        --force-script-chrootless --force-depends --force-confold "$@"
}
step() {
    echo "== dpkg $*"
    if ! dpkg_root "$@" >"$scratch/step.log" 2>&1; then
        cat "$scratch/step.log"
        fail "dpkg $*"
        echo "$failures check(s) failed"
        exit 1
    fi
    # Warnings about the missing dependencies are expected; others are shown.
    grep -v -e 'depends on' -e 'dependency problems' -e 'not installed' -e 'Package .* is not' \
        -e '^ *$' "$scratch/step.log" | sed 's/^/  | /' || true
}
has() { [[ -e "$root$1" || -L "$root$1" ]]; }
check_file() { has "$1" && ok "$2: $1" || fail "$2 missing: $1"; }
check_gone() { has "$1" && fail "$2 still there: $1" || ok "$2 gone: $1"; }
in_group() { grep -Eq "^$1:[^:]*:[0-9]+:(.*,)?vivaref(,|\$)" "$root/etc/group"; }
id_of() { awk -F: -v name="$2" '$1 == name { print $3 }' "$root/etc/$1"; }
owner_mode() { stat -c '%u:%g %a' "$root$1"; }
wants="/etc/systemd/system/multi-user.target.wants/vivaref.service"
path_wants="/etc/systemd/system/multi-user.target.wants/vivaref-reconfigure.path"

# scenario privileged|unprivileged: install, upgrade, remove, purge in a new
# root; a privileged run also checks owners and modes.
scenario() {
    local privileged=false
    [[ "$1" == privileged ]] && privileged=true
    new_root "$scratch/root-$1"
    if ! $privileged && ((EUID == 0)); then chown -R nobody:nogroup "$root"; fi
    echo
    echo "--- $1: in the scratch root $root"

    step --install "$pkgdeb"
    check_file /usr/bin/vivaref "the binary"
    [[ -x "$root/usr/bin/vivaref" ]] || fail "/usr/bin/vivaref is not executable"
    check_file /usr/share/vivaref/web-ui/index.html "the web page"
    check_file /usr/lib/systemd/system/vivaref.service "the unit"
    grep -q '^ExecStart=/usr/bin/vivaref serve --config %E/vivaref/vivaref.ini$' \
        "$root/usr/lib/systemd/system/vivaref.service" &&
        ok "the unit starts /usr/bin/vivaref serve --config %E/vivaref/vivaref.ini (/etc)" ||
        fail "the unit's ExecStart is not /usr/bin/vivaref serve --config %E/vivaref/vivaref.ini"
    check_file /usr/lib/sysusers.d/vivaref.conf "the sysusers file"
    check_file /usr/lib/udev/rules.d/60-vivaref.rules "the udev rules"
    check_file /etc/vivaref/vivaref.ini "the configuration"
    check_file /usr/share/doc/vivaref/examples/castle-2024.ini "the example castle"
    grep -q '^License: Expat$' "$root/usr/share/doc/vivaref/copyright" &&
        ok "the copyright file names the licence" || fail "the copyright file does not name the licence (Expat)"
    grep -q '^vivaref:' "$root/etc/passwd" && ok "postinst made the user vivaref" ||
        fail "no user vivaref in the root's /etc/passwd"
    local g
    for g in gpio spi dialout i2c; do
        grep -q "^$g:" "$root/etc/group" && ok "the group $g exists" || fail "no group $g"
        in_group "$g" && fail "vivaref is in the group $g (the unit gives it what it needs)" ||
            ok "vivaref is not in the group $g"
    done
    check_file /usr/lib/systemd/system-generators/vivaref-generator "the unit's generator"
    [[ -x "$root/usr/lib/systemd/system-generators/vivaref-generator" ]] &&
        ok "the generator is executable" || fail "the generator is not executable"
    has "$wants" && [[ "$(readlink "$root$wants")" == */systemd/system/vivaref.service ]] &&
        ok "postinst enabled the unit: $wants" || fail "the unit is not enabled ($wants)"
    check_file /usr/lib/systemd/system/vivaref-reconfigure.service "the reconfigure service"
    has "$path_wants" && [[ "$(readlink "$root$path_wants")" == */systemd/system/vivaref-reconfigure.path ]] &&
        ok "postinst enabled the path unit: $path_wants" || fail "the path unit is not enabled ($path_wants)"
    [[ -d "$root/var/lib/vivaref" && "$(stat -c %a "$root/var/lib/vivaref")" == 750 ]] &&
        ok "the state directory /var/lib/vivaref (0750)" || fail "no state directory /var/lib/vivaref with mode 0750"
    local uid gid
    uid="$(id_of passwd vivaref)"
    gid="$(id_of group vivaref)"
    if $privileged; then
        [[ "$(owner_mode /var/lib/vivaref)" == "$uid:$gid 750" ]] && ok "/var/lib/vivaref belongs to vivaref" ||
            fail "/var/lib/vivaref is $(owner_mode /var/lib/vivaref), not vivaref's ($uid:$gid 750)"
        [[ "$(owner_mode /etc/vivaref/vivaref.ini)" == "0:$gid 640" ]] &&
            ok "the configuration is root:vivaref 0640" ||
            fail "the configuration is $(owner_mode /etc/vivaref/vivaref.ini), not root:vivaref 0640 (0:$gid)"
    fi
    local status
    status="$(dpkg_root --status vivaref)"
    grep -q '^Status: install ok installed' <<<"$status" && ok "dpkg: install ok installed" ||
        fail "not installed: $status"
    grep -q '^ /etc/vivaref/vivaref.ini [0-9a-f]\{32\}$' <<<"$status" && ok "dpkg registered the conffile" ||
        fail "dpkg did not register /etc/vivaref/vivaref.ini as a conffile"

    # A player's edits and games, which an upgrade must keep.
    echo "# edited by the castle's owner" >>"$root/etc/vivaref/vivaref.ini"
    echo "not really SQLite" >"$root/var/lib/vivaref/games.sqlite"
    if $privileged; then chown "$uid:$gid" "$root/var/lib/vivaref/games.sqlite"; fi
    # As an earlier version left it: the user in the gpio and spi groups.
    sed -i -e 's/^\(gpio:[^:]*:[0-9]*:\)$/\1vivaref/' -e 's/^\(spi:[^:]*:[0-9]*:\)$/\1vivaref/' "$root/etc/group"
    in_group gpio || fail "the test could not put vivaref in gpio as an earlier version did"
    step --install "$pkgdeb"
    if in_group gpio || in_group spi; then
        fail "the upgrade left vivaref in gpio or spi"
    else
        ok "the upgrade took vivaref out of the device groups an earlier version put it in"
    fi
    grep -q "edited by the castle's owner" "$root/etc/vivaref/vivaref.ini" &&
        ok "upgrade kept the edited configuration" || fail "upgrade lost the edited configuration"
    check_file /var/lib/vivaref/games.sqlite "upgrade kept the game log"
    has "$wants" && ok "the unit is still enabled after the upgrade" || fail "the upgrade disabled the unit"

    step --remove vivaref
    check_gone /usr/bin/vivaref "remove: the binary"
    check_gone /usr/lib/systemd/system/vivaref.service "remove: the unit"
    check_file /etc/vivaref/vivaref.ini "remove kept the configuration"
    check_file /var/lib/vivaref/games.sqlite "remove kept the game log"
    grep -q '^vivaref:' "$root/etc/passwd" && ok "remove kept the user" || fail "remove deleted the user"

    step --purge vivaref
    check_gone /etc/vivaref/vivaref.ini "purge: the configuration"
    check_file /var/lib/vivaref/games.sqlite "purge kept the game log"
    grep -q '^vivaref:' "$root/etc/passwd" && fail "purge kept the user vivaref" || ok "purge removed the user vivaref"
    grep -q '^vivaref:' "$root/etc/group" && fail "purge kept the group vivaref" || ok "purge removed the group vivaref"
    grep -q '^gpio:' "$root/etc/group" && ok "purge kept the group gpio" || fail "purge removed the group gpio"
    check_gone "$wants" "purge: the unit's enablement"
    check_gone "$path_wants" "purge: the path unit's enablement"
    if $privileged; then
        [[ "$(stat -c %u:%g "$root/var/lib/vivaref/games.sqlite")" == 0:0 ]] &&
            ok "purge gave the game log to root" || fail "after purge the game log is not root's"
    fi
}

if ((EUID == 0)); then
    # Unprivileged, as nobody: a script writing outside the root fails.
    command -v setpriv >/dev/null || { echo "SKIP: running as root needs setpriv (util-linux)"; exit 77; }
    chown nobody:nogroup "$scratch" "$pkgdeb"
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env --
        env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
    scenario unprivileged
    # Privileged, as on a Pi, in a mount namespace where this machine's /etc,
    # /usr and /var are read-only: owners and modes are checked too.
    readonly_host='for d in /etc /usr /var; do
        mount --bind "$d" "$d" && mount -o remount,ro,bind "$d" || exit 97; done; exec "$@"'
    if unshare --mount -- sh -c "$readonly_host" sh true 2>/dev/null; then
        as_user=(unshare --mount -- sh -c "$readonly_host" sh)
        scenario privileged
    else
        echo "note: no mount namespace here (unshare --mount): the privileged pass is left out"
    fi
else
    scenario unprivileged
fi

[[ "$(host_state | sha256sum)" == "$host_before" ]] && ok "this machine's users, groups and enabled units are unchanged" ||
    fail "this machine's /etc/passwd, /etc/group or enabled units changed during the test"

if ((failures)); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
