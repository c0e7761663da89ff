// Which readers may have their fields on together: [castle] fields and
// max_fields_on, [reader.NAME] neighbours, and the coupling they give.
#include <filesystem>

#include <doctest/doctest.h>

#include "config_test_helpers.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::classicReaders;
using testing::problemTexts;
using Strings = std::vector<std::string>;

TEST_CASE("fields: one at a time unless the file says otherwise") {
    const auto c = check(classicReaders());
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(c.config.fieldRule == FieldRule::OneAtATime);
    CHECK(c.config.maxFieldsOn == 0);
    const auto coupling = c.config.fieldCoupling(c.config.layout());
    CHECK(coupling.pairCount() == 21);  // 7 readers, every pair
}

TEST_CASE("fields: adjacent levels couple floors one apart, the throne over floor 5, dungeons under 0") {
    const auto c = check("[castle]\nfields = adjacent-levels\nmax_fields_on = 6\n" + classicReaders() +
                         "[reader.r3b]\nplace = 3\nbus = /dev/spidev9.0\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(c.config.fieldRule == FieldRule::AdjacentLevels);
    CHECK(c.config.maxFieldsOn == 6);
    const auto layout = c.config.layout();
    const auto coupling = c.config.fieldCoupling(layout);
    auto index = [&](const char* name) { return *layout.findReader({name}); };
    CHECK(coupling.coupled(index("r0"), index("r1")));
    CHECK(coupling.coupled(index("r5"), index("r6")));
    CHECK(coupling.coupled(index("r3b"), index("r4")));
    CHECK_FALSE(coupling.coupled(index("r3"), index("r3b")));
    CHECK_FALSE(coupling.coupled(index("r0"), index("r2")));
    CHECK(drivers::fieldGroups(coupling).size() == 2);

    const auto same = check("[castle]\nfields = same-or-adjacent-levels\n" + classicReaders() +
                            "[reader.r3b]\nplace = 3\nbus = /dev/spidev9.0\n");
    REQUIRE(same.status == ConfigCheck::Status::Valid);
    CHECK(same.config.fieldCoupling(same.config.layout()).coupled(index("r3"), index("r3b")));
    CHECK(placeLevel("dungeon2") == -1);
    CHECK(placeLevel("wc4") == 4);
    CHECK(placeLevel("6") == 6);
    CHECK_FALSE(placeLevel("enrolment"));
}

TEST_CASE("fields: a reader's neighbours couple with it whatever the rule") {
    const auto c = check("[castle]\nfields = adjacent-levels\n" + classicReaders() +
                         "[reader.r3b]\nplace = 3\nbus = /dev/spidev9.0\nneighbours = r3, r0\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    const auto layout = c.config.layout();
    const auto coupling = c.config.fieldCoupling(layout);
    CHECK(coupling.coupled(*layout.findReader({"r3b"}), *layout.findReader({"r3"})));
    CHECK(coupling.coupled(*layout.findReader({"r0"}), *layout.findReader({"r3b"})));
}

TEST_CASE("fields: the example castle, adjacent levels in two groups") {
    const auto c = loadCastleConfig(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / "castle-2024.ini");
    CHECK(c.fieldRule == FieldRule::AdjacentLevels);
    const auto groups = drivers::fieldGroups(c.fieldCoupling(c.layout()));
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].size() == 13);  // floors 0, 2, 4, the throne, wc4
    CHECK(groups[1].size() == 15);  // floors 1, 3, 5, wc3, the dungeons
}

TEST_CASE("fields: malformed values name the file, line and key") {
    CHECK(
        problemTexts("[castle]\nfields = some\nmax_fields_on = 100\n" + classicReaders()) ==
        Strings{"castle.ini:2: castle.fields: 'some' is not a field rule: one-at-a-time, adjacent-levels or "
                "same-or-adjacent-levels",
                "castle.ini:3: castle.max_fields_on: 100 is out of range: from 0 to 64"});
    CHECK(problemTexts(classicReaders() + "[reader.x]\nplace = 3\nbus = /dev/spidev9.0\nneighbours = r1 x "
                                          "nobody fl@or\n") ==
          Strings{"castle.ini:25: reader.x.neighbours: 'fl@or' is not a reader's name: neighbours = floor2-a "
                  "floor2-b",
                  "castle.ini:25: reader.x.neighbours: a reader is not its own neighbour: name the readers "
                  "near x",
                  "castle.ini:25: reader.x.neighbours: there is no [reader.nobody] in this file"});
    CHECK(problemTexts(classicReaders() + "[reader.x]\nplace = 3\nbus = /dev/spidev9.0\nneighbours = ,\n") ==
          Strings{"castle.ini:25: reader.x.neighbours: no reader named: neighbours = floor2-a floor2-b (or "
                  "leave the key out)"});
}

}  // namespace
}  // namespace vivaref::config
