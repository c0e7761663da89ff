// The writer is the reader's inverse: every line it writes reads back to the
// value it wrote, for setups, every kind of deal, every action and pile.
#include "engine/record/line_writer.hpp"

#include <doctest/doctest.h>

#include "engine/chance.hpp"
#include "engine/state.hpp"
#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

using namespace vivaref::record;

namespace {

template <class T>
T readBack(const std::string& line, const Rules* rules) {
    LineRead read = readLine(line, rules);
    INFO(line);
    REQUIRE_MESSAGE(read.line, (read.refusal ? ::vivaref::engine::describe(read.refusal->message) : ""));
    REQUIRE(std::holds_alternative<T>(*read.line));
    return std::get<T>(*read.line);
}

RulesSpec teamsOfTwo(RulesSpec spec) {
    for (int s = 0; s < spec.seats; ++s) spec.teams.push_back({2 * s, 2 * s + 1});
    return spec;
}

// A family of games the random round trip covers.
std::vector<RulesSpec> families() {
    auto make = [](Edition e, int seats, Variant v = Variant::None, Options o = {}) {
        RulesSpec s;
        s.edition = e;
        s.seats = seats;
        s.variant = v;
        s.options = o;
        return s;
    };
    return {
        make(Edition::Classic, 4),
        make(Edition::Classic, 3),
        make(Edition::Online, 5),
        make(Edition::Vive2024, 6, Variant::None, {.ambition = true, .banished = false}),
        make(Edition::Vive2024, 2, Variant::Emissary, {.ambition = true, .banished = true}),
        make(Edition::Vive2024, 5, Variant::Emissary, {.ambition = false, .banished = true}),
        make(Edition::Vive2024, 4, Variant::RoyalCouple, {.ambition = true, .banished = true}),
        teamsOfTwo(make(Edition::Vive2024, 3, Variant::Teams, {.ambition = true, .banished = false})),
        teamsOfTwo(make(Edition::Vive2024, 8, Variant::TeamPawn)),
        make(Edition::Vive2024, 8),
    };
}

}  // namespace

TEST_SUITE("record: line writer") {
    TEST_CASE("a setup line round-trips with every key") {
        RulesSpec spec;
        spec.edition = Edition::Vive2024;
        spec.seats = 3;
        spec.rounds = 2;
        spec.first = 2;
        spec.options = {.ambition = true, .banished = true};
        spec.variant = Variant::TeamPawn;
        spec.teams = {{0, 1}, {2}, {3, 4}};
        std::vector<Character> cast;
        for (const auto& c : roster2024().characters()) cast.push_back({c.id + "x", "Sir " + c.name, c.kind});
        spec.roster = Roster(cast);
        CHECK(readBack<RulesSpec>(writeSetup(spec), nullptr) == spec);

        RulesSpec plain;
        CHECK(writeSetup(plain) == R"({"setup":{"edition":"classic","seats":4,"first":0}})");
        CHECK(readBack<RulesSpec>(writeSetup(plain), nullptr) == plain);
    }

    TEST_CASE("actions are written as GAME-RECORD shows them") {
        auto rules =
            rulesFrom(R"({"setup": {"edition": "2024", "seats": 4, "options": {"ambition": true}}})");
        CharacterId romeo = rules->roster().find("romeo");
        CHECK(writeAction(Action::place(Seat{0}, romeo, Place::Floor3), *rules) ==
              R"({"place":{"seat":0,"character":"romeo","to":"3"}})");
        CHECK(writeAction(Action::move(Seat{1}, romeo, Place::Wc4), *rules) ==
              R"({"move":{"seat":1,"character":"romeo","to":"wc4"}})");
        CHECK(writeAction(Action::vote(Seat{2}, VoteCard::Stomachache), *rules) ==
              R"({"vote":{"seat":2,"card":"stomachache"}})");
        CHECK(writeAction(Action::pass(Seat{3}), *rules) == R"({"pass":{"seat":3}})");
        CHECK(writeAction(Action::keep(PlayerId{1}, AmbitionCard::FriendOfTheKing), *rules) ==
              R"({"keep":{"player":1,"ambition":"friend-of-the-king"}})");
        CHECK(writeReshuffle(Reshuffle{{VoteCard::No, VoteCard::Yes}}) ==
              R"({"reshuffle":{"pile":["no","yes"]}})");
    }

    TEST_CASE("invalid ids are written so that they read back invalid") {
        auto rules = rulesFrom(kClassic4);
        Action bad = Action::move(Seat{}, CharacterId{}, Place::Unknown);
        CHECK(readBack<Action>(writeAction(bad, *rules), rules.get()) == bad);
    }

    TEST_CASE("every line of random games round-trips") {
        for (const RulesSpec& spec : families()) {
            REQUIRE_MESSAGE(!Rules::validate(spec), writeSetup(spec));
            CAPTURE(writeSetup(spec));
            auto rules = std::make_shared<const Rules>(spec);
            CHECK(readBack<RulesSpec>(writeSetup(spec), nullptr) == spec);
            for (std::uint64_t seed = 1; seed <= 5; ++seed) {
                CAPTURE(seed);
                State state(rules);
                Rng rng(seed);
                while (!state.isOver()) {
                    if (state.phase() == Phase::AwaitDeal) {
                        Deal deal = randomDeal(state, rng);
                        CHECK(readBack<Deal>(writeDeal(deal, *rules), rules.get()) == deal);
                        REQUIRE(!state.apply(deal));
                    } else if (state.phase() == Phase::AwaitReshuffle) {
                        Reshuffle r = randomReshuffle(state, rng);
                        CHECK(readBack<Reshuffle>(writeReshuffle(r), rules.get()) == r);
                        REQUIRE(!state.apply(r));
                    } else {
                        Action a = randomAction(state, rng);
                        CHECK(readBack<Action>(writeAction(a, *rules), rules.get()) == a);
                        REQUIRE(!state.apply(a));
                    }
                }
            }
        }
    }
}

}  // namespace vivaref::record_test
