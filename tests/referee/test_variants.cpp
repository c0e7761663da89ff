// The variants at the table: a royal couple on the throne's place, teams
// voting at one station per seat, the Emissary's pile shuffled by the
// referee; and undo across automatic decisions.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "tests/referee/game_builder.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::VoteKey;

bool electionStarts(const engine::State& s) {
    if (s.phase() != engine::Phase::Election) return false;
    for (auto seat : s.toAct())
        if (s.hasVoted(seat)) return false;
    return static_cast<int>(s.toAct().size()) == s.rules().seats();
}

struct LoggedTable {
    store::testing::ScratchDir dir;
    store::GameStore log{dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal};
    HandTable t{&log};
    store::GameId id;

    explicit LoggedTable(const BuiltGame& game) {
        id = logGame(log, game);
        auto answer = t.referee.resume(id, t.now);
        REQUIRE_MESSAGE(answer.ok, answer.message);
        t.follow();
        t.take();
    }
};

}  // namespace

TEST_CASE("royal couple: the first King and the next candidate share the throne's place") {
    auto game = findGame(spec2024(4, engine::Variant::RoyalCouple), [](const engine::State& s) {
        return electionStarts(s) && s.countAt(engine::Place::BesideThrone) == 1;
    });
    REQUIRE(game.has_value());
    LoggedTable table(*game);
    auto& t = table.t;
    auto status = t.referee.publicStatus();
    CHECK(status["differences"].empty());
    CHECK(status["guidance"].is_null());
    int onThrone = 0;
    for (const auto& [slug, place] : t.on) onThrone += place == "6";
    CHECK(onThrone == 2);
    for (int s = 0; s < 4; ++s) t.press(s, VoteKey::Yes);
    REQUIRE(noticesOf(t.notices, "crowned").size() == 1);
    CHECK(t.state().finishedRounds().back().kings.size() == 2);
    CHECK(t.referee.publicStatus()["refusal"].is_null());
}

TEST_CASE("teams: a seat's one station votes for both its players") {
    auto game = findGame(spec2024(4, engine::Variant::Teams), electionStarts);
    REQUIRE(game.has_value());
    LoggedTable table(*game);
    auto& t = table.t;
    t.press(1, VoteKey::Yes);
    auto cast = noticesOf(t.take(), "vote-cast");
    REQUIRE(cast.size() == 1);
    CHECK(cast[0].detail["seat"] == 1);
    CHECK(t.referee.playerStatus(engine::PlayerId{2})["private"]["own_vote"] == "yes");
    CHECK(t.referee.playerStatus(engine::PlayerId{3})["private"]["own_vote"] == "yes");
    CHECK(t.referee.playerStatus(engine::PlayerId{3})["seat"] == 1);
    CHECK_FALSE(t.referee.playerStatus(engine::PlayerId{0})["private"].contains("own_vote"));
    CHECK(t.referee.playerStatus(engine::PlayerId{8}).contains("error"));
    t.press(4, VoteKey::Yes);  // no seat 4 in a four-seat game
    auto ignored = t.take();
    REQUIRE(ignored.size() == 1);
    CHECK(ignored[0].kind == "ignored-key");
    CHECK(ignored[0].station == 4);
    checkNoSecrets(t.referee.publicStatus(), t.state());
}

TEST_CASE("the Emissary: without the host's pile the referee shuffles it after the grace") {
    auto game = findGame(spec2024(3, engine::Variant::Emissary),
                         [](const engine::State& s) { return s.phase() == engine::Phase::AwaitReshuffle; });
    REQUIRE(game.has_value());
    LoggedTable table(*game);
    auto& t = table.t;
    CHECK(t.referee.publicStatus()["waiting_for"] == "The referee shuffles the Emissary’s pile.");
    t.wait(1000ms);
    CHECK(t.state().phase() != engine::Phase::AwaitReshuffle);
    auto own = t.referee.takeOwnChance();
    REQUIRE(own.size() == 1);
    CHECK(own[0].host.contains("reshuffle"));
    auto events = table.log.events(table.id);
    REQUIRE(events.size() >= 2);
    CHECK(events[events.size() - 2].kind == "referee-chance");
    CHECK(events.back().kind == "reshuffle");
    CHECK(noticesOf(t.notices, "reshuffled").size() == 1);
    // Undo takes back the referee's pile with the vote before it.
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state().phase() == engine::Phase::Election);
}

TEST_CASE("undo of a vote: the seat may vote again; who voted is updated") {
    HandTable t;
    toClassicAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    t.press(0, VoteKey::Yes);
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({0}));
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.referee.publicStatus()["election"]["voted"].empty());
    CHECK(t.referee.publicStatus()["guidance"].is_null());  // the board did not change
    t.press(0, VoteKey::No);
    CHECK(t.state().voteOf(engine::Seat{0}) == engine::VoteCard::No);
}

TEST_CASE("2024: after the deal the Jester is guided to floor 3 and the rest off the board") {
    HandTable t;
    REQUIRE(t.host({{"new-game", {{"setup", {{"edition", "2024"}, {"seats", 4}}}}}}).ok);
    t.put("ouaf", "2");  // left from an earlier game
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    REQUIRE(t.host({{"deal", dealFor(t.state(), 3)}}).ok);
    auto status = t.referee.publicStatus();
    REQUIRE(status["guidance"].is_object());
    std::set<std::string> steps;
    for (const auto& m : status["guidance"]["moves"]) steps.insert(m["do"].get<std::string>());
    CHECK(steps == std::set<std::string>{"put The Jester on floor 3", "take Ouaf off the board"});
    CHECK(t.led("place-3") == drivers::LedMode::Blink);
    t.remove("ouaf");
    t.put("jester", "3");
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    CHECK(t.led("turn-0") == drivers::LedMode::On);
}

}  // namespace vivaref::referee::testing
