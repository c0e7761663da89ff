// Register access to one MFRC522 over SPI (data sheet §8.1.2): one transfer
// per register write, several register reads in one transfer, and waits in the
// same system call as a transfer. It counts what it puts on the bus so that a
// benchmark can turn a scan into bus time.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <system_error>

#include "drivers/rfid/mfrc522_registers.hpp"
#include "drivers/rfid/spi_transport.hpp"

namespace vivaref::drivers::mfrc522 {

struct BusCounters {
    std::uint64_t transfers = 0;  // chip-select frames that clocked bytes
    std::uint64_t bytes = 0;
    std::uint64_t waits = 0;  // pure waits (a system call each, no bytes)
    std::chrono::microseconds waited{0};
};

class Mfrc522Bus {
public:
    static constexpr std::size_t kFifoSize = 64;  // §8.3.1

    explicit Mfrc522Bus(SpiTransport& spi) : spi_(spi) {}

    // `settle`: then wait that long, chip still selected (SpiTransport::transfer).
    std::error_code write(Register r, std::uint8_t value,
                          std::chrono::microseconds settle = std::chrono::microseconds{0});
    std::error_code pause(std::chrono::microseconds duration);
    // Up to kFifoSize bytes into FIFODataReg in one transfer.
    std::error_code writeFifo(std::span<const std::uint8_t> data);
    std::error_code read(Register r, std::uint8_t& value);
    // values[i] = register regs[i], all in one transfer (§8.1.2.1).
    std::error_code readMany(std::span<const Register> regs, std::span<std::uint8_t> values);
    // out.size() bytes popped from the FIFO in one transfer.
    std::error_code readFifo(std::span<std::uint8_t> out);

    const BusCounters& counters() const { return counters_; }

private:
    std::error_code transfer(std::size_t size,
                             std::chrono::microseconds settle = std::chrono::microseconds{0});

    SpiTransport& spi_;
    std::array<std::uint8_t, kFifoSize + 2> tx_{};
    std::array<std::uint8_t, kFifoSize + 2> rx_{};
    BusCounters counters_;
};

}  // namespace vivaref::drivers::mfrc522
