// Elections through the vote stations: who has voted is public, what never
// is until the reveal; a key for a card not held or a second vote is refused
// on that station only; the outcome is guided on the board.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/words/words.hpp"
#include "tests/referee/game_builder.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using drivers::VoteKey;
using engine::Place;

// natale up to the throne: seat 0 to 5, seat 1 to the throne.
void toElection(HandTable& t) {
    toClassicAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    REQUIRE(t.state().candidate() == id(t, "natale"));
    t.take();
}

}  // namespace

TEST_CASE("an election opens when a character reaches the throne: every station lights") {
    HandTable t;
    toElection(t);
    for (int s = 0; s < 4; ++s) CHECK(t.led("station-" + std::to_string(s)) == LedMode::On);
    CHECK(t.led("turn-1") == LedMode::Off);
    auto status = t.referee.publicStatus();
    CHECK(status["election"]["candidate"] == "natale");
    CHECK(status["election"]["crown_holder"] == 1);
    CHECK(status["election"]["voted"].empty());
    CHECK(status["election"]["waiting"] == json::array({0, 1, 2, 3}));
    // The headline says who acts and on what (issue 34: it was "Votes.").
    CHECK(status["waiting_says"]["code"] == "wait.votes");
    CHECK(status["waiting_says"]["args"]["character"]["character"] == "natale");
    CHECK(
        status["waiting_for"].get<std::string>().starts_with("Everyone votes Yes or No on crowning Natale"));
    checkNoSecrets(status, t.state());
}

TEST_CASE("a move during an election is out of turn: refused with wrong-phase, then put back") {
    HandTable t;
    toElection(t);
    t.put("leonardo", "4");
    CHECK(refusalCode(t) == "wrong-phase");
    CHECK(t.led("place-4") == LedMode::Blink);
    t.put("leonardo", "3");
    CHECK(refusalCode(t).empty());
}

TEST_CASE(
    "a key for a card not held or a second vote: refused on that station only, public status unchanged") {
    HandTable t;
    toElection(t);
    std::string before = t.referee.publicStatus().dump();
    t.press(2, VoteKey::Stomachache);  // the classic edition has no such card
    auto notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "private-refusal");
    CHECK(notes[0].audience == Notice::Audience::Station);
    CHECK(notes[0].station == 2);
    CHECK(notes[0].detail["code"] == "card-not-held");
    CHECK(t.referee.publicStatus().dump() == before);
    CHECK(t.led("station-2") == LedMode::Blink);
    CHECK(t.led("station-1") == LedMode::On);
    CHECK(t.referee.counters().privateRefusals == 1);
    CHECK(t.referee.counters().refusals.empty());

    t.press(0, VoteKey::Yes);
    notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "vote-cast");
    CHECK(notes[0].audience == Notice::Audience::Public);
    CHECK(notes[0].detail == json{{"seat", 0}});
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({0}));
    CHECK(t.led("station-0") == LedMode::Off);
    checkNoSecrets(t.referee.publicStatus(), t.state());

    before = t.referee.publicStatus().dump();
    t.press(0, VoteKey::No);
    notes = t.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].station == 0);
    CHECK(notes[0].detail["code"] == "already-voted");
    CHECK(t.referee.publicStatus().dump() == before);
    t.wait(1500ms);
    CHECK(t.led("station-2") == LedMode::On);
    CHECK(t.led("station-0") == LedMode::Off);
}

TEST_CASE("what a seat voted changes nothing public before the reveal") {
    HandTable yes, no;
    toElection(yes);
    toElection(no);
    yes.press(0, VoteKey::Yes);
    no.press(0, VoteKey::No);
    CHECK(yes.referee.publicStatus().dump() == no.referee.publicStatus().dump());
    CHECK(yes.referee.playerStatus(engine::PlayerId{0})["private"]["own_vote"] == "yes");
    CHECK(no.referee.playerStatus(engine::PlayerId{0})["private"]["own_vote"] == "no");
    CHECK_FALSE(yes.referee.playerStatus(engine::PlayerId{1})["private"].contains("own_vote"));
}

TEST_CASE("a key outside an election is ignored, privately") {
    HandTable t;
    toClassicAscent(t);
    const auto before = t.referee.publicStatus().dump();
    t.press(3, VoteKey::Yes);
    t.press(7, VoteKey::Yes);
    auto notes = t.take();
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].kind == "ignored-key");
    CHECK(notes[0].station == 3);
    CHECK(notes[1].station == 7);
    CHECK(t.referee.publicStatus().dump() == before);
}

TEST_CASE("a key from a station the game has no seat for is told so there, and votes for nobody") {
    HandTable t;
    toElection(t);
    const auto before = t.referee.publicStatus().dump();
    const int told = t.referee.counters().stationNotices;
    t.press(4, VoteKey::Yes);  // a fifth station at a four-seat game
    t.press(-1, VoteKey::No);
    t.press(256, VoteKey::Yes);  // seat 0's number in a byte, and still no seat
    const auto notes = t.take();
    REQUIRE(notes.size() == 3);
    CHECK(notes[0].kind == "ignored-key");
    CHECK(notes[0].audience == Notice::Audience::Station);
    CHECK(notes[0].station == 4);
    CHECK(notes[0].text == "This game has no seat 5.");
    CHECK(notes[1].station == -1);
    CHECK(notes[1].text == "This game has no seat 0.");
    CHECK(notes[2].station == 256);
    CHECK(notes[2].text == "This game has no seat 257.");
    // Each said as a message too, for the player's page in its own language.
    REQUIRE(notes[0].says);
    CHECK(notes[0].says->code == "station.no-such-seat");
    CHECK(words::Words("it").say(*notes[0].says) == "Questa partita non ha il posto 5.");
    CHECK(t.referee.publicStatus().dump() == before);  // nobody voted
    for (std::uint8_t p = 0; p < 4; ++p)
        CHECK(t.referee.playerStatus(engine::PlayerId{p})["station_notice"].is_null());
    CHECK(t.referee.counters().stationNotices == told + 3);
}

TEST_CASE("a key pressed while the candidate's move is still being seen counts once the vote opens") {
    // natale is on the throne, but its reader has not shown it yet: the
    // referee still sees natale in a hand. A key pressed then is held, and
    // counts when the move is seen and opens the vote.
    HandTable t;
    toClassicAscent(t);
    t.put("natale", "5");
    t.lift("natale");
    t.take();
    t.press(2, VoteKey::Yes);
    CHECK(t.take().empty());  // held, not refused
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({2}));

    // Held too long (the move never came): refused when the hold is over.
    HandTable late;
    toClassicAscent(late);
    late.lift("natale");
    late.take();
    late.press(1, VoteKey::No);
    CHECK(late.take().empty());
    late.wait(RefereeOptions{}.earlyVoteHold - Timestamp(100));
    CHECK(late.take().empty());  // still held
    REQUIRE(late.referee.nextDeadline());
    CHECK(*late.referee.nextDeadline() <= late.now + Timestamp(100));  // the hold's end is a deadline
    late.wait(Timestamp(100));
    auto notes = late.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "ignored-key");
    CHECK(notes[0].station == 1);

    // The board settles without opening a vote: refused at once.
    HandTable back;
    toClassicAscent(back);
    back.lift("natale");
    back.take();
    back.press(0, VoteKey::Yes);
    CHECK(back.take().empty());
    back.put("natale", "4");  // put back where it was: nothing moved
    notes = back.take();
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].kind == "ignored-key");
    CHECK(notes[0].station == 0);
}

TEST_CASE("a No eliminates: the votes are revealed together, the candidate is guided to the box") {
    HandTable t;
    toElection(t);
    t.press(0, VoteKey::Yes);
    t.press(1, VoteKey::Yes);
    t.press(2, VoteKey::Yes);
    CHECK(noticesOf(t.notices, "revealed").empty());
    t.press(3, VoteKey::No);
    auto revealed = noticesOf(t.take(), "revealed");
    REQUIRE(revealed.size() == 1);
    CHECK(revealed[0].detail["votes"] == json::array({"yes", "yes", "yes", "no"}));
    CHECK(revealed[0].detail["outcome"] == "eliminated");
    CHECK(t.state().placeOf(id(t, "natale")) == Place::Box);
    auto status = t.referee.publicStatus();
    CHECK(status["view"]["last_reveal"]["votes"][3] == "no");
    REQUIRE(status["guidance"].is_object());
    CHECK(status["guidance"]["moves"][0]["do"] == "take Natale Oste Gioviale off the board");
    CHECK(t.led("place-6") == LedMode::Blink);
    CHECK(t.led("turn-2") == LedMode::On);
    t.lift("natale");
    t.remove("natale");
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    CHECK(t.led("place-6") == LedMode::Off);
    // Out of the round: putting it back is refused.
    t.put("natale", "3");
    CHECK(refusalCode(t) == "character-not-in-castle");
    t.remove("natale");
    CHECK(refusalCode(t).empty());
}

TEST_CASE("all Yes crowns; the round ends, the referee deals, the board is guided clear") {
    HandTable t(nullptr, seeded(3));
    toElection(t);
    for (int s = 0; s < 4; ++s) t.press(s, VoteKey::Yes);
    CHECK(noticesOf(t.notices, "crowned").size() == 1);
    CHECK(noticesOf(t.notices, "round-ended").size() == 1);
    CHECK(t.state().phase() == engine::Phase::AwaitDeal);
    CHECK(t.state().round() == 2);
    auto status = t.referee.publicStatus();
    CHECK(status["view"]["finished_rounds"].size() == 1);
    CHECK(status["guidance"].is_null());  // nothing to do before the deal
    checkNoSecrets(status, t.state());
    t.lift("leonardo");  // clearing early is fine
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    t.wait(1000ms);
    REQUIRE(t.state().phase() == engine::Phase::Placement);
    status = t.referee.publicStatus();
    REQUIRE(status["guidance"].is_object());
    CHECK(status["guidance"]["moves"].size() == 12);  // leonardo, in a hand already, is off the board
    // Issue 34: the headline says who clears the castle, and the guidance how
    // many pieces it began with (a coronation's moment lasts until one is off).
    CHECK(status["guidance"]["started_with"] == 12);
    CHECK(status["waiting_says"]["code"] == "wait.board-clear");
    CHECK(status["waiting_says"]["args"]["round"] == 2);
    CHECK(status["waiting_for"] == "Everyone: clear the castle for round 2.");
    t.lift("natale");
    status = t.referee.publicStatus();
    CHECK(status["guidance"]["moves"].size() == 11);
    CHECK(status["guidance"]["started_with"] == 12);
    t.on.clear();
    t.inHand.clear();
    t.show();
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    t.put("odessa", "2");
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Floor2);
}

TEST_CASE("2024: a rejected Jester is guided back down to floor 2 (or 1, or 0)") {
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = 4;
    auto game = findGame(spec, [](const engine::State& s) {
        if (s.phase() != engine::Phase::Election || !s.rules().roster().isJester(s.candidate())) return false;
        for (int i = 0; i < s.rules().seats(); ++i)
            if (s.hand(engine::Seat{static_cast<std::uint8_t>(i)}).no > 0) return true;
        return false;
    });
    REQUIRE(game.has_value());
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    const auto gameId = logGame(log, *game);
    HandTable t(&log);
    REQUIRE(t.referee.resume(gameId, t.now).ok);
    CHECK(t.state() == *game->state);
    t.follow();
    const auto jester = t.state().rules().roster().jester();
    int noSeat = -1;
    for (int s = 0; s < 4; ++s)
        if (noSeat < 0 && t.state().hand(engine::Seat{static_cast<std::uint8_t>(s)}).no > 0) noSeat = s;
    for (int s = 0; s < 4; ++s) t.press(s, s == noSeat ? VoteKey::No : VoteKey::Yes);
    const Place back = t.state().placeOf(jester);
    CHECK((back == Place::Floor2 || back == Place::Floor1 || back == Place::Floor0));
    auto status = t.referee.publicStatus();
    REQUIRE(status["guidance"].is_object());
    CHECK(status["guidance"]["moves"][0]["do"] ==
          "move The Jester from the throne to floor " + std::string(engine::placeName(back)));
    CHECK(t.led("place-6") == LedMode::Blink);
    CHECK(t.led("place-" + std::string(engine::placeName(back))) == LedMode::Blink);
    t.follow();
    CHECK(t.referee.publicStatus()["guidance"].is_null());
}

}  // namespace vivaref::referee::testing

namespace vivaref::referee::testing {

TEST_CASE("a seat with no legal move passes by itself once the board matches") {
    // The one way there (RULES-NOTES, Turns): a 7-seat royal-couple round
    // where the Jester is crowned first and every other candidate rejected.
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = 7;
    spec.variant = engine::Variant::RoyalCouple;
    auto jesterFirst = [](const engine::State& s, engine::Rng& rng) {
        engine::ActionList legal;
        s.legalActions(legal);
        const auto jester = s.rules().roster().jester();
        if (s.phase() == engine::Phase::Election) {
            // The Jester is crowned; anyone else gets exactly one No.
            bool noCast = false;
            for (int i = 0; i < s.rules().seats(); ++i)
                noCast =
                    noCast || s.voteOf(engine::Seat{static_cast<std::uint8_t>(i)}) == engine::VoteCard::No;
            const bool wantNo = s.candidate() != jester && !noCast;
            for (const auto& a : legal)
                if (a.card() == (wantNo ? engine::VoteCard::No : engine::VoteCard::Yes)) return a;
            for (const auto& a : legal)
                if (a.card() == engine::VoteCard::Yes) return a;
        }
        if (s.phase() == engine::Phase::Ascent)
            for (const auto& a : legal)
                if (a.kind() == engine::ActionKind::Move && a.character() == jester) return a;
        return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
    };
    auto mustPass = [](const engine::State& s) {
        if (s.phase() != engine::Phase::Ascent) return false;
        engine::ActionList legal;
        s.legalActions(legal);
        return legal.size() == 1 && legal[0].kind() == engine::ActionKind::Pass;
    };
    std::optional<BuiltGame> game;
    for (std::uint64_t seed = 1; seed < 200 && !game; ++seed)
        game = playUntil(spec, seed, mustPass, jesterFirst);
    REQUIRE(game.has_value());
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing);
    const auto gameId = logGame(log, *game);
    HandTable t(&log);
    REQUIRE(t.referee.resume(gameId, t.now).ok);
    const auto seat = t.state().seatToAct();
    CHECK(t.referee.counters().automaticPasses == 0);  // not before the board matches
    t.follow();
    CHECK(t.referee.counters().automaticPasses >= 1);
    auto passed = noticesOf(t.notices, "passed");
    REQUIRE_FALSE(passed.empty());
    CHECK(passed[0].detail["seat"] == seat.index);
    // Undo takes back the automatic passes with the last decision a person took.
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    engine::State before(std::make_shared<const engine::Rules>(spec));
    for (std::size_t i = 0; i + 1 < game->decisions.size(); ++i) {
        const auto& d = game->decisions[i];
        if (auto* deal = std::get_if<engine::Deal>(&d)) REQUIRE_FALSE(before.apply(*deal));
        if (auto* action = std::get_if<engine::Action>(&d)) REQUIRE_FALSE(before.apply(*action));
        if (auto* pile = std::get_if<engine::Reshuffle>(&d)) REQUIRE_FALSE(before.apply(*pile));
    }
    CHECK(t.state() == before);
}

}  // namespace vivaref::referee::testing
