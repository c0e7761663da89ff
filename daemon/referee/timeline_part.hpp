// The timeline and undo: every decision in effect, with the state before it,
// each written to the game log as it is made; the host's undo; a round taken
// back and played again on the physical cards revealed; a game rebuilt from
// its log after a crash. Not part of the API.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "daemon/referee/referee_context.hpp"

namespace vivaref::referee {

// A game as its log tells it: the decisions in effect (undos, the referee's
// own chance and keeps marked), paused or not, and its physical cards.
struct LoggedGame {
    explicit LoggedGame(const std::shared_ptr<const engine::Rules>& rules) : state(rules) {}
    engine::State state;
    std::vector<Decision> decisions;
    bool paused = false;
    FavouritesMode favouritesMode = FavouritesMode::Dealt;
    std::set<int> favouritesEntered;
    std::set<int> ambitionsEntered;
    std::vector<BotSeatRequest> bots;  // the seats the referee plays
    bool teaching = false;             // a table that teaches (a `teaching` event)
    // How the seats play (the last `seats` event; null in an older log),
    // and a move chosen from afar after the last decision (a `plan` event's
    // line; null: none).
    nlohmann::json seats = nullptr;
    nlohmann::json plan = nullptr;
};

// The log's events after its setup (events[0]), replayed with `rules`. What
// is wrong with the log otherwise (a sentence).
std::variant<LoggedGame, std::string> readLoggedGame(const std::vector<store::StoredEvent>& events,
                                                     const std::shared_ptr<const engine::Rules>& rules);

class TimelinePart {
public:
    explicit TimelinePart(Context& ctx) : ctx_(ctx) {}

    const std::vector<Decision>& decisions() const { return history_; }
    void restart(std::vector<Decision> decisions = {}) { history_ = std::move(decisions); }

    // A decision checked by the engine, logged durably, then applied to the
    // game's state, the state before kept for undo, the engine's events in
    // `events`. Refused (by the rules) or not saved (by the log): nothing
    // changed.
    Verdict apply(const engine::Decision& d, bool automatic, engine::EventList& events);

    // The host's undo: the last decision a person took, with what the
    // referee did on its own after it, taken back (one logged undo each,
    // committed together). How many were taken back: 0 when there is
    // nothing to take back; nullopt when the log could not save the undo
    // (nothing taken back).
    std::optional<int> takeBack();
    // Where takeBack() would cut the timeline: the index of the last
    // decision a person took (what follows it is the referee's own);
    // nullopt when there is nothing to take back.
    std::optional<std::size_t> takeBackFrom() const;

    // The cards entered, applied: the round taken back to its deal (at
    // `dealIndex`) and played again on the real cards, logged in one
    // transaction as undos, the decisions again and a `cards-entered` event.
    Verdict replayRound(std::size_t dealIndex, const engine::Deal& deal,
                        const std::optional<std::vector<engine::AmbitionCard>>& kept, bool favourites,
                        bool ambitions);

private:
    Context& ctx_;
    std::vector<Decision> history_;
};

}  // namespace vivaref::referee
