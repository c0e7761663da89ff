#include "daemon/enrol/real_readers.hpp"

#include <stdexcept>
#include <system_error>

namespace vivaref::enrol {

RealReaders::RealReaders(const config::CastleConfig& castle) {
    for (const auto& r : castle.readers) {
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
                opened.chipSelect = std::make_unique<drivers::GpioChipSelect>(
                    drivers::LineAddress{{r.chipSelect->chip}, {r.chipSelect->line}});
            }
            opened.spi = std::make_unique<drivers::SpidevTransport>(drivers::SpidevConfig{r.bus, r.spiHz},
                                                                    opened.chipSelect.get());
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

}  // namespace vivaref::enrol
