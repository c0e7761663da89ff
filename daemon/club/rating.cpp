#include "daemon/club/rating.hpp"

#include <cmath>

namespace vivaref::club {

double rating(const MemberCounts& c) {
    const double half = static_cast<double>(c.pairwiseDraws) / 2.0;
    const double won = static_cast<double>(c.pairwiseWins) + half + kRatingPrior;
    const double lost = static_cast<double>(c.pairwiseLosses) + half + kRatingPrior;
    return kRatingCentre + kRatingScale * std::log10(won / lost);
}

double pointsPerGame(const MemberCounts& c) {
    return c.games == 0 ? 0.0 : static_cast<double>(c.points) / static_cast<double>(c.games);
}

bool countsInStandings(const RatedGame& game) { return game.complete && !game.abandoned; }

std::vector<std::pair<std::int64_t, MemberCounts>> gameCounts(const RatedGame& game) {
    std::vector<std::pair<std::int64_t, MemberCounts>> out;
    if (!countsInStandings(game)) return out;
    // One score a seat: a team's two players share their seat's.
    std::map<int, int> seatScores;
    for (const auto& p : game.players)
        if (p.score) seatScores.emplace(p.seat, *p.score);
    for (const auto& p : game.players) {
        if (!p.member || p.bot || !p.score) continue;
        MemberCounts c;
        c.games = 1;
        c.wins = p.winner ? 1 : 0;
        c.points = *p.score;
        for (const auto& [seat, score] : seatScores) {
            if (seat == p.seat) continue;
            if (*p.score > score)
                ++c.pairwiseWins;
            else if (*p.score < score)
                ++c.pairwiseLosses;
            else
                ++c.pairwiseDraws;
        }
        out.emplace_back(*p.member, c);
    }
    return out;
}

void Standings::add(const RatedGame& game) {
    for (const auto& [member, c] : gameCounts(game)) {
        auto& row = rows_[Key{game.edition, member}];
        row.games += c.games;
        row.wins += c.wins;
        row.points += c.points;
        row.pairwiseWins += c.pairwiseWins;
        row.pairwiseLosses += c.pairwiseLosses;
        row.pairwiseDraws += c.pairwiseDraws;
    }
}

}  // namespace vivaref::club
