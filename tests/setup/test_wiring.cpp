// A castle's wiring in words: a Raspberry Pi's GPIO line with its header
// pin, an expander's line, a reader's chip select and bus.
#include <set>

#include <doctest/doctest.h>

#include "daemon/config/wiring.hpp"
#include "daemon/words/words.hpp"

using namespace vivaref;
using config::GpioLine;

namespace {

std::string wiringText(const engine::Message& m, std::string_view language = "en") {
    return words::Words(language, words::NameMarks::Plain).say(m);
}

config::ReaderConfig mfrc522(std::string bus, std::optional<GpioLine> cs) {
    config::ReaderConfig r;
    r.name = "floor3-b";
    r.place = "3";
    r.bus = std::move(bus);
    r.chipSelect = std::move(cs);
    return r;
}

}  // namespace

TEST_CASE("wiring: gpiochip0's BCM lines on the 40-pin header") {
    // The corners and a few a castle uses (pinout.xyz agrees).
    CHECK(config::headerPinOf({"gpiochip0", 0}) == 27);
    CHECK(config::headerPinOf({"gpiochip0", 2}) == 3);
    CHECK(config::headerPinOf({"gpiochip0", 7}) == 26);
    CHECK(config::headerPinOf({"gpiochip0", 8}) == 24);
    CHECK(config::headerPinOf({"gpiochip0", 14}) == 8);
    CHECK(config::headerPinOf({"gpiochip0", 17}) == 11);
    CHECK(config::headerPinOf({"gpiochip0", 21}) == 40);
    CHECK(config::headerPinOf({"gpiochip0", 23}) == 16);
    CHECK(config::headerPinOf({"gpiochip0", 27}) == 13);
    // Off the header, or another chip: no pin.
    CHECK_FALSE(config::headerPinOf({"gpiochip0", 28}));
    CHECK_FALSE(config::headerPinOf({"gpiochip4", 0}));
    // Every header pin at most once, none of the power or ground pins.
    std::set<int> pins;
    for (unsigned line = 0; line < 28; ++line) {
        const auto pin = config::headerPinOf({"gpiochip0", line});
        REQUIRE(pin);
        CHECK(pins.insert(*pin).second);
        for (int power : {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}) CHECK(*pin != power);
    }
}

TEST_CASE("wiring: a line for a person, in four languages") {
    CHECK(wiringText(config::describeLine({"gpiochip0", 23})) == "GPIO 23, header pin 16");
    CHECK(wiringText(config::describeLine({"gpiochip4", 0})) == "gpiochip4 line 0");
    CHECK(wiringText(config::describeLine({"gpiochip2", 1000})) ==
          "gpiochip2 line 1000");  // an identifier: no grouping
    CHECK(wiringText(config::describeLine({"gpiochip0", 23}), "fr") == "GPIO 23, broche 16 du connecteur");
    CHECK(wiringText(config::describeLine({"gpiochip0", 23}), "de") == "GPIO 23, Pin 16 der Stiftleiste");
    CHECK(wiringText(config::describeLine({"gpiochip0", 23}), "it") == "GPIO 23, pin 16 del connettore");
}

TEST_CASE("wiring: a reader's chip select, its own CE line or a GPIO line") {
    CHECK(config::spiOwnChipSelect("/dev/spidev0.0") == GpioLine{"gpiochip0", 8});
    CHECK(config::spiOwnChipSelect("/dev/spidev0.1") == GpioLine{"gpiochip0", 7});
    CHECK(config::spiOwnChipSelect("/dev/spidev1.2") == GpioLine{"gpiochip0", 16});
    CHECK_FALSE(config::spiOwnChipSelect("/dev/spidev0.2"));
    CHECK_FALSE(config::spiOwnChipSelect("/dev/spidev0"));
    CHECK_FALSE(config::spiOwnChipSelect("/dev/ttyS0"));

    CHECK(wiringText(*config::describeChipSelect(mfrc522("/dev/spidev0.0", std::nullopt))) ==
          "CE0 (GPIO 8, header pin 24)");
    CHECK(wiringText(*config::describeChipSelect(mfrc522("/dev/spidev0.1", std::nullopt))) ==
          "CE1 (GPIO 7, header pin 26)");
    CHECK(wiringText(*config::describeChipSelect(mfrc522("/dev/spidev3.0", std::nullopt))) ==
          "the own chip select of /dev/spidev3.0");
    CHECK(wiringText(config::describeReaderWiring(mfrc522("/dev/spidev0.1", GpioLine{"gpiochip0", 23}))) ==
          "chip select GPIO 23, header pin 16 on /dev/spidev0.1");
    CHECK(wiringText(config::describeReaderWiring(mfrc522("/dev/spidev0.1", GpioLine{"gpiochip4", 3}))) ==
          "chip select gpiochip4 line 3 on /dev/spidev0.1");

    auto pn532 = mfrc522("pn532_uart:/dev/ttyS0", std::nullopt);
    pn532.type = config::ReaderType::Pn532;
    CHECK_FALSE(config::describeChipSelect(pn532));
    CHECK(wiringText(config::describeReaderWiring(pn532)) == "a PN532 on pn532_uart:/dev/ttyS0");
    auto sim = mfrc522("", std::nullopt);
    sim.type = config::ReaderType::Sim;
    CHECK(wiringText(config::describeReaderWiring(sim)) == "a simulated reader");
}
