// Bots: seats the referee plays itself with the engine's players
// (engine/players). A bot's votes and Ambition keeps are decided at once,
// in secret, like a person's at their station; its placement or move is
// shown (LEDs and screens) for anyone at the table to carry out, and the
// board's judge refuses any other (REFEREE-NOTES.md, "Bots"). A bot thinks
// at a deadline a moment after its turn begins, so the decision that gave it
// the turn is answered first. Its generator is drawn from the position, so
// a game read back from its log, or its trace played again (without the
// game's seed), makes the same choices. Not part of the API.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/referee/bot_strength.hpp"
#include "daemon/referee/referee_context.hpp"
#include "engine/players/player.hpp"

namespace vivaref::referee {

class BotsPart {
public:
    explicit BotsPart(Context& ctx) : ctx_(ctx) {}

    // A new game's bots (ctx.game.seats' `bot`, after the seats part made
    // them); the caller checked the seats and strengths. The log keeps them
    // as a "bots" event.
    void startGame(const std::vector<BotSeatRequest>& bots);
    // A game read back from its log: the bots it logged.
    void resumeGame(const std::vector<BotSeatRequest>& bots);
    // The game changed (a decision, an undo): a plan made for another
    // position is dropped, and a bot that must act now thinks at its
    // deadline.
    void review();
    std::optional<Timestamp> deadline() const { return due_; }
    // At the deadline: a bot's votes, keeps and forced passes decided, or
    // its placement or move planned for the table. True when a decision was made.
    bool act(Decider& decider);

private:
    engine::Action choose(const engine::State& state, engine::Seat seat) const;

    Context& ctx_;
    std::optional<Timestamp> due_;
    std::optional<engine::State> plannedFor_;  // the position the plan (or the armed deadline) is for
};

}  // namespace vivaref::referee
