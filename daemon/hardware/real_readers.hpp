// The castle's real readers, opened from its configuration: MFRC522s over
// spidev, selected by the device's own chip select or by a GPIO line
// (drivers/gpio/), and PN532s through libnfc. `vivaref enrol` and
// `vivaref serve --hardware=real` both open them here.
//
// Where the devices come from is injectable (ReaderDevices): on a Pi the SPI
// devices are spidev and the chip-select lines the kernel's; the tests give
// emulated MFRC522 chips behind the SPI interface and in-memory GPIO lines,
// so the real driver code runs against an emulation of the chip.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "daemon/config/castle_config.hpp"
#include "drivers/gpio/gpio_chip.hpp"
#include "drivers/gpio/gpio_chip_select.hpp"
#include "drivers/rfid/mfrc522_reader.hpp"
#include "drivers/rfid/pn532_reader.hpp"
#include "drivers/rfid/spi_transport.hpp"

namespace vivaref::hardware {

// Opens an MFRC522 reader's SPI link; `chipSelect` (null: the device's own
// CE line) outlives the link. Throws std::system_error naming the device.
using SpiOpener = std::function<std::unique_ptr<drivers::SpiTransport>(const config::ReaderConfig& reader,
                                                                       drivers::ChipSelect* chipSelect)>;

struct ReaderDevices {
    SpiOpener openSpi;                   // empty: spidev (drivers/rfid/spidev_transport.hpp)
    drivers::GpioLines* gpio = nullptr;  // chip-select lines; null: the kernel's; must outlive the readers
};

class RealReaders {
public:
    // Which of the configuration's readers: every one (enrolment), or those
    // under the board's places only (a game ignores the enrolment reader).
    enum class Which { All, BoardOnly };

    // Opens every reader's device and chip select, in the configuration's
    // order; throws std::runtime_error "FILE:LINE: reader NAME: what" for one
    // it cannot open. Does not talk to the chips yet: initialize() does.
    explicit RealReaders(const config::CastleConfig& castle, Which which = Which::All,
                         ReaderDevices devices = {});

    std::size_t size() const { return readers_.size(); }
    drivers::TagReader& operator[](std::size_t i) { return *readers_[i].reader; }
    // The same reader when it is an MFRC522 (whose scans may be interleaved on the bus), else null.
    drivers::Mfrc522Reader* mfrc522(std::size_t i) { return readers_[i].mfrc522; }
    const drivers::Mfrc522Reader* mfrc522(std::size_t i) const { return readers_[i].mfrc522; }
    // The same reader when it is a PN532, else null.
    const drivers::Pn532Reader* pn532(std::size_t i) const { return readers_[i].pn532; }
    // Reset and check the chip (at start, and after it stopped answering).
    // Bounded: every bus wait of the drivers is (their headers say how).
    std::optional<drivers::ScanError> initialize(std::size_t i);
    // How long the tags need in the field between antennaOn() and scan()
    // (zero for a PN532, whose own command waits).
    std::chrono::microseconds powerUpTime(std::size_t i) const;

private:
    struct Opened {
        std::unique_ptr<drivers::GpioChipSelect>
            chipSelect;                              // null: the device's own; outlives the transport
        std::unique_ptr<drivers::SpiTransport> spi;  // MFRC522 only; outlives its reader
        std::unique_ptr<drivers::TagReader> reader;
        drivers::Mfrc522Reader* mfrc522 = nullptr;  // whichever `reader` is
        drivers::Pn532Reader* pn532 = nullptr;
    };
    std::vector<Opened> readers_;
};

}  // namespace vivaref::hardware
