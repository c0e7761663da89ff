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
        if (r.type == config::ReaderType::Pn532)
            throw std::runtime_error(where +
                                     "enrol drives MFRC522 readers only for now; a PN532 needs the libnfc "
                                     "reader wired in here");
        if (r.chipSelect) {
            throw std::runtime_error(where + "GPIO chip-select " + r.chipSelect->text() +
                                     " needs the libgpiod chip-select driver (drivers/gpio/), not wired into "
                                     "enrol yet; only chip_select = bus works for now");
        }
        Opened opened;
        try {
            opened.spi = std::make_unique<drivers::SpidevTransport>(drivers::SpidevConfig{r.bus, r.spiHz});
        } catch (const std::system_error& e) {
            throw std::runtime_error(where + e.what());
        }
        drivers::Mfrc522ReaderConfig chip;
        chip.name = r.name;
        opened.reader = std::make_unique<drivers::Mfrc522Reader>(*opened.spi, chip);
        readers_.push_back(std::move(opened));
    }
}

}  // namespace vivaref::enrol
