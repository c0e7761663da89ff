// Complete random games of every edition and variant family refereed on the
// simulated castle: a scripted table performs the engine's random legal
// actions physically (tags put and lifted, keys pressed, Ambition choices
// entered by the host), follows the referee's guidance, and sometimes lets
// the referee deal. At every step the public status shows no secret; at the
// end the game exported from the log replays to the same result. Some games
// teach (issue 34): refereed and logged as any other, each rule taught once.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

void playThrough(const engine::RulesSpec& spec, std::uint64_t seed, bool teaching = false) {
    CAPTURE(seed);
    CAPTURE(teaching);
    INFO("setup " << record::writeSetup(spec));
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    SimTable t(&log, seeded(seed));
    const json setup = json::parse(record::writeSetup(spec)).at("setup");
    auto answer = t.host({{"new-game", {{"setup", setup}, {"teaching", teaching}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    engine::Rng rng(seed * 31 + 7);
    int steps = 0;
    while (!t.state().isOver()) {
        REQUIRE(++steps < 3000);
        const auto& state = t.state();
        auto status = t.referee.publicStatus();
        checkNoSecrets(status, state);
        INFO("step " << steps << " status " << status.dump());
        REQUIRE(status["refusal"].is_null());
        if (status["guidance"].is_object()) {
            t.follow();
            REQUIRE(t.referee.publicStatus()["guidance"].is_null());
            continue;
        }
        REQUIRE(status["differences"].empty());
        const auto phase = state.phase();
        if (phase == engine::Phase::AwaitDeal || phase == engine::Phase::AwaitReshuffle) {
            if (rng.below(2) == 0) {
                t.advance(1100ms);  // the referee's own chance
                continue;
            }
            json payload;
            if (phase == engine::Phase::AwaitDeal) {
                payload = {{"deal", dealFor(state, rng.next())}};
            } else {
                engine::Rng pileRng(rng.next());
                auto pile = engine::randomReshuffle(state, pileRng);
                payload = {{"reshuffle", json::parse(record::writeReshuffle(pile)).at("reshuffle")}};
            }
            answer = t.host(payload);
            REQUIRE_MESSAGE(answer.ok, answer.message);
            continue;
        }
        const auto action = engine::randomAction(state, rng);
        REQUIRE(action.kind() != engine::ActionKind::Pass);  // the referee passes by itself
        const auto before = t.referee.counters().actionsAccepted;
        t.perform(action);
        CHECK(t.referee.counters().actionsAccepted == before + 1);
    }
    checkNoSecrets(t.referee.publicStatus(), t.state());
    for (const auto& n : t.notices) {
        INFO("notice " << n.kind << ": " << n.detail.dump());
        CHECK(n.audience == Notice::Audience::Public);  // the table never pressed a wrong key
        const std::string detail = n.detail.dump();
        for (const char* secret : {"\"hand\"", "\"favourites\"", "\"ambition\"", "\"own_vote\"", "\"pile\""})
            CHECK(detail.find(secret) == std::string::npos);
        if (n.kind != "revealed" && n.kind != "game-over") CHECK(detail.find("\"yes\"") == std::string::npos);
    }
    // A table that teaches: each rule once, among those it explains; every
    // game has an election, a classic one of three rounds the 33 rule.
    std::vector<std::string> taught;
    for (const auto& n : noticesOf(t.notices, "teach")) taught.push_back(n.detail["rule"].get<std::string>());
    if (teaching) {
        INFO("taught " << json(taught).dump());
        CHECK(std::set<std::string>(taught.begin(), taught.end()).size() == taught.size());
        CHECK(std::find(taught.begin(), taught.end(), "election") != taught.end());
        const std::set<std::string> known =
            spec.edition == engine::Edition::Vive2024
                ? std::set<std::string>{"election", "wc", "dungeon", "jester", "stomachache"}
                : std::set<std::string>{"election", "rule-33"};
        for (const auto& rule : taught) CHECK(known.contains(rule));
        if (spec.edition == engine::Edition::Classic)
            CHECK(std::find(taught.begin(), taught.end(), "rule-33") != taught.end());
    } else {
        CHECK(taught.empty());
    }
    const auto& counters = t.referee.counters();
    CHECK(counters.refusals.empty());
    CHECK(counters.privateRefusals == 0);
    REQUIRE(counters.results.size() == 1);
    CHECK(counters.gamesFinished == 1);
    CHECK(counters.actionsAccepted > 20);
    const auto id = *t.referee.game();
    const auto replayed = record::replayRecord(log.exportRecord(id));
    CHECK(replayed == counters.results[0]);
    CHECK(replayed == record::resultJson(t.state()));
    CHECK(replayed["complete"] == true);
    auto summary = log.game(id);
    REQUIRE(summary);
    CHECK(summary->complete);
    CHECK(t.referee.publicStatus()["state"] == "finished");
    // Every chance decision the referee made itself is there for the trace.
    int own = 0;
    for (const auto& e : log.events(id)) own += e.kind == "referee-chance";
    CHECK(static_cast<int>(t.referee.takeOwnChance().size()) == own);
}

}  // namespace

TEST_CASE("random complete games on the simulated castle: classic and online") {
    playThrough(specOf(engine::Edition::Classic, 3), 1, true);
    playThrough(specOf(engine::Edition::Classic, 6), 2);
    playThrough(specOf(engine::Edition::Online, 4), 3);
}

TEST_CASE("random complete games on the simulated castle: 2024 with options, Emissary, royal couple") {
    playThrough(spec2024(4, engine::Variant::None, engine::Options{true, true}), 4, true);
    playThrough(spec2024(3, engine::Variant::Emissary), 5);
    playThrough(spec2024(8, engine::Variant::RoyalCouple), 6, true);
}

TEST_CASE("random complete games on the simulated castle: teams and single-pawn teams") {
    playThrough(spec2024(4, engine::Variant::Teams, engine::Options{true, false}), 7);
    playThrough(spec2024(3, engine::Variant::TeamPawn), 8);
}

}  // namespace vivaref::referee::testing
