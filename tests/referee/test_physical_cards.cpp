// Physical Favourites cards: the referee plays each round on placeholders
// nobody sees, waits at a coronation for the host to enter the cards as
// revealed, then plays the round again on them; the log's export holds the
// real cards and replays to the result the table was shown; a crash while
// the cards are awaited resumes still awaiting them.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

json newGame(const engine::RulesSpec& spec, const char* favourites = "physical") {
    return {{"new-game",
             {{"setup", json::parse(record::writeSetup(spec)).at("setup")}, {"favourites", favourites}}}};
}

// The cards a table "revealed": those of a deal made from `seed`.
json revealFor(const engine::State& state, const json& need, std::uint64_t seed) {
    engine::State fresh(state.rulesPtr());
    engine::Rng rng(seed);
    const json deal =
        json::parse(record::writeDeal(engine::randomDeal(fresh, rng), state.rules())).at("deal");
    json out{{"round", need["round"]}};
    if (need["favourites"] == true) {
        out["favourites"] = deal["favourites"];
        if (deal.contains("banished")) out["banished"] = deal["banished"];
    }
    if (need["ambitions"] == true) {
        json kept = json::array();
        for (const auto& pair : deal["ambitions"]) kept.push_back(pair[0]);
        out["ambitions"] = std::move(kept);
    }
    return out;
}

// Random legal play (the referee deals) until the status satisfies `stop`;
// false when the game ended first.
bool playUntil(SimTable& t, engine::Rng& rng, const std::function<bool(const json&)>& stop) {
    for (int steps = 0; steps < 4000; ++steps) {
        const auto status = t.referee.publicStatus();
        if (stop(status)) return true;
        if (status["state"] != "playing") return false;
        INFO("status " << status.dump());
        REQUIRE(status["refusal"].is_null());
        if (status["guidance"].is_object()) {
            t.follow();
            continue;
        }
        REQUIRE(status["reveal"].is_null());  // a pending reveal must stop the caller
        const auto phase = t.state().phase();
        REQUIRE(phase != engine::Phase::KeepAmbition);  // the referee keeps placeholders itself
        if (phase == engine::Phase::AwaitDeal || phase == engine::Phase::AwaitReshuffle) {
            t.advance(1100ms);
            continue;
        }
        t.perform(engine::randomAction(t.state(), rng));
    }
    FAIL("the game did not get there in 4000 steps");
    return false;
}

bool revealPending(const json& status) { return status["reveal"].is_object(); }

int lateCorrections = 0;  // corrections made once the next round was under way

// The favourites of every deal line of an exported record, by round.
std::map<int, json> dealtFavourites(const std::string& record) {
    std::map<int, json> out;
    std::istringstream lines(record);
    for (std::string line; std::getline(lines, line);) {
        auto j = json::parse(line);
        if (j.contains("deal")) out[j["deal"]["round"].get<int>()] = j["deal"]["favourites"];
    }
    return out;
}

// Nothing of a placeholder card is shown while the real one is awaited.
void checkNothingShown(SimTable& t) {
    const auto status = t.referee.publicStatus();
    CHECK(status["view"]["revealed_favourites"].empty());
    CHECK(status["favourites_mode"] == "physical");
    for (int p = 0; p < t.state().rules().players(); ++p) {
        const auto own = t.referee.playerStatus(engine::PlayerId{static_cast<std::uint8_t>(p)});
        CHECK(own["favourites_mode"] == "physical");
        CHECK_FALSE(own["private"].contains("favourites"));
        CHECK_FALSE(own["private"].contains("ambition_choices"));
        CHECK_FALSE(own["private"].contains("ambition"));
        CHECK(own["private"].contains("hand"));
        CHECK(own["moment"]["ambition"].is_null());  // the player holds the card, not the page
    }
}

// A whole physical game: every pending reveal refused once when asked for
// the wrong round, then entered (sometimes corrected); returns the cards
// entered last for each round.
std::map<int, json> playPhysicalGame(SimTable& t, store::GameStore& log, std::uint64_t seed) {
    engine::Rng rng(seed);
    std::map<int, json> entered;
    std::uint64_t cardSeed = seed * 1000;
    json totalsBefore = json::array();
    const auto track = [&](const json& s) {
        if (!revealPending(s)) totalsBefore = s["view"]["totals"];
        return revealPending(s);
    };
    while (playUntil(t, rng, track)) {
        const auto status = t.referee.publicStatus();
        const json need = status["reveal"];
        INFO("reveal " << need.dump());
        const int round = need["round"].get<int>();
        checkNothingShown(t);
        // The scores wait for the real cards.
        CHECK(status["view"]["totals"] == totalsBefore);
        CHECK(status["waiting_for"].get<std::string>().find("revealed cards") != std::string::npos);
        const auto accepted = t.referee.counters().actionsAccepted;
        t.press(0, drivers::VoteKey::Yes);  // a key now is ignored
        CHECK(t.referee.counters().actionsAccepted == accepted);

        json cards = revealFor(t.state(), need, ++cardSeed);
        json wrong = cards;
        wrong["round"] = round + 1;
        auto answer = t.host({{"reveal", wrong}});
        CHECK_FALSE(answer.ok);
        CHECK(answer.code == "wrong-round");
        if (need["favourites"] == true) {
            json missing = cards;
            missing.erase("favourites");
            missing.erase("banished");
            answer = t.host({{"reveal", missing}});
            CHECK_FALSE(answer.ok);
            CHECK(answer.code == "bad-reveal");
            REQUIRE(answer.says);
            CHECK(answer.says->code == "reveal.favourites-needed");
            CHECK(words::Words("fr").say(*answer.says) ==
                  "Saisissez les six personnages de l’objectif secret de chaque joueur.");
            json twice = cards;  // a card naming one character twice
            twice["favourites"][1][1] = twice["favourites"][1][0];
            answer = t.host({{"reveal", twice}});
            CHECK_FALSE(answer.ok);
            json unknown = cards;
            unknown["favourites"][0][0] = "nobody";
            answer = t.host({{"reveal", unknown}});
            CHECK_FALSE(answer.ok);
            INFO("refusal " << answer.code << ": " << answer.message);
            CHECK(answer.code == "unknown-character");
        }
        CHECK(revealPending(t.referee.publicStatus()));

        answer = t.host({{"reveal", cards}});
        REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
        if (cards.contains("favourites")) entered[round] = cards["favourites"];
        auto after = t.referee.publicStatus();
        CHECK(after["reveal"].is_null());
        // The log's deal of the round is now the real one.
        CHECK(dealtFavourites(log.exportRecord(*t.referee.game()))[round] == entered[round]);
        // Corrected once in a while: at once, or some moves into the next
        // round (until its own coronation); never once the game is over.
        const auto when = rng.below(3);
        if (need["favourites"] == true && after["state"] == "playing" && when != 0) {
            if (when == 2) {
                int left = 1 + static_cast<int>(rng.below(30));
                playUntil(t, rng, [&](const json& s) { return track(s) || left-- <= 0; });
            }
            const auto now = t.referee.publicStatus();
            if (!revealPending(now)) {
                REQUIRE(now["reveal_correction"].is_object());
                CHECK(now["reveal_correction"]["round"] == round);
                if (now["view"]["round"] != round && now["view"]["phase"] != "deal") ++lateCorrections;
                json fixed = revealFor(t.state(), need, ++cardSeed);
                fixed.erase("ambitions");
                const auto before = t.referee.counters().actionsAccepted;
                answer = t.host({{"reveal", fixed}});
                REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
                entered[round] = fixed["favourites"];
                CHECK(t.referee.counters().actionsAccepted == before);  // replayed, not accepted again
                CHECK(dealtFavourites(log.exportRecord(*t.referee.game()))[round] == entered[round]);
            }
        }
    }
    return entered;
}

}  // namespace

TEST_CASE(
    "physical cards: placeholders hidden, the coronation waits for the host, the round replayed on the real "
    "cards") {
    const std::vector<engine::RulesSpec> specs = {
        specOf(engine::Edition::Classic, 4),
        specOf(engine::Edition::Vive2024, 4, engine::Variant::None, {true, true}),
        specOf(engine::Edition::Vive2024, 4, engine::Variant::RoyalCouple, {true, false}),
        specOf(engine::Edition::Vive2024, 3, engine::Variant::Emissary, {false, true}),
    };
    for (const auto& spec : specs) {
        for (std::uint64_t seed : {3u, 4u}) {
            CAPTURE(seed);
            INFO("setup " << record::writeSetup(spec));
            store::testing::ScratchDir dir;
            store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                                 store::Durability::Normal);
            SimTable t(&log, seeded(seed));
            auto answer = t.host(newGame(spec));
            REQUIRE_MESSAGE(answer.ok, answer.message);
            const auto entered = playPhysicalGame(t, log, seed);
            REQUIRE(t.referee.publicStatus()["state"] == "finished");
            const auto& counters = t.referee.counters();
            REQUIRE(counters.results.size() == 1);
            CHECK(counters.refusals.empty());
            // Every round's cards came from the host, and the export holds them.
            const auto exported = log.exportRecord(*t.referee.game());
            const auto dealt = dealtFavourites(exported);
            CHECK(dealt.size() == static_cast<std::size_t>(t.state().rules().rounds()));
            for (const auto& [round, favourites] : dealt) {
                CAPTURE(round);
                REQUIRE(entered.contains(round));
                CHECK(favourites == entered.at(round));
            }
            // The result the table was shown is the one the real cards give.
            CHECK(record::replayRecord(exported) == counters.results[0]);
            CHECK(record::resultJson(t.state()) == counters.results[0]);
            for (const auto& n : t.notices) {
                INFO("notice " << n.kind << ": " << n.detail.dump());
                CHECK(n.detail.dump().find("\"hand\"") == std::string::npos);
                CHECK(n.detail.dump().find("\"favourites\":[") == std::string::npos);
            }
        }
    }
    MESSAGE(lateCorrections << " corrections made during the next round");
    CHECK(lateCorrections > 0);
}

TEST_CASE("physical cards: a crash while the cards are awaited resumes awaiting them; after, as entered") {
    const auto spec = specOf(engine::Edition::Vive2024, 4, engine::Variant::None, {true, false});
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    engine::Rng rng(9);
    json need;
    store::GameId game;
    {
        SimTable t(&log, seeded(9));
        REQUIRE(t.host(newGame(spec)).ok);
        REQUIRE(playUntil(t, rng, revealPending));
        need = t.referee.publicStatus()["reveal"];
        game = *t.referee.game();
    }  // the referee is gone: a crash
    SimTable again(&log, seeded(10));
    auto answer = again.referee.resume(game, again.now);
    REQUIRE_MESSAGE(answer.ok, answer.message);
    auto status = again.referee.publicStatus();
    CHECK(status["reveal"] == need);
    CHECK(status["favourites_mode"] == "physical");
    checkNothingShown(again);
    again.advance(5000ms);  // the referee does not deal the next round meanwhile
    CHECK(again.referee.publicStatus()["reveal"] == need);

    const json cards = revealFor(again.state(), need, 77);
    answer = again.host({{"reveal", cards}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    const auto live = again.state().serialize();
    {
        SimTable third(&log, seeded(11));
        answer = third.referee.resume(game, third.now);
        REQUIRE_MESSAGE(answer.ok, answer.message);
        CHECK(third.referee.publicStatus()["reveal"].is_null());
        CHECK(third.state().serialize() == live);
    }
    CHECK(dealtFavourites(log.exportRecord(game))[need["round"].get<int>()] == cards["favourites"]);
}

TEST_CASE("physical cards: what is refused, and what a player's page shows from the start") {
    const auto spec = specOf(engine::Edition::Vive2024, 4, engine::Variant::None, {true, false});
    SUBCASE("a dealt game has nothing to enter") {
        SimTable t(nullptr, seeded(2));
        REQUIRE(t.host(newGame(spec, "dealt")).ok);
        t.advance(1100ms);
        auto answer = t.host({{"reveal", {{"round", 1}}}});
        CHECK(answer.code == "not-physical");
        const auto own = t.referee.playerStatus(engine::PlayerId{0});
        CHECK(own["favourites_mode"] == "dealt");
        CHECK(own["private"].contains("favourites"));
    }
    SUBCASE("before a coronation there is nothing face up; keeps are the table's") {
        SimTable t(nullptr, seeded(2));
        REQUIRE(t.host(newGame(spec)).ok);
        t.advance(1100ms);
        // The referee dealt placeholders and kept an Ambition card for everyone.
        CHECK(t.state().phase() != engine::Phase::KeepAmbition);
        CHECK(t.state().round() == 1);
        auto answer = t.host({{"reveal", {{"round", 1}, {"favourites", json::array()}}}});
        CHECK(answer.code == "nothing-to-reveal");
        answer = t.host({{"keep", {{"player", 0}, {"ambition", "jester-king"}}}});
        CHECK(answer.code == "physical-cards");
        checkNothingShown(t);
        CHECK(t.referee.publicStatus()["reveal"].is_null());
    }
}

// Issue 34: the cards are face up on the table once a coronation has scored;
// undo is asked about before it takes that back, naming the cards shown.
TEST_CASE("physical cards: an undo after the round's coronation would take back cards the table has seen") {
    const auto spec = specOf(engine::Edition::Vive2024, 4, engine::Variant::None, {true, false});
    SimTable t(nullptr, seeded(5));
    REQUIRE(t.host(newGame(spec)).ok);
    engine::Rng rng(5);
    REQUIRE(playUntil(t, rng,
                      [](const json& s) { return revealPending(s) && s["reveal"]["ambitions"] == true; }));
    const int round = t.referee.publicStatus()["reveal"]["round"];
    const auto scoredRounds = t.state().finishedRounds().size();
    auto preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(preview->unscoresRound == round);
    CHECK(preview->ambitionsShown);
    CHECK(preview->undone.code == "undo.voted");
    CHECK(words::english().say(preview->confirmation()).find("the Favourites and Ambition cards revealed") !=
          std::string::npos);
    // The cards entered: still asked about (the scores are shown now too).
    REQUIRE(t.host({{"reveal", revealFor(t.state(), t.referee.publicStatus()["reveal"], 11)}}).ok);
    preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(preview->unscoresRound == round);
    // Done (the host said yes): the coronation and its scoring are taken back.
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state().finishedRounds().size() == scoredRounds - 1);
    CHECK(t.state().phase() == engine::Phase::Election);
}

}  // namespace vivaref::referee::testing
