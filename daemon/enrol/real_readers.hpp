// The castle's real readers, opened from its configuration: MFRC522s over
// spidev on the bus's own chip select. Readers selected by a GPIO line and
// PN532s are refused for now with a sentence saying what they need.
#pragma once

#include <memory>
#include <vector>

#include "daemon/config/castle_config.hpp"
#include "drivers/rfid/mfrc522_reader.hpp"
#include "drivers/rfid/spidev_transport.hpp"

namespace vivaref::enrol {

class RealReaders {
public:
    // Opens every reader's device; throws std::runtime_error naming the
    // file, line and reader for one it cannot drive or open.
    explicit RealReaders(const config::CastleConfig& castle);

    std::size_t size() const { return readers_.size(); }
    drivers::Mfrc522Reader& operator[](std::size_t i) { return *readers_[i].reader; }

private:
    struct Opened {
        std::unique_ptr<drivers::SpidevTransport> spi;  // outlives its reader
        std::unique_ptr<drivers::Mfrc522Reader> reader;
    };
    std::vector<Opened> readers_;
};

}  // namespace vivaref::enrol
