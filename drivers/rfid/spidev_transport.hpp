// SpiTransport over Linux spidev (/dev/spidevB.C, Documentation/spi/spidev):
// mode 0, 8-bit words, MSB first, at a configurable clock, as the MFRC522
// wants (data sheet §8.1.2). Owns the open file descriptor; move-only.
#pragma once

#include <cstdint>
#include <string>

#include "drivers/rfid/chip_select.hpp"
#include "drivers/rfid/file_descriptor.hpp"
#include "drivers/rfid/spi_transport.hpp"

namespace vivaref::drivers {

struct SpidevConfig {
    std::string devicePath;             // "/dev/spidev0.0"
    std::uint32_t clockHz = 4'000'000;  // the MFRC522 takes up to 10 MHz; 4 MHz forgives long wires
};

class SpidevTransport final : public SpiTransport {
public:
    // Opens and configures the device; throws std::system_error naming the
    // device when it cannot (start-up). A ChipSelect that replaces the bus's
    // own CS line must outlive the transport.
    explicit SpidevTransport(SpidevConfig config, ChipSelect* chipSelect = nullptr);

    SpidevTransport(SpidevTransport&&) noexcept = default;
    SpidevTransport& operator=(SpidevTransport&&) noexcept = default;

    const std::string& devicePath() const { return config_.devicePath; }
    using SpiTransport::transfer;
    std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                             std::chrono::microseconds settle) override;

private:
    SpidevConfig config_;
    ChipSelect* chipSelect_;  // null: the bus's own CE line
    FileDescriptor fd_;
};

}  // namespace vivaref::drivers
