// The record replayed through the engine (engine/record), its totals and
// winners compared with the seats pushed.
#include "daemon/club/game_check.hpp"

#include <algorithm>
#include <set>

#include "engine/record/record_replayer.hpp"
#include "engine/rules.hpp"

namespace vivaref::club {

namespace {

std::string seatWords(const SeatUpload& s) {
    return "player " + std::to_string(s.player + 1) + " (" + s.name + ", seat " + std::to_string(s.seat + 1) +
           ")";
}

std::string scoreWords(const std::optional<int>& score) { return score ? std::to_string(*score) : "none"; }

}  // namespace

std::optional<std::string> gameMismatch(const GameUpload& game) {
    const auto replay = record::replayText(game.record);
    if (replay.failure || !replay.state)
        return "its record does not replay (line " +
               std::to_string(replay.failure ? replay.failure->line : 0) + " is refused)";
    const auto& state = *replay.state;
    const auto& rules = state.rules();
    if (std::string(engine::editionName(rules.edition())) != game.edition)
        return "its edition is " + game.edition + ", the record's is " +
               std::string(engine::editionName(rules.edition()));
    if (static_cast<int>(game.seats.size()) != rules.players())
        return std::to_string(game.seats.size()) + " players pushed, the record has " +
               std::to_string(rules.players());
    std::set<int> players;
    for (const auto& s : game.seats) {
        if (s.player < 0 || s.player >= rules.players() || !players.insert(s.player).second)
            return "player " + std::to_string(s.player + 1) + " is not one of the record's players, or twice";
        const int seat = rules.seatOf(engine::PlayerId{static_cast<std::uint8_t>(s.player)}).index;
        if (seat != s.seat)
            return seatWords(s) + " sits at seat " + std::to_string(seat + 1) + " in the record";
    }
    if (game.abandoned) {
        for (const auto& s : game.seats)
            if (s.score || s.winner) return "it was abandoned, yet " + seatWords(s) + " has a score or a win";
        return std::nullopt;
    }
    if (game.complete != state.isOver())
        return game.complete ? "it is pushed as complete, the record does not end"
                             : "it is pushed as unfinished, the record ends";
    if (!state.isOver()) {
        for (const auto& s : game.seats)
            if (s.score || s.winner) return "it is unfinished, yet " + seatWords(s) + " has a score or a win";
        return std::nullopt;
    }
    const auto totals = state.totals();
    const auto winners = state.winners();
    for (const auto& s : game.seats) {
        const int total = totals[static_cast<std::size_t>(s.player)];
        if (!s.score || *s.score != total)
            return seatWords(s) + "'s score is " + scoreWords(s.score) + ", the record gives " +
                   std::to_string(total);
        const bool won = std::any_of(winners.begin(), winners.end(),
                                     [&](engine::PlayerId w) { return w.index == s.player; });
        if (s.winner != won)
            return seatWords(s) + (s.winner ? " is pushed as a winner, the record's winners are not them"
                                            : " is pushed as a loser, the record makes them a winner");
    }
    return std::nullopt;
}

}  // namespace vivaref::club
