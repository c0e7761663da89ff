// A castle's wiring said to a person: a GPIO line as its Raspberry Pi
// header pin ("GPIO 23, header pin 16"), an expander's line as its chip and
// line ("gpiochip4 line 0"), a reader as what selects it and on which bus.
// The self-test's and the set-up's fixes name wires with these (issue 36),
// as Messages: the words are the catalogs' `castle.wiring.*`.
#pragma once

#include <optional>
#include <string_view>

#include "daemon/config/castle_config.hpp"
#include "engine/message.hpp"

namespace vivaref::config {

// The 40-pin header's physical pin of a Raspberry Pi GPIO line: gpiochip0's
// lines 0-27 (the BCM numbers) on every 40-pin Pi; none for any other chip
// or line (an expander, or a line not on the header).
std::optional<int> headerPinOf(const GpioLine& line);

// The GPIO line of a spidev device's own chip select: /dev/spidev0.0 is
// CE0 (GPIO 8), /dev/spidev0.1 CE1 (GPIO 7); SPI1's CE0-CE2 are GPIO 18,
// 17, 16. None for a device of another name or bus.
std::optional<GpioLine> spiOwnChipSelect(std::string_view bus);

// A line for a person: `castle.wiring.header-line` ("GPIO 23, header pin
// 16") on the header, else `castle.wiring.chip-line` ("gpiochip4 line 0").
engine::Message describeLine(const GpioLine& line);

// How a reader is wired, for a person: its chip select (a GPIO line, or
// its bus's own CE line) and its bus; a PN532's connection; a simulated
// reader as such.
engine::Message describeReaderWiring(const ReaderConfig& reader);

// Its chip select alone, in words (describeLine, or the bus's own CE line):
// the first thing to check on a reader that does not answer. None for a
// reader without one (PN532, simulated).
std::optional<engine::Message> describeChipSelect(const ReaderConfig& reader);

}  // namespace vivaref::config
