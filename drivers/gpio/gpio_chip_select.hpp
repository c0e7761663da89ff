// A reader's chip-select on a GPIO line, for the MFRC522 readers beyond the
// SPI bus's own CE lines: the spidev device then runs with SPI_NO_CS and this
// line is driven around each transfer (ChipSelect, drivers/rfid/).
#pragma once

#include <memory>

#include "drivers/gpio/gpio_chip.hpp"
#include "drivers/rfid/chip_select.hpp"

namespace vivaref::drivers {

class GpioChipSelect final : public ChipSelect {
public:
    // Requests the line as an output, deselected. Chip-selects are active
    // low (the MFRC522's NSS). Throws std::system_error naming the line.
    GpioChipSelect(const LineAddress& line, GpioLines& lines, Polarity polarity = Polarity::ActiveLow);
    // The same on the kernel's lines.
    explicit GpioChipSelect(const LineAddress& line, Polarity polarity = Polarity::ActiveLow);

    GpioChipSelect(GpioChipSelect&&) noexcept = default;
    GpioChipSelect& operator=(GpioChipSelect&&) noexcept = default;

    bool replacesBusChipSelect() const override { return true; }
    std::error_code select() override { return line_->write(true); }
    std::error_code deselect() override { return line_->write(false); }

    const LineAddress& line() const { return address_; }

private:
    LineAddress address_;
    std::unique_ptr<OutputLine> line_;
};

}  // namespace vivaref::drivers
