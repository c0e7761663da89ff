#include "drivers/gpio/gpio_chip_select.hpp"

namespace vivaref::drivers {

GpioChipSelect::GpioChipSelect(const LineAddress& line, GpioLines& lines, Polarity polarity)
    : address_(line), line_(lines.requestOutput(line, polarity, false)) {}

GpioChipSelect::GpioChipSelect(const LineAddress& line, Polarity polarity)
    : GpioChipSelect(line, *kernelGpioLines(), polarity) {}

}  // namespace vivaref::drivers
