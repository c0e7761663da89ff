#include "engine/players/tournament.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace vivaref::engine::players {

Proportion wilson(double successes, double trials) {
    if (trials <= 0) return {};
    constexpr double z = 1.959964;  // the normal's 97.5th percentile
    const double p = successes / trials;
    const double z2n = z * z / trials;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z * std::sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n);
    return {p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

TournamentResult playTournament(const RulesSpec& spec, const std::vector<Player*>& entrants,
                                std::int64_t games, std::uint64_t seed,
                                const std::function<void(const TournamentResult&)>& afterGame) {
    const auto rules = std::make_shared<const Rules>(spec);
    const int seats = rules->seats();
    TournamentResult result;
    for (auto* e : entrants) result.entrants.push_back({e->name()});
    result.seatWins.assign(static_cast<std::size_t>(seats), 0.0);
    if (static_cast<int>(entrants.size()) != seats) {
        result.error = "a tournament needs one player a seat: " + std::to_string(seats) + " seats, " +
                       std::to_string(entrants.size()) + " players";
        return result;
    }
    for (std::int64_t g = 0; g < games; ++g) {
        // Entrant i at seat (i + g) mod seats.
        auto entrantAt = [&](Seat s) {
            return static_cast<std::size_t>(((s.index - g) % seats + seats) % seats);
        };
        Rng chance(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(g));
        Rng choices(~seed * 0xBF58476D1CE4E5B9ULL + static_cast<std::uint64_t>(g));
        State state(rules);
        while (true) {
            resolveChance(state, chance);
            if (state.isOver()) break;
            const Seat seat = nextToDecide(state);
            const Action a = entrants[entrantAt(seat)]->choose(state, seat, choices);
            ++result.decisions;
            if (auto refused = state.apply(a)) {
                result.error = "game " + std::to_string(g + 1) + ": " + entrants[entrantAt(seat)]->name() +
                               " at seat " + std::to_string(seat.index) +
                               " chose an illegal action: " + describe(refused->message);
                return result;
            }
        }
        ++result.games;
        const auto totals = state.totals();
        const auto winners = state.winners();
        std::vector<bool> won(static_cast<std::size_t>(seats), false);
        for (auto w : winners) won[rules->seatOf(w).index] = true;
        const auto winningSeats = static_cast<double>(std::count(won.begin(), won.end(), true));
        if (winningSeats == 0) ++result.emissaryWins;
        for (int s = 0; s < seats; ++s) {
            const Seat seat{static_cast<std::uint8_t>(s)};
            auto& entrant = result.entrants[entrantAt(seat)];
            ++entrant.games;
            double score = 0;
            for (int i = 0; i < rules->playersAt(seat); ++i) score += totals[rules->playerAt(seat, i).index];
            entrant.scoreSum += score / rules->playersAt(seat);
            if (won[static_cast<std::size_t>(s)]) {
                entrant.wins += 1.0 / winningSeats;
                result.seatWins[static_cast<std::size_t>(s)] += 1.0 / winningSeats;
            }
        }
        if (afterGame) afterGame(result);
    }
    return result;
}

}  // namespace vivaref::engine::players
