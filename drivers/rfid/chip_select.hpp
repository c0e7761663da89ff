// Who drives a chip's select line. With a handful of readers the SPI bus's own
// CE lines do (BusChipSelect, nothing to do). The castle has 28 readers, more
// than the Pi has CE lines, so a GPIO line per reader drives it: that
// implementation is GpioChipSelect (drivers/gpio/, libgpiod).
#pragma once

#include <system_error>

namespace vivaref::drivers {

class ChipSelect {
public:
    virtual ~ChipSelect() = default;

    // The bus's own CS must then stay out of the way (SPI_NO_CS).
    virtual bool replacesBusChipSelect() const = 0;
    virtual std::error_code select() = 0;    // drive the line active (low) before a transfer
    virtual std::error_code deselect() = 0;  // and inactive after it
};

// The spidev device's own CE line: the kernel toggles it around each transfer.
class BusChipSelect final : public ChipSelect {
public:
    bool replacesBusChipSelect() const override { return false; }
    std::error_code select() override { return {}; }
    std::error_code deselect() override { return {}; }
};

}  // namespace vivaref::drivers
