#!/usr/bin/env bash
# Times the README's Quick start on a fresh Debian 12: a minimal bookworm
# root made by debootstrap, this checkout copied in (git archive HEAD), then
# `.ci/dev run` until it prints the host's link, and `.ci/dev deps` for what
# the tests add. Not part of ctest: it downloads ~800 MB and needs root.
#   sudo tests/package/fresh_debian.sh SCRATCH_DIR
# Prints the seconds of each step; the logs stay in SCRATCH_DIR.
set -euo pipefail
[[ $EUID == 0 ]] || { echo "run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
[[ $# == 1 ]] || { echo "usage: $0 SCRATCH_DIR" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mkdir -p "$1" && cd "$1" && pwd)"
fresh="$work/root"
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap

umount_all() { for m in dev/pts dev sys proc; do umount "$fresh/$m" 2>/dev/null || true; done; }
trap umount_all EXIT

t0=$SECONDS
debootstrap --variant=minbase bookworm "$fresh" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1
echo "debootstrap: $((SECONDS - t0)) s"
cat >"$fresh/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
LIST
cp /etc/resolv.conf "$fresh/etc/resolv.conf"
# A machine whose network needs extra certificate authorities passes them on.
cp /usr/local/share/ca-certificates/*.crt "$fresh/usr/local/share/ca-certificates/" 2>/dev/null || true
for m in proc sys dev dev/pts; do mount --bind "/$m" "$fresh/$m"; done
mkdir -p "$fresh/root/vivaref"
git -C "$ROOT" archive HEAD | tar -x -C "$fresh/root/vivaref"

# `.ci/dev run` until the host's link is printed, then stopped.
t0=$SECONDS
chroot "$fresh" bash -c 'cd /root/vivaref && VIVAREF_LISTEN=127.0.0.1:18080 .ci/dev run' >"$work/run.log" 2>&1 &
run=$!
built=""
while kill -0 "$run" 2>/dev/null; do
    [[ -n "$built" ]] || ! grep -q '^== build' "$work/run.log" || built=$((SECONDS - t0))
    if grep -q 'host.html#' "$work/run.log"; then
        echo "run: the host's link after $((SECONDS - t0)) s (installing: ${built:-?} s)"
        pkill -f 'vivaref serve --hardware=sim --listen 127.0.0.1:18080' || true
        break
    fi
    sleep 1
done
wait "$run" || true
grep -E 'newly installed|Need to get' "$work/run.log" || true

t0=$SECONDS
chroot "$fresh" bash -c 'cd /root/vivaref && NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt .ci/dev deps' >"$work/deps.log" 2>&1
echo "deps (what the tests add): $((SECONDS - t0)) s"
grep -E 'newly installed|Need to get' "$work/deps.log" || true
