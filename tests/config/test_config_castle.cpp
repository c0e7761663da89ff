// The checks that need the whole castle: GPIO lines used twice, places
// without a reader, readers sharing a bus and chip select, stations and
// their keys, hardware that cannot be.
#include <doctest/doctest.h>

#include "config_test_helpers.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::classicReaders;
using testing::problemTexts;
using Strings = std::vector<std::string>;

TEST_CASE("the same GPIO line twice, anywhere: buttons, LEDs, chip selects") {
    CHECK(problemTexts("[station.0]\nyes = gpiochip0:5\nno = gpiochip0:5\n") ==
          Strings{"castle.ini:3: station.0.no: gpiochip0:5 is already used by station.0.yes (line 2)"});
    CHECK(problemTexts("[leds]\nturn.0 = gpiochip2:1\n[station.0]\nyes = gpiochip0:5\nno = gpiochip0:6\n"
                       "led = gpiochip2:1 active-low\n") ==
          Strings{"castle.ini:6: station.0.led: gpiochip2:1 is already used by leds.turn.0 (line 2)"});
    CHECK(problemTexts(classicReaders() +
                       "[reader.x]\nplace = 3\nbus = /dev/spidev9.0\nchip_select = gpiochip0:17\n"
                       "[leds]\nplace.3 = gpiochip0:17\n") ==
          Strings{
              "castle.ini:27: leds.place.3: gpiochip0:17 is already used by reader.x.chip_select (line 25)"});
    CHECK(
        problemTexts(classicReaders() +
                     "[reader.x]\nplace = 3\nbus = /dev/spidev9.0\nchip_select = gpiochip0:17\n"
                     "[reader.y]\nplace = 4\nbus = /dev/spidev10.0\nchip_select = gpiochip0:17\n") ==
        Strings{
            "castle.ini:29: reader.y.chip_select: gpiochip0:17 is already used by reader.x.chip_select (line "
            "25)"});
    // The same line number on another chip is another line.
    CHECK(problemTexts("[station.0]\nyes = gpiochip0:5\nno = gpiochip1:5\n").empty());
}

TEST_CASE("every place of the edition needs a reader once any reader is configured") {
    CHECK(check(classicReaders()).problems.empty());
    const auto p = problemTexts("[castle]\nedition = 2024\n" + classicReaders());
    CHECK(p ==
          Strings{"castle.ini: place wc3 has no reader: add a [reader.NAME] with place = wc3",
                  "castle.ini: place wc4 has no reader: add a [reader.NAME] with place = wc4",
                  "castle.ini: place dungeon1 has no reader: add a [reader.NAME] with place = dungeon1",
                  "castle.ini: place dungeon2 has no reader: add a [reader.NAME] with place = dungeon2",
                  "castle.ini: place dungeon3 has no reader: add a [reader.NAME] with place = dungeon3"});
    // An enrolment reader serves no place of the castle.
    CHECK(problemTexts("[reader.e]\nplace = enrolment\nbus = /dev/spidev0.0\n").size() == 7);
}

TEST_CASE("two readers on one bus and chip select") {
    const std::string rest = classicReaders();
    CHECK(
        problemTexts(rest + "[reader.x]\nplace = 3\nbus = /dev/spidev3.0\nchip_select = bus\n") ==
        Strings{
            "castle.ini:24: reader.x.bus: reader r3 (line 10) already uses /dev/spidev3.0 with the device's "
            "own chip select: give one of them chip_select = gpiochipN:LINE"});
    CHECK(problemTexts(rest + "[reader.x]\nplace = 3\ntype = pn532\nbus = pn532_uart:/dev/ttyS0\n"
                              "[reader.y]\nplace = 4\ntype = pn532\nbus = pn532_uart:/dev/ttyS0:115200\n") ==
          Strings{"castle.ini:29: reader.y.bus: reader x (line 22) already uses /dev/ttyS0"});
    // GPIO-selected readers share a device, but not with one on the device's own chip select.
    CHECK(problemTexts(rest + "[reader.x]\nplace = 3\nbus = /dev/spidev9.0\nchip_select = gpiochip0:20\n"
                              "[reader.y]\nplace = 4\nbus = /dev/spidev9.0\nchip_select = gpiochip0:21\n")
              .empty());
    CHECK(
        problemTexts(rest + "[reader.x]\nplace = 3\nbus = /dev/spidev0.0\nchip_select = gpiochip0:20\n"
                            "[reader.y]\nplace = 4\nbus = /dev/spidev0.0\nchip_select = gpiochip0:21\n") ==
        Strings{
            "castle.ini:24: reader.x.bus: reader r0 (line 1) uses /dev/spidev0.0 with its own chip select, "
            "which a GPIO chip select on the same device turns off (and 1 other GPIO-selected readers): put "
            "the GPIO-selected readers on another spidev device"});
}

TEST_CASE("vote stations: their keys, numbered as the seats from 0 without gaps") {
    CHECK(problemTexts("[station.0]\nyes = gpiochip0:1\n") ==
          Strings{"castle.ini:1: station.0.no: station 0 has no 'no' button"});
    CHECK(problemTexts("[station.0]\n") ==
          Strings{"castle.ini:1: station.0.yes: station 0 has no 'yes' button",
                  "castle.ini:1: station.0.no: station 0 has no 'no' button"});
    // The 2024 edition votes with Stomachache too; the classic one has no such card.
    CHECK(problemTexts("[castle]\nedition = 2024\n[station.0]\nyes = gpiochip0:1\nno = gpiochip0:2\n") ==
          Strings{
              "castle.ini:3: station.0.stomachache: station 0 has no 'stomachache' button (the 2024 edition "
              "votes with it)"});
    CHECK(
        problemTexts("[station.0]\nyes = gpiochip0:1\nno = gpiochip0:2\ncolour = red\n") ==
        Strings{
            "castle.ini:4: station.0.colour: unknown key in [station.0]; its keys are yes, no, stomachache, "
            "led"});
    CHECK(problemTexts("[station.1]\nyes = gpiochip0:1\nno = gpiochip0:2\n") ==
          Strings{
              "castle.ini:1: [station.1]: there is no station 0: stations are numbered as the seats, from 0 "
              "without gaps"});
    CHECK(problemTexts("[station.0]\nyes = gpiochip0:1\nno = gpiochip0:2\n[station.00]\nyes = gpiochip0:3\n"
                       "no = gpiochip0:4\n") ==
          Strings{"castle.ini:4: [station.0]: station 0 is configured twice"});
    CHECK(problemTexts("[station.8]\n") ==
          Strings{"castle.ini:1: [station.8]: a station is numbered as its seat, from 0 to 7: [station.0]"});
    CHECK(problemTexts("[station.0]\nyes = gpiochip0:1\nno = gpiochip0:2\n[leds]\nturn.0 = gpiochip0:3\n"
                       "turn.1 = gpiochip0:4\n") ==
          Strings{"castle.ini:6: leds.turn.1: there is no station 1 for this turn LED"});

    const auto c = check(
        "[station.1]\nyes = gpiochip0:3\nno = gpiochip0:4\n[station.0]\nyes = gpiochip0:1\n"
        "no = gpiochip0:2\n");
    REQUIRE(c.problems.empty());
    CHECK(c.config.stations.at(0).seat == 0);  // by seat, whatever the file's order
    CHECK(c.config.stations.at(1).seat == 1);
    CHECK_FALSE(c.config.stations.at(1).led);
}

TEST_CASE("hardware: real by default with real readers, sim without; real needs real readers") {
    CHECK(check(classicReaders()).config.daemon.hardware == Hardware::Real);
    CHECK(check("[castle]\n").config.daemon.hardware == Hardware::Sim);
    CHECK(check("[daemon]\nhardware = sim\n" + classicReaders()).config.daemon.hardware == Hardware::Sim);
    CHECK(problemTexts("[daemon]\nhardware = real\n") ==
          Strings{"castle.ini:2: daemon.hardware: real hardware needs readers: add a [reader.NAME] for each "
                  "reader, "
                  "or set sim"});
    CHECK(problemTexts("[daemon]\nhardware = real\n[reader.s]\nplace = 0\ntype = sim\n" + classicReaders()) ==
          Strings{"castle.ini:5: reader.s.type: a sim reader in a castle with daemon.hardware = real"});
    // Sim readers alone make a simulated castle with the file's layout.
    std::string sim;
    for (int p = 0; p <= 6; ++p)
        sim += "[reader.s" + std::to_string(p) + "]\nplace = " + std::to_string(p) + "\ntype = sim\n";
    const auto c = check(sim + "[reader.s3b]\nplace = 3\ntype = sim\n");
    REQUIRE(c.problems.empty());
    CHECK(c.config.daemon.hardware == Hardware::Sim);
    const auto layout = c.config.layout();
    CHECK(layout.readerCount() == 8);
    CHECK(layout.readersOf(*layout.findPlace({"3"})).size() == 2);
}

}  // namespace
}  // namespace vivaref::config
