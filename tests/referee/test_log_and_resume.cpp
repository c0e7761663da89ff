// The game log: every decision written before it is acknowledged, in order,
// with the referee's own events; the export replays to the same result; a
// crashed referee's game resumes from the log; a log that cannot be written
// is shown loudly, and nothing it could not save is shown as decided.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/words/words.hpp"
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

// Caps the log's file and writes referee events (pause, resume) until a
// write no longer reaches the disk: a full disk mid-game.
void fillTheDisk(store::GameStore& log, HandTable& t) {
    log.limitPagesForTesting(1);
    for (int i = 0; i < 5000 && t.referee.logHealth().durable; ++i)
        for (const char* request : {"pause", "resume"}) {
            const auto answer = t.host({{request, json::object()}});
            // The request that meets the full disk is not done, nor acknowledged.
            REQUIRE(answer.ok == t.referee.logHealth().durable);
            if (!answer.ok) break;
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
    CHECK(kinds(log, id) == std::vector<std::string>{"setup", "seats", "referee-chance", "deal", "place",
                                                     "refusal", "place", "undo", "pause", "resume", "place"});
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
    const auto noSuchGame = other.referee.resume(store::GameId{999}, other.now);
    CHECK(noSuchGame.code == "no-such-game");
    REQUIRE(noSuchGame.says);
    CHECK(words::Words("de").say(*noSuchGame.says) == "Das Protokoll enthält keine Partie 999.");
    HandTable noLog;
    const auto noLogAnswer = noLog.referee.resume(id, noLog.now);
    CHECK(noLogAnswer.code == "no-log");
    REQUIRE(noLogAnswer.says);
    CHECK(noLogAnswer.says->code == "resume.no-log");
}

namespace {

// Caps the log's file and writes rows straight into it (not through the
// referee) until the disk refuses one: the referee's next write meets a full disk.
void fillBehindTheReferee(store::GameStore& log, store::GameId id) {
    store::testing::fillTheLog(log, id);
    CHECK(log.waiting() == 0);  // an event the disk refused is not kept
}

// The decision lines on disk now, read by another connection: what a kill -9 would leave.
std::vector<std::string> onDisk(const std::filesystem::path& file, store::GameId id) {
    store::GameStore reader(file, store::GameStore::Access::MustExist);
    return reader.recordLines(id);
}

bool holds(const std::vector<std::string>& lines, const std::string& part) {
    for (const auto& l : lines)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("a full log: the move that meets it is not taken, nor shown; taken by itself once the log saves") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    t.start(kClassic4);
    const auto id = *t.referee.game();
    t.put("alighiero", "1");  // acknowledged: on disk
    REQUIRE(t.referee.logHealth().durable);
    REQUIRE(holds(onDisk(file, id), "alighiero"));
    const auto before = t.referee.publicStatus();
    fillBehindTheReferee(log, id);
    t.take();

    // The placement that meets the full disk is read, not decided: the game,
    // the status and the LEDs are as before it; nothing says it was accepted.
    t.put("piero", "1");
    REQUIRE_FALSE(t.referee.logHealth().durable);
    const auto piero = t.state().rules().roster().find("piero");
    CHECK(t.state().placeOf(piero) == engine::Place::Reserve);
    auto said = t.take();
    const auto problems = noticesOf(said, "log-problem");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].text.find("Nothing new is decided") != std::string::npos);
    REQUIRE(problems[0].says);
    CHECK(problems[0].says->code == "log.problem");
    CHECK(noticesOf(said, "accepted").empty());
    CHECK(noticesOf(said, "refused").empty());
    auto status = t.referee.publicStatus();
    CHECK(status["view"] == before["view"]);
    CHECK(status["last_action"] == before["last_action"]);
    CHECK(status["board"]["expected"] == before["board"]["expected"]);
    CHECK(status["refusal"].is_null());
    CHECK(t.led("place-1") != drivers::LedMode::On);  // no "accepted" flash
    REQUIRE(status["log_problem"].is_string());
    CHECK(status["log_problem"].get<std::string>().rfind("The game log cannot save (disk full)", 0) == 0);
    CHECK(status["log"]["durable"] == false);
    // What a kill -9 leaves now: every acknowledged decision, and nothing shown that is not there.
    CHECK(holds(onDisk(file, id), R"("character":"alighiero")"));
    CHECK_FALSE(holds(onDisk(file, id), R"("character":"piero")"));

    // Nothing new: a host request is refused with the reason, a key is not counted.
    const auto refused = t.host({{"pause", json::object()}});
    CHECK_FALSE(refused.ok);
    CHECK(refused.code == "log-unwritable");
    CHECK(refused.message.find("disk full") != std::string::npos);
    CHECK_FALSE(t.referee.paused());
    // Retries on the referee's timer do not repeat the journal's line, and take nothing.
    t.wait(Timestamp(2500));
    CHECK(noticesOf(t.take(), "log-problem").empty());
    CHECK_FALSE(t.referee.logHealth().durable);
    CHECK(t.state().placeOf(piero) == engine::Place::Reserve);

    // Room again: the retry timer finds the log saving and judges the board, with no new request.
    log.limitPagesForTesting(1'000'000);
    t.wait(Timestamp(1100));
    CHECK(t.referee.logHealth().durable);
    CHECK(t.referee.publicStatus()["log_problem"].is_null());
    said = t.take();
    CHECK(noticesOf(said, "log-ok").size() == 1);
    CHECK(noticesOf(said, "accepted").size() == 1);
    CHECK(t.state().placeOf(piero) == engine::Place::Floor1);  // judged now
    CHECK(holds(onDisk(file, id), R"("character":"piero")"));
    CHECK(record::replayRecord(log.exportRecord(id)) == record::resultJson(t.state()));
    CHECK(t.host({{"pause", json::object()}}).ok);
}

TEST_CASE("while the log cannot save, no game is abandoned or started") {
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    t.start(kClassic4);
    fillTheDisk(log, t);
    const auto abandon = t.host({{"abandon", json::object()}});
    CHECK(abandon.code == "log-unwritable");
    CHECK(t.referee.publicStatus()["state"] != "abandoned");
    auto answer = t.host({{"new-game", {{"setup", kClassic4}}}});
    CHECK(answer.code == "log-unwritable");
    // Room again: the log saves again by itself, then the host may go on.
    log.limitPagesForTesting(1'000'000);
    t.wait(Timestamp(1100));
    REQUIRE(t.referee.logHealth().durable);
    if (t.referee.paused()) REQUIRE(t.host({{"resume", json::object()}}).ok);
    CHECK(t.host({{"abandon", json::object()}}).ok);
    CHECK(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
}

TEST_CASE("a game logged before the names' checks resumes: its names are shown isolated, not refused") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    engine::RulesSpec spec;
    spec.seats = 3;
    // A direction control, nothing visible, and the same name twice: a new
    // game refuses each (player_names.hpp); a logged one keeps them.
    const std::vector<std::string> names = {"Eve\u202Eevil", "\u200B", "eve\u202eevil"};
    const auto id = log.createGame({spec, names, 7, store::WallTime{}, {}});
    HandTable t(&log);
    const auto resumed = t.referee.resume(id, t.now);
    CAPTURE(resumed.message);
    REQUIRE(resumed.ok);
    const auto status = t.referee.publicStatus();
    for (std::size_t p = 0; p < names.size(); ++p) CHECK(status["players"][p]["name"] == names[p]);
    t.wait(Timestamp(5000));  // the referee deals; the first seat is to place
    const std::string waiting = t.referee.publicStatus()["waiting_for"];
    CAPTURE(waiting);
    // Its direction control taken out between the isolates: the sentence stays whole.
    CHECK(waiting.find("\u202E") == std::string::npos);
    CHECK(waiting == "\u2068Eveevil\u2069 to place a character.");
}

}  // namespace vivaref::referee::testing
