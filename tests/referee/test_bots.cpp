// Bots at the table: the referee plays a seat itself. Its placement or move
// is shown (status and LEDs) and carried out by any hand at the table; any
// other move of that seat is refused with the bot's move in the message;
// its votes and Ambition keeps are cast at once and stay secret; the log
// says which seats were bots, a resumed game plans the same moves, and the
// exported record replays as any other.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "drivers/leds/led_names.hpp"
#include "engine/players/player.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using engine::Phase;

std::string refusalCode(const json& status) {
    return status["refusal"].is_null() ? std::string() : status["refusal"]["code"].get<std::string>();
}

struct BotGame {
    int botVotes = 0;
    int botPlans = 0;
    int offPlanRefusals = 0;
};

// A whole game with `bots` on the simulated castle: the people's seats play
// random legal actions; whenever a bot shows a move, a hand carries it out
// (the first time in the ascent, after trying another move, which must be
// refused and put back).
BotGame playWithBots(const engine::RulesSpec& spec, const json& bots, std::uint64_t seed) {
    CAPTURE(seed);
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    SimTable t(&log, seeded(seed));
    const json setup = json::parse(record::writeSetup(spec)).at("setup");
    auto answer = t.host({{"new-game", {{"setup", setup}, {"bots", bots}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    std::set<int> botSeats;
    for (const auto& b : bots) botSeats.insert(b["seat"].get<int>());
    engine::Rng rng(seed * 17 + 3);
    BotGame out;
    bool triedOffPlan = false;
    for (int steps = 0; !t.state().isOver(); ++steps) {
        REQUIRE(steps < 4000);
        const auto& state = t.state();
        auto status = t.referee.publicStatus();
        checkNoSecrets(status, state);
        INFO("step " << steps << " status " << status.dump());
        REQUIRE(status["refusal"].is_null());
        for (const auto& p : status["players"])
            CHECK(p["bot"].is_null() != botSeats.contains(p["seat"].get<int>()));
        if (status["guidance"].is_object()) {
            t.follow();
            continue;
        }
        const auto phase = state.phase();
        if (phase == Phase::AwaitDeal || phase == Phase::AwaitReshuffle) {
            t.advance(1100ms);  // the referee's own chance
            continue;
        }
        if (const auto& plan = status["bot_plan"]; plan.is_object()) {
            ++out.botPlans;
            const int seat = plan["seat"].get<int>();
            REQUIRE(botSeats.contains(seat));
            REQUIRE(state.seatToAct().index == seat);
            const std::string slug = plan["character"];
            const std::string to = plan["to"];
            // The LEDs: the destination lit, the place the piece leaves blinking.
            auto leds = t.referee.leds(t.now);
            CHECK(leds[drivers::placeLed(drivers::PlaceName{to})] == drivers::LedMode::On);
            if (plan["from"].is_string())
                CHECK(leds[drivers::placeLed(drivers::PlaceName{plan["from"].get<std::string>()})] ==
                      drivers::LedMode::Blink);
            CHECK(status["waiting_for"].get<std::string>().find("(bot)") != std::string::npos);
            // A person's page: the bot plays, and its move is anyone's to make.
            std::uint8_t personSeat = 0;
            while (botSeats.contains(personSeat)) ++personSeat;
            const auto person = state.rules().playerAt(engine::Seat{personSeat}, 0);
            const auto moment = t.referee.playerStatus(person)["moment"];
            CHECK(moment["kind"] == "wait");
            CHECK(moment["to_act"]["seat"] == seat);
            CHECK(moment["to_act"]["bot"] == true);
            CHECK(moment["to_act"]["plan_says"]["code"] == "wait.bot-plan");
            if (!triedOffPlan && phase == Phase::Ascent) {
                // Another legal move of the bot's seat: refused, then put back.
                engine::ActionList legal;
                engine::players::legalActionsOf(state, engine::Seat{static_cast<std::uint8_t>(seat)}, legal);
                for (const auto& a : legal) {
                    if (a.kind() != engine::ActionKind::Move ||
                        state.rules().roster()[a.character()].id == slug)
                        continue;
                    const std::string other = state.rules().roster()[a.character()].id;
                    const auto back = boardPlaceName(state.placeOf(a.character()));
                    const engine::State snapshot = state;
                    t.move(other, boardPlaceName(a.to()));
                    auto refused = t.referee.publicStatus();
                    CHECK(refusalCode(refused) == "bot-move");
                    CHECK(refused["refusal"]["message"].get<std::string>().find("(bot)") !=
                          std::string::npos);
                    CHECK(t.state() == snapshot);  // nothing was decided
                    t.move(other, back);
                    CHECK(t.referee.publicStatus()["refusal"].is_null());
                    ++out.offPlanRefusals;
                    break;
                }
                triedOffPlan = true;
            }
            const auto before = t.referee.counters().actionsAccepted;
            if (plan["action"] == "place")
                t.put(slug, to);
            else
                t.move(slug, to);
            // (and maybe the bots' votes, when the move opened an election)
            CHECK(t.referee.counters().actionsAccepted > before);
            CHECK(t.referee.publicStatus()["refusal"].is_null());
            continue;
        }
        // A person's turn, or a person's vote or keep.
        std::vector<engine::Seat> people;
        for (auto s : state.toAct())
            if (!botSeats.contains(s.index)) people.push_back(s);
        if (people.empty()) {
            t.advance(200ms);  // the bot thinks
            continue;
        }
        const auto seat = people[rng.below(static_cast<std::uint32_t>(people.size()))];
        engine::ActionList legal;
        engine::players::legalActionsOf(state, seat, legal);
        REQUIRE_FALSE(legal.empty());
        const auto action = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
        if (action.kind() == engine::ActionKind::Pass) {
            t.advance(200ms);  // the referee passes by itself
            continue;
        }
        t.perform(action);
    }
    // The bots' votes are in the log; the table only heard that they voted.
    const auto id = *t.referee.game();
    bool botsLogged = false;
    for (const auto& e : log.events(id)) {
        if (e.kind == "bots") botsLogged = json::parse(e.payload)["seats"].size() == bots.size();
        if (e.kind == "vote" && e.seat && botSeats.contains(*e.seat)) ++out.botVotes;
    }
    CHECK(botsLogged);
    for (const auto& n : t.notices) {
        CHECK(n.audience == Notice::Audience::Public);
        if (n.kind != "revealed" && n.kind != "game-over")
            CHECK(n.detail.dump().find("\"yes\"") == std::string::npos);
    }
    const auto& counters = t.referee.counters();
    REQUIRE(counters.results.size() == 1);
    CHECK(record::replayRecord(log.exportRecord(id)) == counters.results[0]);
    CHECK(counters.refusals.size() == (out.offPlanRefusals ? 1u : 0u));
    return out;
}

// Plays on until an election opens (the bot at `botSeat` not yet voted:
// it thinks a moment later): the bot's moves carried out as shown, the
// people moving a character up each turn. The state before the move that
// opened it.
engine::State playToElection(HandTable& t, int botSeat) {
    std::optional<engine::State> beforeLastMove;
    for (int steps = 0; t.state().phase() != Phase::Election; ++steps) {
        REQUIRE(steps < 500);
        auto status = t.referee.publicStatus();
        if (status["bot_plan"].is_object()) {
            beforeLastMove = t.state();
            t.put(status["bot_plan"]["character"], status["bot_plan"]["to"]);
            continue;
        }
        if (status["guidance"].is_object()) {
            t.follow();
            continue;
        }
        const auto& state = t.state();
        if (state.seatToAct().index == botSeat) {
            t.wait(200ms);
            continue;
        }
        engine::ActionList legal;
        engine::players::legalActionsOf(state, state.seatToAct(), legal);
        auto best = legal[0];
        for (const auto& a : legal)
            if (a.kind() != engine::ActionKind::Pass && a.to() > best.to()) best = a;
        beforeLastMove = t.state();
        t.perform(best);
    }
    REQUIRE(beforeLastMove);
    return *beforeLastMove;
}

}  // namespace

TEST_CASE("a game with bots: moves shown and carried out, another move refused, votes at once and secret") {
    engine::RulesSpec classic;
    classic.edition = engine::Edition::Classic;
    classic.seats = 4;
    const auto game = playWithBots(
        classic,
        json::array({json{{"seat", 1}, {"strength", "good"}}, json{{"seat", 3}, {"strength", "casual"}}}), 5);
    CHECK(game.botPlans > 10);
    CHECK(game.botVotes > 4);
    CHECK(game.offPlanRefusals == 1);
}

TEST_CASE("a bot keeps its Ambition card by itself in a 2024 game with Ambition") {
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = 5;
    spec.options.ambition = true;
    const auto game = playWithBots(spec, json::array({json{{"seat", 0}, {"strength", "casual"}}}), 9);
    CHECK(game.botPlans > 10);
    CHECK(game.botVotes > 2);
}

TEST_CASE("bots the game cannot have are refused with a reason") {
    HandTable t;
    const json setup{{"edition", "classic"}, {"seats", 4}};
    auto answer = t.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", 4}, {"strength", "good"}}}}}}});
    CHECK(answer.code == "bad-bots");
    CHECK(answer.message.find("seat 5") != std::string::npos);
    answer = t.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", 1}, {"strength", "genius"}}}}}}});
    CHECK(answer.code == "bad-bots");
    CHECK(answer.message.find("casual, good, strong") != std::string::npos);
    answer =
        t.host({{"new-game",
                 {{"setup", setup},
                  {"bots", {{{"seat", 1}, {"strength", "good"}}, {{"seat", 1}, {"strength", "casual"}}}}}}});
    CHECK(answer.code == "bad-bots");
    answer = t.host(
        {{"new-game",
          {{"setup", setup}, {"favourites", "physical"}, {"bots", {{{"seat", 1}, {"strength", "good"}}}}}}});
    CHECK(answer.code == "bad-bots");
    CHECK_FALSE(parseHostRequest(json{{"new-game", {{"setup", setup}, {"bots", {{{"seat", "one"}}}}}}}).ok());
    CHECK_FALSE(t.referee.game());
}

TEST_CASE(
    "a resumed game, or another referee, plans the same bot move; undo takes a bot's vote back with the move "
    "before it") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    json plan;
    std::map<std::string, std::string> board;
    store::GameId id;
    const json setup{{"edition", "classic"}, {"seats", 4}};
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        HandTable t(&log);
        REQUIRE(
            t.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", 1}, {"strength", "good"}}}}}}}).ok);
        REQUIRE(t.host({{"deal", dealFor(t.state(), 7)}}).ok);
        t.follow();
        t.put("alighiero", "1");  // seat 0 places; seat 1 is the bot
        CHECK(t.referee.publicStatus()["waiting_for"] == "\u2068Player 2\u2069 (bot) is thinking.");
        // Nothing is judged while it thinks: a piece put now waits.
        t.wait(200ms);
        plan = t.referee.publicStatus()["bot_plan"];
        REQUIRE(plan.is_object());
        CHECK(plan["action"] == "place");
        // The name between Unicode isolates: a right-to-left name cannot reorder the sentence.
        CHECK(plan["text"].get<std::string>().rfind("\u2068Player 2\u2069 (bot) places ", 0) == 0);
        CHECK(noticesOf(t.notices, "bot-plan").size() == 1);
        board = t.on;
        id = *t.referee.game();
    }  // the referee stops here
    {
        // Another referee with another seed, given the same deal and
        // placement (a trace played again without the game's seed), shows
        // the same plan: a bot's choice follows from the position alone.
        HandTable other(nullptr, seeded(987654321));
        REQUIRE(
            other.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", 1}, {"strength", "good"}}}}}}})
                .ok);
        REQUIRE(other.host({{"deal", dealFor(other.state(), 7)}}).ok);
        other.follow();
        other.put("alighiero", "1");
        other.wait(200ms);
        CHECK(other.referee.publicStatus()["bot_plan"] == plan);
    }
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    REQUIRE(t.referee.resume(id, t.now).ok);
    t.on = board;
    t.show();
    t.wait(200ms);
    CHECK(t.referee.publicStatus()["bot_plan"] == plan);
    // Carry it out, then play on to an election the bot votes in at once.
    t.put(plan["character"], plan["to"]);
    CHECK(t.referee.publicStatus()["bot_plan"].is_null());
    const auto beforeLastMove = playToElection(t, 1);
    t.wait(200ms);
    CHECK(t.state().hasVoted(engine::Seat{1}));
    CHECK(t.referee.publicStatus()["election"]["voted"] == json::array({1}));
    // The host's undo takes back the bot's vote and the move that opened the election.
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state() == beforeLastMove);
}

// A bot's station has keys on a real castle, but they are no person's: a
// press there is not the bot's vote (before it voted it would have been),
// and it is answered the same way before and after the bot voted, so
// nobody learns from it whether or how the bot voted.
TEST_CASE("a bot's vote keys count for nothing and say the same before and after the bot voted") {
    HandTable t;
    const json setup{{"edition", "classic"}, {"seats", 4}};
    REQUIRE(t.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", 1}, {"strength", "casual"}}}}}}}).ok);
    REQUIRE(t.host({{"deal", dealFor(t.state(), 7)}}).ok);
    t.follow();
    playToElection(t, 1);
    const engine::Seat bot{1};
    REQUIRE_FALSE(t.state().hasVoted(bot));  // it thinks a moment after the vote opens
    const auto answerTo = [&](drivers::VoteKey key) {
        const engine::State before = t.state();
        (void)t.take();
        t.press(1, key);
        CHECK(t.state() == before);  // no vote, no refusal of the engine
        CHECK(t.led("station-1") != drivers::LedMode::Blink);
        const auto notes = t.take();
        REQUIRE(notes.size() == 1);
        CHECK(notes[0].audience == Notice::Audience::Station);
        return json{{"kind", notes[0].kind}, {"text", notes[0].text}, {"detail", notes[0].detail}};
    };
    const json early = answerTo(drivers::VoteKey::No);
    CHECK(early["kind"] == "ignored-key");
    CHECK(early["text"] == "The referee plays this seat: its keys are not counted.");
    CHECK_FALSE(t.state().hasVoted(bot));
    t.wait(200ms);  // the bot votes by itself
    REQUIRE(t.state().hasVoted(bot));
    CHECK(answerTo(drivers::VoteKey::No) == early);
    CHECK(answerTo(drivers::VoteKey::Yes) == early);
    CHECK(t.referee.counters().privateRefusals == 0);
    // The people's keys still vote.
    t.press(0, drivers::VoteKey::Yes);
    CHECK(t.state().hasVoted(engine::Seat{0}));
}

}  // namespace vivaref::referee::testing
