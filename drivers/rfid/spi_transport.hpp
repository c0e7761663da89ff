// A full-duplex SPI link to one chip: each transfer clocks `tx` out while
// clocking the same number of bytes into `rx`, with the chip selected for the
// whole transfer. The real one is SpidevTransport; tests plug in an emulated
// chip. Failures are values: the scan loop logs them and goes on.
#pragma once

#include <cstdint>
#include <span>
#include <system_error>

namespace vivaref::drivers {

class SpiTransport {
public:
    virtual ~SpiTransport() = default;

    // rx.size() == tx.size(); rx may not alias tx.
    virtual std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx) = 0;
};

}  // namespace vivaref::drivers
