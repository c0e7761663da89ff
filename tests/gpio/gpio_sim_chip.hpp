// A gpio-sim chip (Documentation/admin-guide/gpio/gpio-sim.rst) made through
// configfs for one test and removed after it: the emulation the libgpiod
// backend is tested against. Inputs are driven through each line's `pull`
// attribute, outputs read through `value` (the electrical level, before any
// active-low), both under /sys/devices/platform/<device>/<chip>/sim_gpioN/.
#pragma once

#include <filesystem>
#include <string>

namespace vivaref::drivers::testing {

class GpioSimChip {
public:
    // Needs the gpio-sim module loaded and configfs mounted on /sys/kernel/config.
    explicit GpioSimChip(unsigned lineCount, const std::string& label = "vivaref-sim");
    ~GpioSimChip();
    GpioSimChip(const GpioSimChip&) = delete;
    GpioSimChip& operator=(const GpioSimChip&) = delete;

    const std::string& chipName() const { return chipName_; }  // "gpiochip0"

    void pull(unsigned offset, bool up) const;
    std::string pullOf(unsigned offset) const;  // "pull-up" or "pull-down"
    bool value(unsigned offset) const;

private:
    std::filesystem::path lineFile(unsigned offset, const char* attribute) const;

    std::filesystem::path config_;  // /sys/kernel/config/gpio-sim/<name>
    std::filesystem::path device_;  // /sys/devices/platform/<device>/<chip>
    std::string chipName_;
};

}  // namespace vivaref::drivers::testing
