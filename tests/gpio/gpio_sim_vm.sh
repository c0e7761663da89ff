#!/bin/sh
# The libgpiod backend against the kernel's gpio-sim, in a qemu VM.
#
#   gpio_sim_vm.sh TEST_BINARY WORK_DIR
#
# The machine's kernel has no GPIO support, and Debian 12's kernel is built
# without gpio-sim, so: build gpio-sim (with the IRQ simulator it needs) as one
# out-of-tree module for an installed Debian kernel, from that kernel's
# linux-source tarball; boot the kernel in qemu (TCG) with a busybox
# initramfs holding configfs, the module, TEST_BINARY and its libraries; run
# TEST_BINARY there (it makes its gpio-sim chips through configfs) and pass on
# its output and exit status, read from the serial console.
#
# Needs (Debian 12): qemu-system-x86 busybox-static linux-image-amd64
# linux-headers-amd64 (the headers of the same version as the image) and
# linux-source-6.1. Exits 77 (a skip) naming what is missing. Nothing is
# downloaded. The module is cached in WORK_DIR (rebuilt when the kernel, the
# source package or this script change); the initramfs is rebuilt each run
# (under a second). VIVAREF_GPIO_SIM_TIMEOUT bounds the VM's run (default 150 s).
set -eu

test_binary=$1
work=$2
timeout_s=${VIVAREF_GPIO_SIM_TIMEOUT:-150}

skip() {
    echo "gpio-sim: SKIPPED: $*"
    exit 77
}
fail() {
    echo "gpio-sim: FAILED: $*" >&2
    exit 1
}

[ -x "$test_binary" ] || fail "no test binary at $test_binary"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is missing (apt install qemu-system-x86)"
[ -x /bin/busybox ] || skip "busybox is missing (apt install busybox-static)"
[ "$(uname -m)" = x86_64 ] || skip "the VM is x86_64 and this machine is $(uname -m)"

# The kernel: the newest installed Debian kernel whose headers are installed too.
kernel=""
newest=""
for image in $(ls /boot/vmlinuz-* 2>/dev/null | sort -V -r); do
    version=${image#/boot/vmlinuz-}
    [ -n "$newest" ] || newest=$version
    if [ -f "/lib/modules/$version/build/Makefile" ]; then
        kernel=$version
        break
    fi
done
[ -n "$newest" ] || skip "no kernel image in /boot (apt install linux-image-amd64)"
[ -n "$kernel" ] || skip "no headers for kernel $newest (apt install linux-headers-$newest; linux-headers-amd64 and linux-image-amd64 must have the same version)"
[ -r "/boot/vmlinuz-$kernel" ] || skip "cannot read /boot/vmlinuz-$kernel (Debian makes it root-only)"
configfs=/lib/modules/$kernel/kernel/fs/configfs/configfs.ko
[ -f "$configfs" ] || skip "no configfs module for kernel $kernel at $configfs"

# Its source, from the linux-source package of the same major.minor.
series=$(echo "$kernel" | cut -d. -f1,2)
tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || skip "$tarball is missing (apt install linux-source-$series)"

mkdir -p "$work"
work=$(cd "$work" && pwd)

# --- the module --------------------------------------------------------------
module_dir=$work/module-$kernel
module=$module_dir/vivaref_gpio_sim.ko
stamp="$kernel $(stat -c '%s %Y' "$tarball") $(cksum <"$0")"
if [ ! -f "$module" ] || [ "$(cat "$module_dir/stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "gpio-sim: building the gpio-sim module for $kernel from $tarball"
    rm -rf "$module_dir"
    mkdir -p "$module_dir/src"
    top=linux-source-$series
    tar -xJf "$tarball" -C "$module_dir/src" \
        "$top/drivers/gpio/gpio-sim.c" "$top/drivers/gpio/gpiolib.h" "$top/kernel/irq/irq_sim.c" ||
        fail "cannot extract gpio-sim from $tarball"
    build=$module_dir/build
    mkdir -p "$build"
    cp "$module_dir/src/$top/drivers/gpio/gpio-sim.c" "$module_dir/src/$top/drivers/gpio/gpiolib.h" \
        "$module_dir/src/$top/kernel/irq/irq_sim.c" "$build/"
    rm -rf "$module_dir/src"
    # irq_to_desc() is not exported to modules in 6.1; generic_handle_irq()
    # does the same for our simple IRQs (it calls the handler the domain set:
    # handle_simple_irq).
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$build/irq_sim.c"
    grep -q 'generic_handle_irq(irqnum);' "$build/irq_sim.c" ||
        fail "irq_sim.c of $tarball no longer matches the patch in $0"
    printf 'obj-m := vivaref_gpio_sim.o\nvivaref_gpio_sim-y := gpio-sim.o irq_sim.o\n' >"$build/Kbuild"
    if ! make -s -C "/lib/modules/$kernel/build" M="$build" modules >"$module_dir/build.log" 2>&1; then
        cat "$module_dir/build.log" >&2
        fail "the gpio-sim module did not build (log above)"
    fi
    cp "$build/vivaref_gpio_sim.ko" "$module"
    echo "$stamp" >"$module_dir/stamp"
fi

# --- the initramfs -----------------------------------------------------------
root=$work/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/modules" "$root/test"
cp /bin/busybox "$root/bin/busybox"
cp "$configfs" "$module" "$root/modules/"
cp "$test_binary" "$root/test/gpio_sim_tests"

# Every shared library the binaries load (the sanitizers' runtimes in an
# ASan build), at the path the host has it.
for binary in /bin/busybox "$test_binary"; do
    ldd "$binary" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'
done | sort -u | while read -r library; do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
done

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
insmod /modules/configfs.ko
insmod /modules/vivaref_gpio_sim.ko
mount -t configfs configfs /sys/kernel/config
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "vivaref-gpio-sim: start"
/test/gpio_sim_tests --no-colors=true
echo "vivaref-gpio-sim: exit status $?"
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$work/initramfs.cpio.gz"

# --- the run -----------------------------------------------------------------
console=$work/console.log
rm -f "$console"
echo "gpio-sim: booting kernel $kernel in qemu (TCG)"
status=0
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 -accel tcg -m 1024 -smp 1 \
    -nodefaults -display none -no-reboot -serial "file:$console" \
    -kernel "/boot/vmlinuz-$kernel" -initrd "$work/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1" </dev/null || status=$?
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || {
    tail -n 60 "$console" 2>/dev/null
    fail "the VM did not finish within ${timeout_s} s (console above, in $console)"
}
[ "$status" -eq 0 ] || fail "qemu exited with status $status (console in $console)"

# The test's own output, between the markers.
sed -n '/^vivaref-gpio-sim: start/,/^vivaref-gpio-sim: exit status/p' "$console" | tr -d '\r'
result=$(tr -d '\r' <"$console" | sed -n 's/^vivaref-gpio-sim: exit status \([0-9]*\)$/\1/p' | tail -n 1)
if [ -z "$result" ]; then
    tail -n 60 "$console"
    fail "the test did not report from the VM (console above, in $console)"
fi
exit "$result"
