// The check that a chip dying in the middle of a scan gives an error and
// never tags: for each number of SPI transfers the scan takes, a fresh reader
// whose chip stops answering after that many (its MISO stuck low, then high).
// Shared by the test files of the reader's scans that rely on what it knew.
#pragma once

#include <cstdint>

#include <doctest/doctest.h>

#include "tests/drivers/emulated_reader.hpp"

namespace vivaref::drivers::emulation {

// `prepare(reader)` sets up a fresh reader as the scan under test expects;
// the chip then dies after 0, 1, ... `transfers` - 1 transfers, and
// `forgot(reader)` says whether the reader dropped what it knew (a failed
// scan forgets: the next one inventories).
template <class Prepare, class Forgot>
void checkDyingChip(std::uint64_t transfers, Prepare prepare, Forgot forgot) {
    for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        for (std::uint64_t after = 0; after < transfers; ++after) {
            CAPTURE(int(value));
            CAPTURE(after);
            EmulatedReader r;
            prepare(r);
            r.reader.antennaOff();
            r.reader.antennaOn();
            r.chip.dieAfterTransfers(after, value);
            const ScanResult result = r.reader.scan();
            INFO(describe(result));
            REQUIRE_FALSE(result.ok());
            CHECK((result.error().kind == ScanErrorKind::NoAnswer ||
                   result.error().kind == ScanErrorKind::Protocol));
            CHECK(forgot(r));
        }
    }
}

}  // namespace vivaref::drivers::emulation
