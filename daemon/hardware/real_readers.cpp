#include "daemon/hardware/real_readers.hpp"

#include <stdexcept>
#include <system_error>

#include "drivers/rfid/spidev_transport.hpp"

namespace vivaref::hardware {

RealReaders::RealReaders(const config::CastleConfig& castle, Which which, ReaderDevices devices) {
    if (!devices.openSpi)
        devices.openSpi = [](const config::ReaderConfig& r, drivers::ChipSelect* chipSelect) {
            return std::make_unique<drivers::SpidevTransport>(drivers::SpidevConfig{r.bus, r.spiHz},
                                                              chipSelect);
        };
    for (const auto& r : castle.readers) {
        if (which == Which::BoardOnly && r.place == config::kEnrolmentPlace) continue;
        const std::string where =
            castle.sourceFile.string() + ":" + std::to_string(r.sourceLine) + ": reader " + r.name + ": ";
        if (r.type == config::ReaderType::Sim)
            throw std::runtime_error(where + "a sim reader on real hardware (use --hardware=sim)");
        Opened opened;
        if (r.type == config::ReaderType::Pn532) {
            drivers::Pn532ReaderConfig device;
            device.name = r.name;
            device.connection = r.bus;
            auto pn532 = std::make_unique<drivers::Pn532Reader>(device);
            opened.pn532 = pn532.get();
            opened.reader = std::move(pn532);
            readers_.push_back(std::move(opened));
            continue;
        }
        try {
            if (r.chipSelect) {
                const drivers::LineAddress line{{r.chipSelect->chip}, {r.chipSelect->line}};
                opened.chipSelect = devices.gpio
                                        ? std::make_unique<drivers::GpioChipSelect>(line, *devices.gpio)
                                        : std::make_unique<drivers::GpioChipSelect>(line);
            }
            opened.spi = devices.openSpi(r, opened.chipSelect.get());
        } catch (const std::system_error& e) {
            throw std::runtime_error(where + e.what());
        }
        drivers::Mfrc522ReaderConfig chip;
        chip.name = r.name;
        auto mfrc522 = std::make_unique<drivers::Mfrc522Reader>(*opened.spi, chip);
        opened.mfrc522 = mfrc522.get();
        opened.reader = std::move(mfrc522);
        readers_.push_back(std::move(opened));
    }
}

std::optional<drivers::ScanError> RealReaders::initialize(std::size_t i) {
    if (readers_[i].mfrc522) return readers_[i].mfrc522->initialize();
    return readers_[i].pn532->initialize();
}

std::chrono::microseconds RealReaders::powerUpTime(std::size_t i) const {
    return readers_[i].mfrc522 ? readers_[i].mfrc522->powerUpTime() : std::chrono::microseconds{0};
}

}  // namespace vivaref::hardware
