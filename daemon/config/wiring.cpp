#include "daemon/config/wiring.hpp"

#include <array>
#include <charconv>
#include <string>

namespace vivaref::config {

namespace {

using engine::Message;
namespace say = engine::say;

// BCM GPIO 0-27 -> the 40-pin header's physical pin, the same on every Pi
// with that header (the Pi 1 B+ to the Pi 5). Written here by hand: the
// table is in the boards' schematics and in Python libraries (gpiozero's
// pin data), but no Debian package gives it to C++, and it will not change.
constexpr std::array<int, 28> kHeaderPinOfBcm = {
    27, 28, 3,  5,  7,  29, 31, 26, 24, 21, 19, 23, 32, 33,  // GPIO 0-13
    8,  10, 36, 11, 12, 35, 38, 40, 15, 16, 18, 22, 37, 13,  // GPIO 14-27
};

// "/dev/spidev0.1" -> bus 0, chip select 1.
struct SpiDevice {
    unsigned bus = 0;
    unsigned chipSelect = 0;
};

std::optional<SpiDevice> spiDeviceOf(std::string_view path) {
    constexpr std::string_view prefix = "/dev/spidev";
    if (!path.starts_with(prefix)) return std::nullopt;
    path.remove_prefix(prefix.size());
    const auto dot = path.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    SpiDevice device;
    const auto busText = path.substr(0, dot), csText = path.substr(dot + 1);
    auto number = [](std::string_view text, unsigned& out) {
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        return !text.empty() && ec == std::errc() && end == text.data() + text.size();
    };
    if (!number(busText, device.bus) || !number(csText, device.chipSelect)) return std::nullopt;
    return device;
}

}  // namespace

std::optional<int> headerPinOf(const GpioLine& line) {
    if (line.chip != "gpiochip0" || line.line >= kHeaderPinOfBcm.size()) return std::nullopt;
    return kHeaderPinOfBcm[line.line];
}

std::optional<GpioLine> spiOwnChipSelect(std::string_view bus) {
    const auto device = spiDeviceOf(bus);
    if (!device) return std::nullopt;
    // SPI0: CE0 GPIO 8, CE1 GPIO 7; SPI1 (an overlay): CE0-CE2 GPIO 18, 17, 16.
    if (device->bus == 0 && device->chipSelect <= 1) return GpioLine{"gpiochip0", 8 - device->chipSelect};
    if (device->bus == 1 && device->chipSelect <= 2) return GpioLine{"gpiochip0", 18 - device->chipSelect};
    return std::nullopt;
}

Message describeLine(const GpioLine& line) {
    if (auto pin = headerPinOf(line))
        return Message("castle.wiring.header-line", {{"gpio", say::text(std::to_string(line.line))},
                                                     {"pin", say::text(std::to_string(*pin))}});
    return Message("castle.wiring.chip-line",
                   {{"chip", say::text(line.chip)}, {"line", say::text(std::to_string(line.line))}});
}

std::optional<Message> describeChipSelect(const ReaderConfig& reader) {
    if (reader.type != ReaderType::Mfrc522) return std::nullopt;
    if (reader.chipSelect) return describeLine(*reader.chipSelect);
    const auto device = spiDeviceOf(reader.bus);
    const auto own = spiOwnChipSelect(reader.bus);
    if (!device || !own) return Message("castle.wiring.bus-cs", {{"bus", say::text(reader.bus)}});
    return Message("castle.wiring.own-cs", {{"ce", say::text(std::to_string(device->chipSelect))},
                                            {"line", say::message(describeLine(*own))}});
}

Message describeReaderWiring(const ReaderConfig& reader) {
    switch (reader.type) {
        case ReaderType::Sim:
            return Message("castle.wiring.reader-sim");
        case ReaderType::Pn532:
            return Message("castle.wiring.reader-pn532", {{"bus", say::text(reader.bus)}});
        case ReaderType::Mfrc522:
            break;
    }
    return Message("castle.wiring.reader-spi",
                   {{"cs", say::message(*describeChipSelect(reader))}, {"bus", say::text(reader.bus)}});
}

}  // namespace vivaref::config
