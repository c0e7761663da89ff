// The league's standings and rating, pure: no database, no clock. A game
// counts for each ranked member (a club member, not a bot) who sat in it
// with a final score; against every other seat with a final score (members,
// guests and bots alike) it is a pairwise win, loss or draw by score. The
// counters are sums over games, so the standings do not depend on the
// order the games arrive in (NOTES.md, "The rating").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vivaref::club {

// One player of a game as the standings see it (a seat of a team game has
// two players, with the seat's score).
struct RatedPlayer {
    int seat = 0;
    std::optional<std::int64_t> member;  // none for a guest or a bot
    bool bot = false;
    std::optional<int> score;  // none in an abandoned or unfinished game
    bool winner = false;
};

struct RatedGame {
    std::string edition;
    bool complete = false;
    bool abandoned = false;
    std::vector<RatedPlayer> players;
};

struct MemberCounts {
    std::int64_t games = 0;
    std::int64_t wins = 0;
    std::int64_t points = 0;
    std::int64_t pairwiseWins = 0;
    std::int64_t pairwiseLosses = 0;
    std::int64_t pairwiseDraws = 0;
    friend bool operator==(const MemberCounts&, const MemberCounts&) = default;
};

// The rating's centre, and its prior: one imagined win and one imagined
// loss, so a member with no pairwise results stands at kRatingCentre and a
// single result moves the rating a finite step.
inline constexpr double kRatingCentre = 1500.0;
inline constexpr double kRatingScale = 400.0;
inline constexpr double kRatingPrior = 1.0;

// 1500 + 400 * log10((W + D/2 + 1) / (L + D/2 + 1)).
double rating(const MemberCounts& counts);
// Points per game (0 without games).
double pointsPerGame(const MemberCounts& counts);

// Whether a game counts in the standings: complete and not abandoned.
bool countsInStandings(const RatedGame& game);

// What one game adds for each ranked player, by member id (nothing for a
// game that does not count). The pairwise results are against every other
// seat that has a score (a seat counts once, whoever sits in it).
std::vector<std::pair<std::int64_t, MemberCounts>> gameCounts(const RatedGame& game);

// Standings per (edition, member), summed over games in any order.
class Standings {
public:
    using Key = std::pair<std::string, std::int64_t>;  // edition, member id
    void add(const RatedGame& game);
    const std::map<Key, MemberCounts>& rows() const { return rows_; }

private:
    std::map<Key, MemberCounts> rows_;
};

}  // namespace vivaref::club
