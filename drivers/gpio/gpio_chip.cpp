#include "drivers/gpio/gpio_chip.hpp"

namespace vivaref::drivers {

std::string describeLine(const LineAddress& line) {
    return line.chip.name + " line " + std::to_string(line.offset.value);
}

const char* biasName(Bias bias) {
    switch (bias) {
        case Bias::AsIs:
            return "as-is";
        case Bias::Disabled:
            return "disabled";
        case Bias::PullUp:
            return "pull-up";
        case Bias::PullDown:
            return "pull-down";
    }
    return "?";
}

std::optional<Bias> biasFromName(std::string_view name) {
    for (Bias bias : {Bias::AsIs, Bias::Disabled, Bias::PullUp, Bias::PullDown}) {
        if (name == biasName(bias)) return bias;
    }
    return std::nullopt;
}

std::string GpioFault::message() const { return line + ": " + error.message(); }

}  // namespace vivaref::drivers
