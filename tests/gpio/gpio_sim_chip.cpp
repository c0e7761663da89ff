#include "gpio_sim_chip.hpp"

#include <fstream>
#include <stdexcept>

namespace vivaref::drivers::testing {
namespace {

const std::filesystem::path kConfigRoot = "/sys/kernel/config/gpio-sim";

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path);
    out << text << std::flush;
    if (!out) throw std::runtime_error("gpio-sim: cannot write '" + text + "' to " + path.string());
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string text;
    if (!std::getline(in, text)) throw std::runtime_error("gpio-sim: cannot read " + path.string());
    return text;
}

}  // namespace

GpioSimChip::GpioSimChip(unsigned lineCount, const std::string& label) {
    if (!std::filesystem::is_directory(kConfigRoot)) {
        throw std::runtime_error(kConfigRoot.string() +
                                 " is missing: load the gpio-sim module and mount configfs");
    }
    static int created = 0;
    config_ = kConfigRoot / ("vivaref-" + std::to_string(++created));
    std::filesystem::create_directory(config_);
    std::filesystem::create_directory(config_ / "bank0");
    writeFile(config_ / "bank0" / "num_lines", std::to_string(lineCount));
    writeFile(config_ / "bank0" / "label", label);
    writeFile(config_ / "live", "1");
    chipName_ = readFile(config_ / "bank0" / "chip_name");
    device_ = std::filesystem::path("/sys/devices/platform") / readFile(config_ / "dev_name") / chipName_;
}

GpioSimChip::~GpioSimChip() {
    std::error_code ignored;
    std::ofstream(config_ / "live") << "0" << std::flush;
    std::filesystem::remove(config_ / "bank0", ignored);
    std::filesystem::remove(config_, ignored);
}

void GpioSimChip::pull(unsigned offset, bool up) const {
    writeFile(lineFile(offset, "pull"), up ? "pull-up" : "pull-down");
}

std::string GpioSimChip::pullOf(unsigned offset) const { return readFile(lineFile(offset, "pull")); }

bool GpioSimChip::value(unsigned offset) const { return readFile(lineFile(offset, "value")) == "1"; }

std::filesystem::path GpioSimChip::lineFile(unsigned offset, const char* attribute) const {
    return device_ / ("sim_gpio" + std::to_string(offset)) / attribute;
}

}  // namespace vivaref::drivers::testing
