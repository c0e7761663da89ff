// The PN532 tests' main: skips (exit 77) where the system has no
// pseudo-terminals, and keeps libnfc away from the machine's own devices and
// settings: no auto-scan of serial ports, no intrusive probing, quiet logs
// (set LIBNFC_LOG_LEVEL=3 to watch every frame).
#include <stdlib.h>

#include <iostream>

#include <doctest/doctest.h>

#include "tests/drivers/fake_pn532.hpp"

int main(int argc, char** argv) {
    std::string why;
    if (!vivaref::drivers::emulation::FakePn532::open(why)) {
        std::cout << "SKIP: no pseudo-terminal for the fake PN532 (" << why << ")\n";
        return 77;
    }
    // The readers name their device; these keep libnfc's configuration file
    // (/etc/nfc/libnfc.conf) from adding or probing any other.
    ::setenv("LIBNFC_AUTO_SCAN", "false", 1);
    ::setenv("LIBNFC_INTRUSIVE_SCAN", "false", 1);
    ::unsetenv("LIBNFC_DEFAULT_DEVICE");
    ::unsetenv("LIBNFC_DEVICE");
    ::setenv("LIBNFC_LOG_LEVEL", "0", 0);

    doctest::Context context(argc, argv);
    return context.run();
}
