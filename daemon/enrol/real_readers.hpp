// The castle's real readers, opened from its configuration: MFRC522s over
// spidev, selected by the device's own chip select or by a GPIO line
// (drivers/gpio/), and PN532s through libnfc.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "daemon/config/castle_config.hpp"
#include "drivers/gpio/gpio_chip_select.hpp"
#include "drivers/rfid/mfrc522_reader.hpp"
#include "drivers/rfid/pn532_reader.hpp"
#include "drivers/rfid/spidev_transport.hpp"

namespace vivaref::enrol {

class RealReaders {
public:
    // Opens every reader's device and chip select; throws std::runtime_error
    // naming the file, line and reader for one it cannot open. Does not talk
    // to the chips yet: initialize() does.
    explicit RealReaders(const config::CastleConfig& castle);

    std::size_t size() const { return readers_.size(); }
    drivers::TagReader& operator[](std::size_t i) { return *readers_[i].reader; }
    // Reset and check the chip (at start, and after it stopped answering).
    std::optional<drivers::ScanError> initialize(std::size_t i);

private:
    struct Opened {
        std::unique_ptr<drivers::GpioChipSelect>
            chipSelect;                                 // null: the device's own; outlives the transport
        std::unique_ptr<drivers::SpidevTransport> spi;  // MFRC522 only; outlives its reader
        std::unique_ptr<drivers::TagReader> reader;
        drivers::Mfrc522Reader* mfrc522 = nullptr;  // whichever `reader` is
        drivers::Pn532Reader* pn532 = nullptr;
    };
    std::vector<Opened> readers_;
};

}  // namespace vivaref::enrol
