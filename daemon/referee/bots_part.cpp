// Bots: a bot seat's votes, keeps and forced passes decided at once, its
// placement or move planned for the table to carry out.
#include "daemon/referee/bots_part.hpp"

#include "daemon/referee/board_places.hpp"
#include "daemon/words/message_json.hpp"
#include "engine/players/heuristic_player.hpp"
#include "engine/players/search_player.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

void BotsPart::startGame(const std::vector<BotSeatRequest>& bots) {
    resumeGame(bots);
    if (bots.empty()) return;
    json seats = json::array();
    for (const auto& b : bots) {
        const auto strength = botStrength(b.strength);
        seats.push_back(json{{"seat", b.seat},
                             {"strength", b.strength},
                             {"player", strength ? std::string(strength->player) : ""},
                             {"iterations", strength ? strength->iterations : 0}});
    }
    ctx_.refereeEvent("bots", json{{"seats", std::move(seats)}});
}

void BotsPart::resumeGame(const std::vector<BotSeatRequest>& bots) {
    due_.reset();
    plannedFor_.reset();
    if (!ctx_.game.planFromAfar) ctx_.game.plan.reset();
    // The seats are made first (seats_part.hpp); a bot seat has no people.
    auto& seats = ctx_.game.seats;
    for (auto& play : seats) play.bot.clear();
    for (const auto& b : bots)
        if (b.seat >= 0 && static_cast<std::size_t>(b.seat) < seats.size()) {
            auto& play = seats[static_cast<std::size_t>(b.seat)];
            play = SeatPlay{};
            play.bot = b.strength;
        }
}

void BotsPart::review() {
    auto& game = ctx_.game;
    bool botToAct = false;
    if (game.state && game.playing() && !game.state->isOver() && !game.state->awaitsChance())
        for (auto s : game.state->toAct()) botToAct = botToAct || game.botAt(s);
    if (!botToAct) {
        // No bot to act (or paused: planned again when play resumes); a move
        // chosen from afar is the seats part's.
        due_.reset();
        plannedFor_.reset();
        if (!game.planFromAfar) game.plan.reset();
        return;
    }
    // Thinking or planned for this very position: nothing changed.
    if (plannedFor_ && *plannedFor_ == *game.state && (due_ || game.plan)) return;
    game.plan.reset();
    game.planFromAfar = false;
    plannedFor_ = *game.state;
    due_ = ctx_.now + ctx_.options.botThinkAfter;
}

engine::Action BotsPart::choose(const engine::State& state, engine::Seat seat) const {
    // The generator is drawn from the position itself (FNV-1a over its
    // snapshot) and the seat: the same position gives the same choice,
    // whether the game is read back from its log or its trace is played
    // again on another machine, where the game's seed is not known.
    std::uint64_t hash = 0xCBF29CE484222325ull;
    for (const unsigned char c : state.serialize()) hash = (hash ^ c) * 0x100000001B3ull;
    engine::Rng rng(hash ^ (0x9E3779B97F4A7C15ull * (seat.index + 1)));
    const auto strength = botStrength(ctx_.game.seats[seat.index].strength());
    if (strength && strength->player == "search") {
        engine::players::SearchPlayer search(
            engine::players::SearchSettings{engine::players::SearchBudget{strength->iterations, {}}});
        return search.choose(state, seat, rng);
    }
    engine::players::HeuristicPlayer casual;
    return casual.choose(state, seat, rng);
}

bool BotsPart::act(Decider& decider) {
    due_.reset();
    auto& game = ctx_.game;
    if (!game.state || !game.playing()) return false;
    // Votes and keeps: every bot still to choose, at once and in secret
    // (the log has the card; the table hears that the seat voted).
    bool decided = false;
    for (int guard = 0; guard < 2 * engine::kMaxSeats; ++guard) {
        const auto& state = *game.state;
        if (state.phase() != Phase::Election && state.phase() != Phase::KeepAmbition) break;
        std::optional<engine::Seat> bot;
        for (auto s : state.toAct())
            if (game.botAt(s)) {
                bot = s;
                break;
            }
        if (!bot) break;
        const auto action = choose(state, *bot);
        // Not saved: thought again once the log saves (review() plans anew).
        if (!ctx_.refereeEvent("bot-decision", json{{"seat", bot->index}})) break;
        if (!decider.decide(action, true).isTaken()) break;  // the player's choice is legal: not saved
        decided = true;
    }
    if (decided) return true;
    const auto& state = *game.state;
    if ((state.phase() != Phase::Placement && state.phase() != Phase::Ascent) ||
        !game.botAt(state.seatToAct()))
        return false;
    const auto seat = state.seatToAct();
    const auto action = choose(state, seat);
    if (action.kind() == engine::ActionKind::Pass) {
        if (!ctx_.refereeEvent("bot-decision", json{{"seat", seat.index}})) return false;
        return decider.decide(action, true).isTaken();
    }
    game.plan = action;
    game.planFromAfar = false;
    plannedFor_ = state;
    ctx_.notice(
        "bot-plan",
        engine::Message("referee.bot-plan-anyone", {{"plan", engine::say::message(ctx_.planMessage())}}),
        ctx_.planJson());
    return false;
}

}  // namespace vivaref::referee
