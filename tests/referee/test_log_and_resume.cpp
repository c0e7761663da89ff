// The game log: every decision written before it is acknowledged, in order,
// with the referee's own events; the export replays to the same result; a
// crashed referee's game resumes from the log; a log that cannot be written
// is shown loudly while the game goes on.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

std::vector<std::string> kinds(store::GameStore& log, store::GameId id) {
    std::vector<std::string> out;
    for (const auto& e : log.events(id)) out.push_back(e.kind);
    return out;
}

const json kClassic4{{"edition", "classic"}, {"seats", 4}};

// Caps the log's file and writes referee events (pause, resume) until a
// write no longer reaches the disk: a full disk mid-game.
void fillTheDisk(store::GameStore& log, HandTable& t) {
    log.limitPagesForTesting(1);
    for (int i = 0; i < 5000 && t.referee.logHealth().durable; ++i) {
        REQUIRE(t.host({{"pause", json::object()}}).ok);
        REQUIRE(t.host({{"resume", json::object()}}).ok);
    }
    REQUIRE_FALSE(t.referee.logHealth().durable);
}

}  // namespace

TEST_CASE("the log holds every decision and referee event in order; the export replays to the same result") {
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    auto options = seeded(9);
    options.wallAtZero = store::WallTime(std::chrono::seconds(1'700'000'000));
    HandTable t(&log, options);
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}, {"players", {"Ann", "Bob", "Cy", "Di"}}}}}).ok);
    const auto id = *t.referee.game();
    t.wait(1000ms);  // the referee deals
    t.put("alighiero", "1");
    t.put("beatrice", "5");  // refused
    t.remove("beatrice");    // put back
    t.put("beatrice", "2");
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    t.remove("beatrice");
    REQUIRE(t.host({{"pause", json::object()}}).ok);
    REQUIRE(t.host({{"resume", json::object()}}).ok);
    t.put("clemente", "3");
    CHECK(kinds(log, id) == std::vector<std::string>{"setup", "referee-chance", "deal", "place", "refusal",
                                                     "place", "undo", "pause", "resume", "place"});
    auto summary = log.game(id);
    REQUIRE(summary);
    CHECK(summary->seed == 9u);
    CHECK(summary->players[1].name == "Bob");
    CHECK(summary->started.time_since_epoch() == std::chrono::seconds(1'700'000'000));
    const auto replayed = record::replayRecord(log.exportRecord(id));
    CHECK(replayed == record::resultJson(t.state()));
    CHECK(t.referee.logHealth().durable);
    CHECK(t.referee.publicStatus()["log"]["kept"] == true);
}

TEST_CASE("after a crash a new referee resumes the game from the log and guides the board back first") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    std::optional<engine::State> atCrash;
    std::map<std::string, std::string> board;
    store::GameId id;
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        HandTable t(&log);
        toClassicAscent(t);
        t.put("natale", "5");
        t.put("natale", "6");
        t.press(0, drivers::VoteKey::Yes);
        atCrash = t.state();
        board = t.on;
        id = *t.referee.game();
    }  // the referee dies here, without a goodbye
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    REQUIRE(log.unfinishedGames() == std::vector<store::GameId>{id});
    HandTable t(&log);
    auto answer = t.referee.resume(id, t.now);
    REQUIRE_MESSAGE(answer.ok, answer.message);
    CHECK(t.state() == *atCrash);
    CHECK(t.referee.game() == id);
    CHECK(t.referee.publicStatus()["players"][0]["name"] == "Player 1");
    // The board (nothing seen yet) is guided back to the logged position.
    REQUIRE(t.referee.publicStatus()["guidance"].is_object());
    CHECK(t.referee.publicStatus()["guidance"]["moves"].size() == 13);
    t.on = board;
    t.show();
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    // The vote cast before the crash stands; the others finish the election.
    t.press(0, drivers::VoteKey::No);
    CHECK(noticesOf(t.notices, "private-refusal").size() == 1);
    for (int s = 1; s < 4; ++s) t.press(s, drivers::VoteKey::Yes);
    CHECK(t.state().round() == 2);
    CHECK(kinds(log, id).back() == "vote");
    auto all = kinds(log, id);
    CHECK(std::count(all.begin(), all.end(), "restart") == 1);
    CHECK(record::replayRecord(log.exportRecord(id)) == record::resultJson(t.state()));
    // A second resume of a game in progress is refused.
    CHECK(t.referee.resume(id, t.now).code == "game-in-progress");
}

TEST_CASE("a paused game resumes paused; undo after a resume takes back the last logged decision") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    store::GameId id;
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        HandTable t(&log);
        t.start(kClassic4);
        t.put("alighiero", "1");
        t.put("beatrice", "2");
        REQUIRE(t.host({{"pause", json::object()}}).ok);
        id = *t.referee.game();
    }
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    REQUIRE(t.referee.resume(id, t.now).ok);
    CHECK(t.referee.paused());
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state().placeOf(engine::CharacterId{1}) == engine::Place::Reserve);
    CHECK(t.state().placeOf(engine::CharacterId{0}) == engine::Place::Floor1);
    REQUIRE(t.host({{"resume", json::object()}}).ok);
    CHECK(t.referee.resume(store::GameId{999}, t.now).code == "game-in-progress");
    HandTable other(&log);
    CHECK(other.referee.resume(store::GameId{999}, other.now).code == "no-such-game");
    HandTable noLog;
    CHECK(noLog.referee.resume(id, noLog.now).code == "no-log");
}

TEST_CASE("a log that cannot be written is shown loudly; the game goes on in memory; nothing is lost") {
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    t.start(kClassic4);
    const auto id = *t.referee.game();
    fillTheDisk(log, t);
    t.put("alighiero", "1");
    CHECK(t.state().placeOf(engine::CharacterId{0}) == engine::Place::Floor1);  // accepted in memory
    REQUIRE_FALSE(t.referee.logHealth().durable);
    auto status = t.referee.publicStatus();
    CHECK(status["log"]["durable"] == false);
    CHECK(status["log"]["problem"].get<std::string>().find("games.sqlite") != std::string::npos);
    auto problems = noticesOf(t.notices, "log-problem");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].text.rfind("THE GAME LOG CANNOT BE WRITTEN", 0) == 0);
    log.limitPagesForTesting(1'000'000);
    t.put("piero", "1");  // the next write takes everything waiting first
    CHECK(t.referee.logHealth().durable);
    CHECK(noticesOf(t.notices, "log-ok").size() == 1);
    CHECK(record::replayRecord(log.exportRecord(id)) == record::resultJson(t.state()));
}

TEST_CASE("a game that cannot be started on disk is refused") {
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    t.start(kClassic4);
    fillTheDisk(log, t);
    REQUIRE(t.host({{"abandon", json::object()}}).ok);
    auto answer = t.host({{"new-game", {{"setup", kClassic4}}}});
    CHECK(answer.code == "log-unwritable");
    CHECK(t.referee.publicStatus()["state"] == "abandoned");
}

}  // namespace vivaref::referee::testing
