#include "daemon/config/unit_access.hpp"

#include <set>
#include <sstream>

namespace vivaref::config {

namespace {

// The node of a GPIO chip: the configuration names chips as the kernel's
// "gpiochipN" (config_values.cpp refuses anything else).
void addChip(const std::string& chip, std::set<std::string>& devices) { devices.insert("/dev/" + chip); }

// The group that owns a device node on Debian and Raspberry Pi OS
// (systemd/60-vivaref.rules for the first three).
std::string groupOf(const std::string& device) {
    if (device.starts_with("/dev/gpiochip")) return "gpio";
    if (device.starts_with("/dev/spidev")) return "spi";
    if (device.starts_with("/dev/i2c")) return "i2c";
    return "dialout";  // serial ports: ttyS, ttyAMA, ttyUSB, serial0
}

// The device of a reader's bus: the spidev node of an MFRC522, the node in
// a libnfc connection string ("pn532_uart:/dev/ttyS0:115200").
std::string readerDevice(const ReaderConfig& reader) {
    if (reader.type != ReaderType::Pn532) return reader.bus;
    const auto start = reader.bus.find(':');
    if (start == std::string::npos) return {};
    const auto end = reader.bus.find(':', start + 1);
    return reader.bus.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
}

}  // namespace

UnitAccess unitAccess(const CastleConfig& config) {
    UnitAccess access;
    access.port = config.daemon.httpPort;
    // The voice's sound card, whenever serve opens espeak-ng (daemon/voice/NOTES.md):
    // ALSA's device nodes, owned by the audio group.
    const auto output = config.voice.output;
    const bool speaks = output == VoiceOutput::Espeak ||
                        (output == VoiceOutput::Auto && config.daemon.hardware == Hardware::Real);
    if (config.daemon.hardware == Hardware::Sim) {
        if (speaks) {
            access.devices = {"char-alsa"};
            access.groups = {"audio"};
        }
        return access;
    }
    std::set<std::string> devices;
    for (const auto& reader : config.readers) {
        if (reader.type == ReaderType::Sim) continue;
        if (const auto device = readerDevice(reader); device.starts_with("/dev/")) devices.insert(device);
        if (reader.chipSelect) addChip(reader.chipSelect->chip, devices);
    }
    const auto addPin = [&](const std::optional<GpioPin>& pin) {
        if (pin) addChip(pin->gpio.chip, devices);
    };
    for (const auto& station : config.stations) {
        addPin(station.yes);
        addPin(station.no);
        addPin(station.stomachache);
        addPin(station.led);
    }
    for (const auto& [place, pin] : config.placeLeds) addChip(pin.gpio.chip, devices);
    for (const auto& [seat, pin] : config.turnLeds) addChip(pin.gpio.chip, devices);

    std::set<std::string> groups;
    for (const auto& device : devices) groups.insert(groupOf(device));
    if (speaks) {
        devices.insert("char-alsa");  // every ALSA node (/dev/snd/*), as systemd names the class
        groups.insert("audio");
    }
    access.devices.assign(devices.begin(), devices.end());
    access.groups.assign(groups.begin(), groups.end());
    return access;
}

std::string unitDropIn(const UnitAccess& access, const std::string& source) {
    std::ostringstream out;
    out << "# Written by 'vivaref unit-access' from " << source << ":\n"
        << "# the devices, groups and port that configuration uses, and no others.\n"
        << "# Made again at every 'systemctl daemon-reload' (systemd/vivaref-generator).\n"
        << "[Service]\n"
        << "DeviceAllow=\n";
    for (const auto& device : access.devices) out << "DeviceAllow=" << device << " rw\n";
    out << "SupplementaryGroups=\n";
    if (!access.groups.empty()) {
        out << "SupplementaryGroups=";
        for (std::size_t i = 0; i < access.groups.size(); ++i) out << (i ? " " : "") << access.groups[i];
        out << "\n";
    }
    out << "SocketBindAllow=\n"
        << "SocketBindAllow=tcp:" << access.port << "\n";
    // With no device group to keep, the service can run in a user namespace
    // of its own (a group unmapped there could not be joined, hence only then).
    if (access.groups.empty()) out << "PrivateUsers=yes\n";
    return out.str();
}

}  // namespace vivaref::config
