// A full-duplex SPI link to one chip: each transfer clocks `tx` out while
// clocking the same number of bytes into `rx`, with the chip selected for the
// whole transfer. The real one is SpidevTransport; tests plug in an emulated
// chip. Failures are values: the scan loop logs them and goes on.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <system_error>

namespace vivaref::drivers {

class SpiTransport {
public:
    virtual ~SpiTransport() = default;

    // rx.size() == tx.size(); rx may not alias tx.
    std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx) {
        return transfer(tx, rx, std::chrono::microseconds{0});
    }
    // The same, then waits `settle` before returning, in the same system call
    // (spidev's delay_usecs): the driver lets the radio work instead of polling
    // the bus. Empty tx and rx: only the wait. In the emulation, virtual time passes.
    virtual std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                                     std::chrono::microseconds settle) = 0;
};

}  // namespace vivaref::drivers
