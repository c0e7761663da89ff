// A table that teaches (REFEREE-NOTES.md, "A table that teaches"): where a
// lifted piece may go lights up and goes dark once it is down, only with
// the option; each rule is explained the first time it comes into play,
// once a game (again after an undo takes it back), and a resumed game keeps
// teaching; every refusal names the rule it applies.
#include <doctest/doctest.h>

#include "daemon/referee/refusal_rule.hpp"
#include "daemon/referee/teaching_part.hpp"
#include "daemon/store/game_store.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using engine::Place;

// toClassicAscent with the new game's teaching option said.
void startTeaching(HandTable& t, bool teaching) {
    auto answer = t.host({{"new-game", {{"setup", kClassic4}, {"teaching", teaching}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    answer = t.host({{"deal", dealFor(t.state(), 7)}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    t.follow();
}

void placeClassic(HandTable& t) {
    placeClassicToAscent(t);
    t.wait(1000ms);  // the last placement's flash is over
}

// The place LEDs in hint mode.
std::vector<std::string> hinted(const HandTable& t) {
    std::vector<std::string> out;
    for (const char* place : {"0", "1", "2", "3", "4", "5", "6"})
        if (t.led(std::string("place-") + place) == LedMode::Hint) out.push_back(place);
    return out;
}

using Places = std::vector<std::string>;

}  // namespace

TEST_CASE("teaching: a lifted piece's legal place lights up, and goes dark once it is put down") {
    HandTable t;
    startTeaching(t, true);
    CHECK(t.referee.publicStatus()["teaching"] == true);
    // Placement: no reader sees a piece lifted beside the board; the floors
    // open to any piece light for the whole turn.
    CHECK(hinted(t) == Places{"1", "2", "3", "4"});
    placeClassic(t);  // floors 1 and 2 are full now
    CHECK(hinted(t).empty());
    t.lift("leonardo");  // on floor 3: floor 4 holds two
    CHECK(hinted(t) == Places{"4"});
    t.put("leonardo", "4");
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor4);
    CHECK(t.led("place-4") == LedMode::On);  // the accepted move's flash first
    t.wait(1000ms);
    CHECK(hinted(t).empty());
    CHECK(t.led("place-4") == LedMode::Off);
    // A piece with nowhere to go lights nothing: floor 1 is full.
    t.lift("piero");
    CHECK(hinted(t).empty());
    t.put("piero", "0");
    // What to put back keeps its blinking; nothing teaches meanwhile.
    t.put("merlino", "5");  // two floors up
    CHECK(refusalCode(t) == "not-adjacent");
    t.lift("natale");
    CHECK(hinted(t).empty());
    CHECK(t.led("place-3") == LedMode::Blink);
}

TEST_CASE("teaching: without the option nothing lights where a piece may go") {
    HandTable t;
    startTeaching(t, false);
    CHECK(t.referee.publicStatus()["teaching"] == false);
    CHECK(hinted(t).empty());
    placeClassic(t);
    t.lift("leonardo");
    CHECK(hinted(t).empty());
    CHECK(t.led("place-4") == LedMode::Off);
    CHECK(t.referee.publicStatus()["teach"].is_null());
}

TEST_CASE("teaching: a table's default comes from its options, a new game's request says otherwise") {
    RefereeOptions options;
    options.teaching = true;
    HandTable t(nullptr, options);
    t.start(kClassic4);  // no teaching key: the table's default
    CHECK(t.referee.publicStatus()["teaching"] == true);
    CHECK(hinted(t) == Places{"1", "2", "3", "4"});
    REQUIRE(t.host({{"abandon", json::object()}}).ok);
    startTeaching(t, false);
    CHECK(t.referee.publicStatus()["teaching"] == false);
    CHECK(hinted(t).empty());
}

TEST_CASE("teaching: the first election is explained once a game, and again once undone") {
    HandTable t;
    startTeaching(t, true);
    placeClassic(t);
    t.take();
    t.put("natale", "5");
    t.put("natale", "6");
    auto taught = noticesOf(t.take(), "teach");
    REQUIRE(taught.size() == 1);
    CHECK(taught[0].detail["rule"] == "election");
    REQUIRE(taught[0].says);
    CHECK(taught[0].says->code == "teach.lesson.election-classic");
    auto status = t.referee.publicStatus();
    CHECK(status["teach"]["rule"] == "election");
    CHECK(status["teach"]["says"]["code"] == "teach.lesson.election-classic");
    // Through the votes and the outcome, then gone once the table plays on.
    for (int s = 0; s < 3; ++s) t.press(s, drivers::VoteKey::Yes);
    t.press(3, drivers::VoteKey::No);
    CHECK(t.referee.publicStatus()["teach"]["rule"] == "election");
    t.follow();
    t.put("odessa", "5");
    CHECK(t.referee.publicStatus()["teach"].is_null());
    // The second election teaches nothing.
    t.put("odessa", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    CHECK(noticesOf(t.take(), "teach").empty());
    CHECK(t.referee.publicStatus()["teach"].is_null());
    // Undone back before the first election: it is taught again when it comes.
    for (int i = 0; i < 7; ++i) REQUIRE(t.host({{"undo", json::object()}}).ok);
    t.follow();
    REQUIRE(t.state().phase() == engine::Phase::Ascent);
    CHECK(t.referee.publicStatus()["teach"].is_null());
    t.take();
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    CHECK(noticesOf(t.take(), "teach").size() == 1);
}

TEST_CASE("teaching: a resumed game still teaches, and remembers what it taught") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    store::GameId game;
    std::map<std::string, std::string> board;
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        HandTable t(&log);
        startTeaching(t, true);
        placeClassic(t);
        t.put("natale", "5");
        t.put("natale", "6");
        REQUIRE(noticesOf(t.notices, "teach").size() == 1);
        game = *t.referee.game();
        board = t.on;
    }
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    REQUIRE(t.referee.resume(game, t.now).ok);
    t.on = board;
    t.show();
    auto status = t.referee.publicStatus();
    CHECK(status["teaching"] == true);
    CHECK(status["teach"]["rule"] == "election");
    CHECK(noticesOf(t.notices, "teach").empty());  // told before the crash, not again
    for (int s = 0; s < 4; ++s) t.press(s, drivers::VoteKey::No);
    t.follow();
    t.wait(1000ms);
    t.lift("odessa");
    CHECK(hinted(t) == Places{"5"});
}

TEST_CASE("teaching: which rule an event brings into play, each once") {
    auto classic = std::make_shared<const engine::Rules>(specOf(engine::Edition::Classic, 4));
    auto rules2024 = std::make_shared<const engine::Rules>(spec2024(4));
    const engine::State c(classic);
    const engine::State s(rules2024);
    using engine::Event;
    using engine::EventKind;
    const std::vector<std::string> none;
    auto rule = [&](const Event& e, const engine::State& after, const std::vector<std::string>& taught) {
        return lessonRule(e, after, taught).value_or("-");
    };
    CHECK(rule(Event{.kind = EventKind::Moved, .to = Place::Wc3}, s, none) == "wc");
    CHECK(rule(Event{.kind = EventKind::Moved, .to = Place::Wc3}, s, {"wc"}) == "-");
    CHECK(rule(Event{.kind = EventKind::Moved, .to = Place::Floor3}, s, none) == "-");
    CHECK(rule(Event{.kind = EventKind::Rejected, .to = Place::Dungeon3}, s, none) == "dungeon");
    CHECK(rule(Event{.kind = EventKind::Rejected, .to = Place::Floor2}, s, none) == "-");  // the Jester
    CHECK(rule(Event{.kind = EventKind::Cancelled, .to = Place::Floor5}, s, none) == "stomachache");
    const auto jester = rules2024->roster().find("jester");
    CHECK(rule(Event{.kind = EventKind::ElectionOpened, .character = jester}, s, none) == "jester");
    CHECK(rule(Event{.kind = EventKind::ElectionOpened, .character = jester}, s, {"jester"}) == "election");
    CHECK(rule(Event{.kind = EventKind::ElectionOpened, .character = engine::CharacterId{0}}, s, none) ==
          "election");
    CHECK(rule(Event{.kind = EventKind::RoundDealt, .round = 3}, c, none) == "rule-33");
    CHECK(rule(Event{.kind = EventKind::RoundDealt, .round = 2}, c, none) == "-");
    CHECK(rule(Event{.kind = EventKind::RoundDealt, .round = 3}, s, none) == "-");  // 2024 has no 33 rule
    CHECK(lessonMessage("election", *rules2024).code == "teach.lesson.election-2024");
    CHECK(lessonMessage("election", *classic).code == "teach.lesson.election-classic");
}

TEST_CASE("refusals name the rule they apply, on the screens and on the station") {
    HandTable t;
    toClassicAscent(t);
    t.put("leonardo", "2");
    CHECK(t.referee.publicStatus()["refusal"]["rule"] == "move");
    auto refused = noticesOf(t.take(), "refused");
    REQUIRE_FALSE(refused.empty());
    CHECK(refused.back().detail["rule"] == "move");
    t.put("leonardo", "3");
    t.put("alighiero", "2");  // floor 2 holds four
    CHECK(t.referee.publicStatus()["refusal"]["rule"] == "floor-full");
    t.put("alighiero", "1");
    // Two pieces moved at once.
    t.on["leonardo"] = "4";
    t.on["merlino"] = "4";
    t.show();
    CHECK(t.referee.publicStatus()["refusal"]["rule"] == "one-move");
    t.on["leonardo"] = "3";
    t.on["merlino"] = "3";
    t.show();
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    // A second key in an election: that station's page names the rule too.
    t.put("natale", "5");
    t.put("natale", "6");
    t.press(0, drivers::VoteKey::Yes);
    t.press(0, drivers::VoteKey::No);
    const auto notice = t.referee.playerStatus(engine::PlayerId{0})["station_notice"];
    CHECK(notice["code"] == "already-voted");
    CHECK(notice["rule"] == "election");
}

TEST_CASE("refusal rules: the engine's message first, then the code, else the ascent's") {
    using engine::Message;
    CHECK(refusalRule("wrong-phase", Message("refusal.vote-first")) == "election");
    CHECK(refusalRule("floor-full", Message("refusal.stay-in-wc")) == "wc");
    CHECK(refusalRule("floor-full", Message("refusal.floor-full")) == "floor-full");
    CHECK(refusalRule("cannot-move", Message("refusal.in-dungeon")) == "dungeon");
    CHECK(refusalRule("floor-not-allowed", Message("refusal.placed-on-floors-1-4")) == "placement");
    CHECK(refusalRule("character-gone", Message("referee.character-gone")) == "in-hand");
    CHECK(refusalRule("not-in-game", Message("referee.not-in-game")) == "pieces");
    CHECK(refusalRule("bot-move", Message("referee.bot-move")) == "turns");
    CHECK(refusalRule("card-not-held", Message("refusal.vote-not-held")) == "election");
    CHECK(refusalRule("something-new", Message("refusal.something-new")) == "move");
}

}  // namespace vivaref::referee::testing
