# Cross-building for the Raspberry Pi's architecture (arm64, as Raspberry Pi
# OS Bookworm 64-bit) with Debian's cross toolchain and multiarch libraries:
#   crossbuild-essential-arm64, qemu-user-static and the :arm64 dev packages
#   after `dpkg --add-architecture arm64` (.ci/dev deps installs them all).
#
#   cmake -S . -B build/arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake
#
# Tests that ctest starts from a target run under qemu-user
# (CMAKE_CROSSCOMPILING_EMULATOR); .ci/dev's arm64 stage says which.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Debian multiarch: the arm64 libraries and their CMake and pkg-config files
# live in /usr/lib/aarch64-linux-gnu beside the build machine's, headers in
# /usr/include (shared) and /usr/include/aarch64-linux-gnu. No sysroot: the
# searches stay in / but take the arm64 directory, never the amd64 one.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# arm64-pkgconfig/ first: its libnfc.pc says why.
set(ENV{PKG_CONFIG_LIBDIR}
  "${CMAKE_CURRENT_LIST_DIR}/arm64-pkgconfig:/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# qemu-user runs the arm64 test binaries with the loader of libc6:arm64
# (/lib/ld-linux-aarch64.so.1), the same build as the libc.so.6 it loads
# from /usr/lib/aarch64-linux-gnu. Never `-L /usr/aarch64-linux-gnu`: that
# takes the cross package's loader (libc6-arm64-cross, another glibc build)
# beside libc6:arm64's libc, and the two share private structures: the
# first pthread_create walked a list it read at the wrong place, forever
# (daemon/club/NOTES-table.md, "Under qemu").
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
