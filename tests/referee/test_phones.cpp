// Phones at the table (issue 35; REFEREE-NOTES.md, "Phones at the table"):
// a phone's vote is a key's vote (the same checks, refusals and words, told
// to that seat alone, the same public "has voted"); one way to vote per seat
// unless the host chose `either`; a seat played from afar chooses its
// placement or move on its page (legal, on its turn, for the position it was
// offered), which the table then makes; a bot standing in for a round or the
// game; the seats and a pending choice kept across a resume from the log.
// No secret in the public status at any step.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/words/message_json.hpp"
#include "drivers/leds/led_names.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/roster.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using drivers::VoteKey;

// A classic four-seat game with the seats as given, dealt by the host.
void startSeats(HandTable& t, const json& seats, const json& bots = nullptr) {
    json newGame{{"setup", kClassic4}};
    if (!seats.is_null()) newGame["seats"] = seats;
    if (!bots.is_null()) newGame["bots"] = bots;
    auto answer = t.host({{"new-game", newGame}});
    REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
    answer = t.host({{"deal", dealFor(t.state(), 7)}});
    REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
    t.follow();
    t.take();
}

// The classic placements of toClassicAscent, then natale up to the throne:
// an election, every seat to vote. Seat 0 places first.
void phonesToElection(HandTable& t, const json& seats) {
    startSeats(t, seats);
    placeClassicToAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    t.take();
}

// A phone's vote, 100 ms on as a key press is (HandTable::press).
HostAnswer phoneVote(HandTable& t, int seat, std::string_view card) {
    t.now += 100ms;
    return t.host({{"vote", {{"seat", seat}, {"card", card}}}});
}

json stationNotice(const HandTable& t, int player) {
    return t.referee.playerStatus(engine::PlayerId{static_cast<std::uint8_t>(player)})["station_notice"];
}

std::size_t stepOf(const HandTable& t) {
    return t.referee.playerStatus(engine::PlayerId{0})["step"].get<std::size_t>();
}

// A placement or move line from afar, for the position of `step`.
json planOf(const HandTable& t, int seat, const std::string& slug, const std::string& to, std::size_t step) {
    const auto& rules = t.state().rules();
    const auto c = rules.roster().find(slug);
    const bool placing = t.state().placeOf(c) == engine::Place::Reserve;
    json plan{{placing ? "place" : "move", {{"seat", seat}, {"character", slug}, {"to", to}}}};
    plan["step"] = step;
    return json{{"plan", plan}};
}

// The i-th character of the classic roster.
std::string classic(int i) {
    return engine::classicRoster()[engine::CharacterId{static_cast<std::uint8_t>(i)}].id;
}

// The seats whose station the castle has. Not inlined: GCC 12 under ASan
// takes the reset of the options' empty optional, inlined, for a read of
// uninitialised memory.
[[gnu::noinline]] void stationsAt(RefereeOptions& options, std::set<int> seats) {
    options.stationSeats = std::move(seats);
}

}  // namespace

TEST_CASE("a phone's vote is a key's vote: the same public status, refusals and words, told to that seat") {
    // Seat 0 votes either way: one table votes with its key, the other with its phone.
    const json seats = json::array({{{"seat", 0}, {"votes", "either"}}});
    HandTable keys, phone;
    phonesToElection(keys, seats);
    phonesToElection(phone, seats);
    CHECK(keys.referee.publicStatus().dump() == phone.referee.publicStatus().dump());

    // A card the classic edition has not: refused, to that seat alone, in the same words.
    const std::string before = phone.referee.publicStatus().dump();
    keys.press(0, VoteKey::Stomachache);
    auto answer = phoneVote(phone, 0, "stomachache");
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "card-not-held");
    auto keyNotes = keys.take();
    auto phoneNotes = phone.take();
    REQUIRE(keyNotes.size() == 1);
    REQUIRE(phoneNotes.size() == 1);
    CHECK(phoneNotes[0].kind == "private-refusal");
    CHECK(phoneNotes[0].audience == Notice::Audience::Station);
    CHECK(phoneNotes[0].station == 0);
    CHECK(phoneNotes[0].detail == keyNotes[0].detail);
    REQUIRE(phoneNotes[0].says);
    REQUIRE(keyNotes[0].says);
    CHECK(phoneNotes[0].says->code == "referee.vote-not-counted");
    CHECK(keyNotes[0].says->code == "referee.key-not-counted");
    CHECK(words::messageJson(*phoneNotes[0].says)["args"]["why"] ==
          words::messageJson(*keyNotes[0].says)["args"]["why"]);
    CHECK(answer.says == phoneNotes[0].says);
    CHECK(stationNotice(phone, 0)["code"] == "card-not-held");
    for (int p = 1; p < 4; ++p) CHECK(stationNotice(phone, p).is_null());
    CHECK(phone.referee.publicStatus().dump() == before);
    CHECK(phone.referee.counters().privateRefusals == 1);
    CHECK(phone.referee.counters().refusals.empty());
    // A phone has no station LED to blink; the key's station blinks.
    CHECK(keys.led("station-0") == LedMode::Blink);
    CHECK(phone.led("station-0") == LedMode::On);

    // Counted: the same public "has voted", who and never what.
    keys.press(0, VoteKey::Yes);
    answer = phoneVote(phone, 0, "yes");
    CHECK(answer.ok);
    CHECK(answer.says->code == "answer.vote-counted");
    keyNotes = keys.take();
    phoneNotes = phone.take();
    REQUIRE(phoneNotes.size() == 1);
    CHECK(phoneNotes[0].kind == "vote-cast");
    CHECK(phoneNotes[0].detail == json{{"seat", 0}});
    CHECK(phoneNotes[0].detail == keyNotes[0].detail);
    keys.wait(1600ms);
    phone.wait(1600ms);
    CHECK(keys.referee.publicStatus().dump() == phone.referee.publicStatus().dump());
    CHECK(phone.referee.publicStatus()["election"]["voted"] == json::array({0}));
    checkNoSecrets(phone.referee.publicStatus(), phone.state());
    CHECK(phone.referee.leds(phone.now) == keys.referee.leds(keys.now));
    // What was voted is on that player's page only.
    CHECK(phone.referee.playerStatus(engine::PlayerId{0})["private"]["own_vote"] == "yes");

    // A second vote: already-voted, the same words, the public status untouched.
    const std::string voted = phone.referee.publicStatus().dump();
    keys.press(0, VoteKey::No);
    answer = phoneVote(phone, 0, "no");
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "already-voted");
    keyNotes = keys.take();
    phoneNotes = phone.take();
    REQUIRE(phoneNotes.size() == 1);
    REQUIRE(keyNotes.size() == 1);
    CHECK(phoneNotes[0].station == 0);
    CHECK(phoneNotes[0].detail["code"] == "already-voted");
    CHECK(phoneNotes[0].detail == keyNotes[0].detail);
    CHECK(words::messageJson(*phoneNotes[0].says)["args"]["why"] ==
          words::messageJson(*keyNotes[0].says)["args"]["why"]);
    for (int p = 1; p < 4; ++p) CHECK(stationNotice(phone, p).is_null());
    CHECK(phone.referee.publicStatus().dump() == voted);
    CHECK(phone.referee.playerStatus(engine::PlayerId{0})["private"]["own_vote"] == "yes");
}

TEST_CASE("a phone's vote with no vote open is refused as the key is, and changes nothing") {
    const json seats = json::array({{{"seat", 0}, {"votes", "either"}}});
    HandTable keys, phone;
    startSeats(keys, seats);
    startSeats(phone, seats);
    REQUIRE(phone.state().phase() != engine::Phase::Election);
    const std::string before = phone.referee.publicStatus().dump();
    keys.press(0, VoteKey::Yes);
    const auto answer = phoneVote(phone, 0, "yes");
    CHECK_FALSE(answer.ok);
    REQUIRE(answer.says);
    CHECK(answer.says->code == "station.no-vote");
    const auto keyNotes = keys.take();
    REQUIRE(keyNotes.size() == 1);
    REQUIRE(keyNotes[0].says);
    CHECK(keyNotes[0].says->code == "station.no-vote");
    CHECK(keyNotes[0].audience == Notice::Audience::Station);
    for (const auto& n : phone.take()) CHECK(n.audience != Notice::Audience::Public);
    CHECK(phone.referee.publicStatus().dump() == before);
    CHECK(phone.referee.counters().refusals.empty());
}

TEST_CASE("what a phone voted changes nothing public before the reveal") {
    const json seats = json::array({{{"seat", 2}, {"votes", "phone"}}});
    HandTable yes, no;
    phonesToElection(yes, seats);
    phonesToElection(no, seats);
    CHECK(phoneVote(yes, 2, "yes").ok);
    CHECK(phoneVote(no, 2, "no").ok);
    CHECK(yes.referee.publicStatus().dump() == no.referee.publicStatus().dump());
    CHECK(yes.take().back().detail == no.take().back().detail);
    checkNoSecrets(yes.referee.publicStatus(), yes.state());
}

TEST_CASE(
    "one way per seat: a station's key at a phone seat is ignored privately, a phone at a station "
    "seat refused; either takes both") {
    const json seats = json::array({{{"seat", 0}, {"votes", "phone"}},
                                    {{"seat", 2}, {"votes", "either"}},
                                    {{"seat", 3}, {"votes", "either"}}});
    HandTable t;
    phonesToElection(t, seats);
    const auto status = t.referee.publicStatus();
    CHECK(status["seats"][0]["votes_by"] == "phone");
    CHECK(status["seats"][1]["votes_by"] == "station");
    CHECK(status["seats"][2]["votes_by"] == "either");

    std::string before = t.referee.publicStatus().dump();
    t.press(0, VoteKey::Yes);
    auto notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "ignored-key");
    CHECK(notes[0].audience == Notice::Audience::Station);
    CHECK(notes[0].station == 0);
    CHECK(notes[0].detail["code"] == "station.votes-by-phone");
    CHECK(t.referee.publicStatus().dump() == before);
    CHECK(t.referee.publicStatus()["election"]["voted"].empty());

    auto answer = phoneVote(t, 1, "yes");
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "phone.votes-by-station");
    notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].station == 1);
    CHECK(stationNotice(t, 1)["says"]["code"] == "phone.votes-by-station");
    CHECK(t.referee.publicStatus().dump() == before);

    // Either: the key counts, and the phone after it is a second vote.
    t.press(2, VoteKey::No);
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({2}));
    answer = phoneVote(t, 2, "yes");
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "already-voted");
    // And the phone first, the key after it.
    CHECK(phoneVote(t, 3, "yes").ok);
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({2, 3}));
    t.take();
    before = t.referee.publicStatus().dump();
    t.press(3, VoteKey::No);
    notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "private-refusal");
    CHECK(notes[0].detail["code"] == "already-voted");
    CHECK(t.referee.publicStatus().dump() == before);
    checkNoSecrets(t.referee.publicStatus(), t.state());
}

TEST_CASE("a castle with no stations: every seat votes by phone, with nothing chosen") {
    RefereeOptions options;
    stationsAt(options, {});
    HandTable t(nullptr, options);
    phonesToElection(t, nullptr);
    // The status kept: a range-for over a temporary's member would outlive it.
    const auto status = t.referee.publicStatus();
    for (const auto& seat : status["seats"]) CHECK(seat["votes_by"] == "phone");
    t.press(1, VoteKey::Yes);
    CHECK(t.take().at(0).detail["code"] == "station.votes-by-phone");
    for (int s = 0; s < 4; ++s) CHECK(phoneVote(t, s, "yes").ok);
    CHECK(t.state().phase() != engine::Phase::Election);
    // Castles with some stations: the others vote by phone.
    RefereeOptions some;
    stationsAt(some, {0, 1});
    HandTable u(nullptr, some);
    startSeats(u, nullptr);
    const auto seats = u.referee.publicStatus()["seats"];
    CHECK(seats[0]["votes_by"] == "station");
    CHECK(seats[1]["votes_by"] == "station");
    CHECK(seats[2]["votes_by"] == "phone");
    CHECK(seats[3]["votes_by"] == "phone");
}

TEST_CASE(
    "a seat played from afar: only its legal choice on its turn, for the position offered; the table "
    "makes it") {
    const json seats = json::array({{{"seat", 0}, {"remote", true}}, {{"seat", 1}, {"remote", true}}});
    HandTable t;
    startSeats(t, seats);
    REQUIRE(t.state().seatToAct() == engine::Seat{0});
    auto status = t.referee.publicStatus();
    CHECK(status["seats"][0]["remote"] == true);
    CHECK(status["seats"][0]["votes_by"] == "phone");
    CHECK(status["plan"].is_null());
    const std::size_t step = stepOf(t);

    // Nothing of seat 0 is judged on the board before it chose: the table
    // waits for the phone (a piece put meanwhile is not its placement).
    t.put(classic(0), "1");
    CHECK(t.state().placeOf(id(t, classic(0))) == engine::Place::Reserve);
    CHECK(t.referee.publicStatus()["waiting_says"]["code"] == "wait.remote-turn");
    CHECK(stepOf(t) == step);
    t.remove(classic(0));
    t.follow();
    CHECK(refusalCode(t).empty());
    t.take();

    const std::string quiet = t.referee.publicStatus().dump();
    // Not remote, not on turn, a stale step, an illegal place: refused, nothing changed.
    auto answer = t.host(planOf(t, 2, classic(0), "1", step));
    CHECK(answer.code == "not-remote");
    answer = t.host(planOf(t, 1, classic(0), "1", step));
    CHECK(answer.code == "not-your-turn");
    answer = t.host(planOf(t, 0, classic(0), "1", step + 1));
    CHECK(answer.code == "stale");
    answer = t.host(planOf(t, 0, classic(0), "1", step - 1));
    CHECK(answer.code == "stale");
    answer = t.host(planOf(t, 0, classic(0), "5", step));  // the classic placements go to floors 1 to 4
    CHECK_FALSE(answer.ok);
    CHECK(answer.code != "stale");
    json notAMove = json::object();
    notAMove["vote"] = json{{"seat", 0}, {"card", "yes"}};
    notAMove["step"] = step;
    answer = t.host(json{{"plan", notAMove}});
    CHECK(answer.code == "bad-plan");
    CHECK(t.referee.publicStatus().dump() == quiet);
    CHECK(t.take().empty());

    // Chosen: shown to the table as a bot's move is.
    answer = t.host(planOf(t, 0, classic(0), "1", step));
    REQUIRE_MESSAGE(answer.ok, answer.message);
    status = t.referee.publicStatus();
    CHECK(status["plan"]["seat"] == 0);
    CHECK(status["plan"]["character"] == classic(0));
    CHECK(status["plan"]["to"] == "1");
    CHECK(status["plan"]["from_afar"] == true);
    CHECK(status["bot_plan"] == status["plan"]);
    CHECK(t.led("place-1") == LedMode::On);
    auto notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "remote-plan");
    checkNoSecrets(status, t.state());

    // A second choice replaces it.
    answer = t.host(planOf(t, 0, classic(1), "2", step));
    REQUIRE_MESSAGE(answer.ok, answer.message);
    status = t.referee.publicStatus();
    CHECK(status["plan"]["character"] == classic(1));
    CHECK(status["plan"]["to"] == "2");
    CHECK(t.led("place-2") == LedMode::On);
    CHECK(t.led("place-1") == LedMode::Off);

    // Another move of that seat: remote-move, the chosen one in the message.
    t.put(classic(0), "1");
    CHECK(refusalCode(t) == "remote-move");
    CHECK(t.state().placeOf(id(t, classic(0))) == engine::Place::Reserve);
    t.remove(classic(0));
    t.follow();
    CHECK(refusalCode(t).empty());

    // The planned move made on the board: accepted, the plan cleared.
    t.put(classic(1), "2");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, classic(1))) == engine::Place::Floor2);
    CHECK(t.referee.publicStatus()["plan"].is_null());
    CHECK(t.state().seatToAct() == engine::Seat{1});
    CHECK(stepOf(t) == step + 1);
    // The old step is stale now; the next seat chooses for the new one.
    CHECK(t.host(planOf(t, 1, classic(2), "1", step)).code == "stale");
    CHECK(t.host(planOf(t, 1, classic(2), "1", step + 1)).ok);
    checkNoSecrets(t.referee.publicStatus(), t.state());
}

TEST_CASE("a move chosen from afar in the ascent: the place it leaves blinks, its destination is lit") {
    HandTable t;
    startSeats(t, json::array({{{"seat", 0}, {"remote", true}}}));
    // The placements of toClassicAscent, seat 0's chosen on its phone first.
    const char* floors[] = {"1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "4", "4"};
    for (int i = 0; i < 12; ++i) {
        if (t.state().seatToAct() == engine::Seat{0})
            REQUIRE(t.host(planOf(t, 0, classic(i), floors[i], stepOf(t))).ok);
        t.put(classic(i), floors[i]);
        REQUIRE(refusalCode(t).empty());
    }
    t.follow();
    REQUIRE(t.state().phase() == engine::Phase::Ascent);
    REQUIRE(t.state().seatToAct() == engine::Seat{0});
    t.wait(1000ms);  // the last placement's flash is over
    const auto answer = t.host(planOf(t, 0, "natale", "5", stepOf(t)));
    REQUIRE_MESSAGE(answer.ok, answer.message);
    const auto status = t.referee.publicStatus();
    CHECK(status["plan"]["action"] == "move");
    CHECK(status["plan"]["from"] == "4");
    CHECK(status["plan"]["to"] == "5");
    CHECK(t.led("place-4") == LedMode::Blink);
    CHECK(t.led("place-5") == LedMode::On);
    checkNoSecrets(status, t.state());
    // The wrong piece moved for them is guided back; then the right one is taken.
    t.put("odessa", "5");
    CHECK(refusalCode(t) == "remote-move");
    t.put("odessa", "4");
    CHECK(refusalCode(t).empty());
    t.put("natale", "5");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "natale")) == engine::Place::Floor5);
    CHECK(t.referee.publicStatus()["plan"].is_null());
    CHECK(t.referee.publicStatus()["last_action_says"]["args"]["to"]["place"] == "5");
}

TEST_CASE("the same choice sent again changes nothing") {
    const json seats = json::array({{{"seat", 0}, {"remote", true}}});
    HandTable t;
    startSeats(t, seats);
    const std::size_t step = stepOf(t);
    REQUIRE(t.host(planOf(t, 0, classic(0), "1", step)).ok);
    const std::string shown = t.referee.publicStatus().dump();
    t.take();
    const auto again = t.host(planOf(t, 0, classic(0), "1", step));
    // REFEREE-NOTES.md says a choice sent again is refused as stale. That
    // holds once the table made the move (the step moved on: see the case
    // above); before, the step is the same and today the same choice is
    // accepted and shown again. Either way nothing changes.
    INFO("answer " << again.code << " " << again.message);
    CHECK(t.referee.publicStatus().dump() == shown);
}

TEST_CASE("a seat from afar goes back to the table: its choice is dropped") {
    const json seats = json::array({{{"seat", 0}, {"remote", true}}});
    HandTable t;
    startSeats(t, seats);
    REQUIRE(t.host(planOf(t, 0, classic(0), "1", stepOf(t))).ok);
    auto answer = t.host({{"seat", {{"seat", 0}, {"remote", false}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    CHECK(t.referee.publicStatus()["plan"].is_null());
    CHECK(t.referee.publicStatus()["seats"][0]["remote"] == false);
    // Its move is judged on the board again.
    t.put(classic(3), "2");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, classic(3))) == engine::Place::Floor2);
}

namespace {

// Plays on with random legal actions of the people's seats (keys, or the
// phone for a seat that votes by phone), the bots' shown moves made by the
// table, the referee's own chance, until `done` or the game is over. The
// public status is checked for secrets at every step.
template <typename Done>
void playOn(HandTable& t, std::uint64_t seed, Done done) {
    engine::Rng rng(seed);
    for (int steps = 0; !t.state().isOver() && !done(); ++steps) {
        REQUIRE(steps < 3000);
        const auto status = t.referee.publicStatus();
        checkNoSecrets(status, t.state());
        INFO("step " << steps << " status " << status.dump());
        REQUIRE(status["refusal"].is_null());
        if (status["guidance"].is_object()) {
            t.follow();
            continue;
        }
        const auto& state = t.state();
        if (state.awaitsChance()) {
            t.wait(1100ms);
            continue;
        }
        if (const auto& plan = status["plan"]; plan.is_object()) {
            t.put(plan["character"], plan["to"]);
            continue;
        }
        std::vector<engine::Action> choices;
        engine::ActionList legal;
        state.legalActions(legal);
        for (const auto& a : legal) {
            const auto play = t.referee.seatPlay(a.seat());
            if (!play || play->botPlays()) continue;
            choices.push_back(a);
        }
        if (choices.empty()) {  // the bots are thinking
            t.wait(200ms);
            continue;
        }
        const auto& a = choices[rng.below(static_cast<std::uint32_t>(choices.size()))];
        if (a.kind() == engine::ActionKind::Vote &&
            t.referee.seatPlay(a.seat())->votesBy() == VoteSource::Phone)
            REQUIRE(phoneVote(t, a.seat().index, engine::voteCardName(a.card())).ok);
        else
            t.perform(a);
    }
}

}  // namespace

TEST_CASE("a bot stands in for a round: handed back when the round is scored; for the game it stays") {
    HandTable t;
    startSeats(t, json::array({{{"seat", 1}, {"votes", "phone"}}}));
    auto answer = t.host({{"seat", {{"seat", 1}, {"bot", "casual"}, {"until", "round"}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    answer = t.host({{"seat", {{"seat", 2}, {"bot", "casual"}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    auto seats = t.referee.publicStatus()["seats"];
    CHECK(seats[1]["stand_in"] == "casual");
    CHECK(seats[1]["stand_in_until"] == "round");
    CHECK(seats[2]["stand_in_until"] == "game");
    CHECK(t.referee.botAt(engine::Seat{1}) == "casual");
    // Its people's phone counts no vote meanwhile.
    playOn(t, 11, [&] { return t.state().phase() == engine::Phase::Election; });
    REQUIRE(t.state().phase() == engine::Phase::Election);
    answer = phoneVote(t, 1, "yes");
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "phone.bot-seat");

    playOn(t, 12, [&] { return !t.state().finishedRounds().empty(); });
    REQUIRE_FALSE(t.state().finishedRounds().empty());
    seats = t.referee.publicStatus()["seats"];
    CHECK(seats[1]["stand_in"].is_null());
    CHECK(seats[1]["votes_by"] == "phone");
    CHECK_FALSE(t.referee.botAt(engine::Seat{1}));
    CHECK(seats[2]["stand_in"] == "casual");
    CHECK(t.referee.botAt(engine::Seat{2}) == "casual");

    // Handed back by the host.
    answer = t.host({{"seat", {{"seat", 2}, {"bot", nullptr}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    CHECK(t.referee.publicStatus()["seats"][2]["stand_in"].is_null());
    CHECK_FALSE(t.referee.botAt(engine::Seat{2}));
    answer = t.host({{"seat", {{"seat", 2}, {"bot", nullptr}}}});
    CHECK(answer.code == "no-stand-in");
    playOn(t, 13, [] { return false; });
    CHECK(t.state().isOver());
}

TEST_CASE("a seat that was a bot from the start cannot be changed") {
    HandTable t;
    startSeats(t, nullptr, json::array({{{"seat", 3}, {"strength", "casual"}}}));
    for (const json& change : {json{{"seat", 3}, {"votes", "phone"}}, json{{"seat", 3}, {"remote", true}},
                               json{{"seat", 3}, {"bot", nullptr}}, json{{"seat", 3}, {"bot", "good"}}}) {
        const auto answer = t.host({{"seat", change}});
        CHECK(answer.code == "bot-seat");
    }
    CHECK(t.referee.publicStatus()["seats"][3]["bot"] == "casual");
}

TEST_CASE("a game resumed from its log keeps its seats and the choice made from afar") {
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    json status;
    std::optional<store::GameId> game;
    {
        HandTable t(&log);
        startSeats(t, json::array({{{"seat", 0}, {"remote", true}}, {{"seat", 3}, {"votes", "either"}}}));
        REQUIRE(t.host({{"seat", {{"seat", 2}, {"votes", "phone"}}}}).ok);
        REQUIRE(t.host({{"seat", {{"seat", 1}, {"bot", "casual"}, {"until", "round"}}}}).ok);
        REQUIRE(t.host(planOf(t, 0, classic(4), "2", stepOf(t))).ok);
        status = t.referee.publicStatus();
        game = t.referee.game();
    }
    REQUIRE(game);
    HandTable r(&log);
    auto answer = r.referee.resume(*game, Timestamp(0));
    REQUIRE_MESSAGE(answer.ok, answer.message);
    r.follow();
    const auto again = r.referee.publicStatus();
    CHECK(again["seats"] == status["seats"]);
    CHECK(again["plan"] == status["plan"]);
    CHECK(r.referee.seatPlay(engine::Seat{0})->remote);
    CHECK(r.referee.seatPlay(engine::Seat{2})->votes == VoteSource::Phone);
    CHECK(r.referee.seatPlay(engine::Seat{3})->votes == VoteSource::Either);
    CHECK(r.referee.seatPlay(engine::Seat{1})->standIn == "casual");
    // And the table makes it.
    r.put(classic(4), "2");
    CHECK(refusalCode(r).empty());
    CHECK(r.state().placeOf(id(r, classic(4))) == engine::Place::Floor2);
    CHECK(r.referee.publicStatus()["plan"].is_null());
}

}  // namespace vivaref::referee::testing
