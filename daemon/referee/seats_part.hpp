// How each seat plays (issue 35; REFEREE-NOTES.md, "Phones at the table"):
// how it votes (its station's keys, its player's phone, or either), whether
// its people play from afar (their page chooses each placement and move,
// shown to the table to make, as a bot's is), and a bot standing in for its
// people for the rest of the round or of the game. The table of seats is
// logged whole at each change (a `seats` event), so a game read back from
// its log plays its seats as they were; so is a move chosen from afar
// (`plan`), until the table has made it. Not part of the API.
#pragma once

#include <optional>
#include <vector>

#include "daemon/referee/referee_context.hpp"

namespace vivaref::referee {

class SeatsPart {
public:
    explicit SeatsPart(Context& ctx) : ctx_(ctx) {}

    // A new game's seats: each as the request says, else the table's
    // defaults (its station where the castle has one, else the phone).
    // nullopt: fine; otherwise why the request cannot be played.
    std::optional<HostAnswer> check(const std::vector<SeatSetup>& setups, const engine::Rules& rules) const;
    // ctx.game.seats made (bot seats are the bots part's), and logged.
    void startGame(const std::vector<SeatSetup>& setups);
    // A game read back from its log: its last `seats` event (null: an old
    // log's game, the table's defaults). Then, once the game is playing
    // again, the move last chosen from afar if the table has not made it
    // yet (a `plan` event's line; null: none).
    void resumeGame(const nlohmann::json& logged);
    void restorePlan(const nlohmann::json& plan);

    // The host changes a seat during a game (the game playing or paused).
    HostAnswer change(const SeatRequest& request, bool physicalCards);
    // A seat played from afar chose its placement or move, when the game had
    // made `step` decisions: checked by the engine, logged, and shown to the
    // table to make.
    HostAnswer plan(const PlanRequest& request, std::size_t step);
    // The game changed: a move chosen from afar for another position is
    // dropped; a bot standing in for a round that is over hands the seat back.
    void review();

    // The public status's "seats": by seat {"seat", "votes_by", "remote",
    // "bot", "stand_in", "stand_in_until"}; seatJson(s) one of them.
    nlohmann::json statusJson() const;
    nlohmann::json seatJson(engine::Seat seat) const;

private:
    SeatPlay defaultPlay(int seat) const;
    // The seats as they are to be from now on, logged first: false when the
    // log could not save them (nothing changed).
    bool commit(std::vector<SeatPlay> seats);
    nlohmann::json tableJson(const std::vector<SeatPlay>& seats) const;

    Context& ctx_;
    std::optional<engine::State> plannedFor_;  // the position a move chosen from afar is for
};

}  // namespace vivaref::referee
