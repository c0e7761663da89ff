// Every configuration shipped in daemon/config/examples/ passes the check,
// and the full 2024 castle is what its comments say.
#include <filesystem>
#include <set>

#include <doctest/doctest.h>

#include "daemon/config/config_check.hpp"
#include "daemon/config/config_summary.hpp"

namespace vivaref::config {
namespace {

TEST_CASE("every shipped example is valid") {
    int examples = 0;
    for (const auto& entry : std::filesystem::directory_iterator(VIVAREF_CONFIG_EXAMPLES)) {
        if (entry.path().extension() != ".ini") continue;
        ++examples;
        const auto check = checkCastleConfigFile(entry.path());
        CAPTURE(entry.path().string());
        for (const auto& p : check.problems) MESSAGE(p.text());
        CHECK(check.status == ConfigCheck::Status::Valid);
        CHECK_FALSE(summaryText(check.config).empty());
    }
    CHECK(examples >= 2);
}

TEST_CASE("the full 2024 castle: 28 readers over 12 places, 8 stations, an LED per place and seat") {
    const auto c = loadCastleConfig(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / "castle-2024.ini");
    CHECK(c.edition == CastleEdition::Vive2024);
    CHECK(c.daemon.hardware == Hardware::Real);
    CHECK(c.readers.size() == 28);
    const auto layout = c.layout();
    CHECK(layout.placeCount() == 12);
    for (int floor = 1; floor <= 4; ++floor)
        CHECK(layout.readersOf(*layout.findPlace({std::to_string(floor)})).size() == 4);
    CHECK(c.stations.size() == 8);
    for (const auto& s : c.stations) CHECK((s.yes && s.no && s.stomachache && s.led));
    CHECK(c.placeLeds.size() == 12);
    CHECK(c.turnLeds.size() == 8);
    // The pin budget its comments explain: one reader on CE0, 19 on the SoC's lines, 8 on an expander.
    int onBus = 0, onSoc = 0, onExpander = 0;
    std::set<unsigned> socLines;
    for (const auto& r : c.readers) {
        if (!r.chipSelect)
            ++onBus;
        else if (r.chipSelect->chip == "gpiochip0")
            ++onSoc, socLines.insert(r.chipSelect->line);
        else
            ++onExpander;
    }
    CHECK(onBus == 1);
    CHECK(onSoc == 19);
    CHECK(onExpander == 8);
    // None of the lines SPI0, I2C1 and the expanders' interrupts take.
    for (unsigned taken : {2u, 3u, 4u, 5u, 7u, 8u, 9u, 10u, 11u}) CHECK_FALSE(socLines.contains(taken));
    CHECK(*socLines.rbegin() <= 27);
}

TEST_CASE("the sim example is the simulated standard castle") {
    const auto c = loadCastleConfig(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / "sim.ini");
    CHECK(c.daemon.hardware == Hardware::Sim);
    CHECK(c.readers.empty());
    CHECK(c.layout().readerCount() == 12);
}

}  // namespace
}  // namespace vivaref::config
