#include <doctest/doctest.h>

#include "drivers/gpio/gpio_chip_select.hpp"
#include "memory_gpio_lines.hpp"

using namespace vivaref::drivers;
using vivaref::drivers::testing::MemoryGpioLines;

TEST_CASE("A GPIO chip-select starts deselected, replaces the bus's CS and is active low") {
    MemoryGpioLines lines;
    const LineAddress line{{"gpiochip0"}, {8}};
    GpioChipSelect cs(line, lines);
    CHECK(cs.replacesBusChipSelect());
    CHECK(lines.output(line).polarity == Polarity::ActiveLow);
    CHECK_FALSE(lines.output(line).level);
    CHECK_FALSE(cs.select());
    CHECK(lines.output(line).level);
    CHECK_FALSE(cs.deselect());
    CHECK_FALSE(lines.output(line).level);
    CHECK_THROWS_AS(GpioChipSelect(line, lines), std::system_error);  // the line is taken
}
