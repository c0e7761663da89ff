// The places a lifted character may go (engine/destinations.hpp), for a
// table that teaches: they agree with the legal actions the engine lists,
// in every edition, through whole random games.
#include <algorithm>

#include "engine/chance.hpp"
#include "engine/destinations.hpp"
#include "random_play.hpp"
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// Every character's destinations against the legal placements and moves of
// the seat to act.
void checkAgainstLegalActions(const State& s) {
    ActionList legal;
    s.legalActions(legal);
    for (int c = 0; c < s.characterCount(); ++c) {
        const CharacterId id{static_cast<std::uint8_t>(c)};
        std::vector<Place> listed;
        for (const Action& a : legal)
            if ((a.kind() == ActionKind::Place || a.kind() == ActionKind::Move) && a.character() == id)
                listed.push_back(a.to());
        std::sort(listed.begin(), listed.end());
        CAPTURE(c);
        CAPTURE(s.phase());
        CHECK(legalDestinations(s, id) == listed);
    }
}

}  // namespace

TEST_CASE("Teaching: a character not yet placed may go on floors 1-4 below their limit") {
    Table t(classicSpec(4));
    t.start();
    CHECK(legalDestinations(t.state, t.id("odessa")) ==
          std::vector<Place>{Place::Floor1, Place::Floor2, Place::Floor3, Place::Floor4});
    t.placeAll({{"alighiero", 4}, {"beatrice", 4}, {"clemente", 4}, {"dario", 4}});
    CHECK(legalDestinations(t.state, t.id("odessa")) ==
          std::vector<Place>{Place::Floor1, Place::Floor2, Place::Floor3});
    CHECK(legalDestinations(t.state, t.id("dario")).empty());  // placed already
}

TEST_CASE("Teaching: in the ascent a character has one place to go, or none") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    CHECK(legalDestinations(t.state, t.id("eloise")) == std::vector<Place>{Place::Floor5});
    // Floor 3 holds four (the Jester among them): floor 2 goes into its WC.
    CHECK(legalDestinations(t.state, t.id("leonardo")) == std::vector<Place>{Place::Wc3});
    // Floor 4 is full and WC4 free: floor 3 goes into WC4.
    CHECK(legalDestinations(t.state, t.id("jeanne")) == std::vector<Place>{Place::Wc4});
    t.move("leonardo", Place::Wc3);
    CHECK(legalDestinations(t.state, t.id("leonardo")).empty());  // floor 3 is still full
    CHECK(legalDestinations(t.state, t.id("romeo")).empty());     // WC3 taken, floor 3 full
    CHECK(legalDestinations(t.state, CharacterId{200}).empty());
}

TEST_CASE("Teaching: nothing may go anywhere during an election or before the deal") {
    Table t(classicSpec(4));
    CHECK(legalDestinations(t.state, t.id("odessa")).empty());
    t.start();
    placeClassicLadder(t);
    t.up("alighiero");
    t.up("alighiero");  // floor 5 to the throne: an election opens
    REQUIRE(t.state.phase() == Phase::Election);
    for (int c = 0; c < t.state.characterCount(); ++c)
        CHECK(legalDestinations(t.state, CharacterId{static_cast<std::uint8_t>(c)}).empty());
}

TEST_CASE("Teaching: legal destinations agree with the legal actions through random games") {
    const std::uint64_t seed = 34;
    INFO("seed " << seed);
    for (const auto& config : randomPlayConfigs()) {
        CAPTURE(config.name);
        auto spec = config.spec;
        auto rules = std::make_shared<const Rules>(spec);
        State s(rules);
        Rng rng(seed);
        for (int step = 0; step < 400 && !s.isOver(); ++step) {
            if (s.awaitsChance()) {
                playRandomDeal(s, rng);
                continue;
            }
            checkAgainstLegalActions(s);
            playRandomAction(s, rng);
        }
    }
}
