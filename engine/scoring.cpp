// Scoring a coronation (RULES §3.5), Ambition cards (§5), the end of a round
// (§3.6) and of the game with its tie-breaks (§4).
#include <algorithm>
#include <array>

#include "engine/state.hpp"

namespace vivaref::engine {

std::string_view scoreLineKindName(ScoreLineKind k) {
    switch (k) {
        case ScoreLineKind::Favourite:
            return "favourite";
        case ScoreLineKind::Banished:
            return "banished";
        case ScoreLineKind::Ambition:
            return "ambition";
        case ScoreLineKind::Rule33:
            return "rule33";
        case ScoreLineKind::TeamPawn:
            return "team_pawn";
    }
    return "favourite";
}

namespace {

// RULES §3.5 table by place, for a King and for a crowned Jester (floors and
// dungeons invert, the throne scores 0). WCs, the box and the royal couple's
// first King (at the second coronation) score 0. Read from a table: where a
// favourite stands is as random as the game, and a test on it mispredicts.
struct PlacePoints {
    std::array<std::int8_t, kPlaceCount + 1> king{};
    std::array<std::int8_t, kPlaceCount + 1> jesterKing{};
};
constexpr PlacePoints kPlacePoints = [] {
    PlacePoints t;
    for (int f = 0; f < kFloors; ++f) {
        t.king[f] = static_cast<std::int8_t>(f);
        t.jesterKing[f] = static_cast<std::int8_t>(-f);
    }
    t.king[static_cast<int>(Place::Throne)] = 10;
    for (int depth = 1; depth <= 3; ++depth) {
        const int p = static_cast<int>(Place::Dungeon1) + depth - 1;
        t.king[p] = static_cast<std::int8_t>(-depth);
        t.jesterKing[p] = static_cast<std::int8_t>(depth);
    }
    return t;
}();

}  // namespace

int State::favouriteLines(const FavouritesCard& card, bool jesterKing, ScoreSheet& sheet) const {
    const auto& table = jesterKing ? kPlacePoints.jesterKing : kPlacePoints.king;
    int sum = 0;
    for (auto c : card.characters) {
        const Place p = place_[c.index];
        if (card.banished == c) {  // the sealed character counts for nothing
            sheet.lines.push_back(ScoreLine{.kind = ScoreLineKind::Banished, .character = c, .place = p});
            continue;
        }
        const int points = table[static_cast<int>(p)];
        sheet.lines.push_back(
            ScoreLine{.kind = ScoreLineKind::Favourite, .character = c, .place = p, .points = points});
        sum += points;
    }
    return sum;
}

bool State::ambitionHolds(PlayerId p, AmbitionCard card, int points) const {
    // Decision (RULES §5): in a royal-couple round "the King" is either
    // member of the couple, judged at the second coronation.
    CharacterId kings[2] = {candidate_, firstKing_};
    auto kingIs = [&](auto predicate) {
        for (auto k : kings)
            if (k.index < characters_ && predicate(k)) return true;
        return false;
    };
    auto kindIs = [&](CharacterKind kind) {
        return kingIs([&](CharacterId k) { return rules_->roster()[k].kind == kind; });
    };
    const FavouritesCard& fav = favourites_[p.index];
    auto countWhere = [&](auto where) {
        int n = 0;
        for (auto c : fav.characters)
            if (fav.counts(c) && where(place_[c.index])) ++n;
        return n;
    };
    auto onFloors = [&](int a, int b) {
        return countWhere([&](Place x) { return x == floorPlace(a) || x == floorPlace(b); });
    };
    const int inWc = countWhere(isWc);
    const int inDungeon = countWhere(isDungeon);
    const Seat seat = rules_->seatOf(p);
    switch (card) {
        case AmbitionCard::JesterKing:
            return kingIs([&](CharacterId k) { return rules_->roster().isJester(k); });
        case AmbitionCard::ItsAQueen:
            return kindIs(CharacterKind::Woman);
        case AmbitionCard::ItsAKing:
            return kindIs(CharacterKind::Man);
        case AmbitionCard::Wc0:
            return inWc == 0;
        case AmbitionCard::Wc1:
            return inWc == 1;
        case AmbitionCard::Wc2:
            return inWc == 2;
        case AmbitionCard::NoFloors01:
            return onFloors(0, 1) == 0;
        case AmbitionCard::NoFloors23:
            return onFloors(2, 3) == 0;
        case AmbitionCard::NoFloors45:
            return onFloors(4, 5) == 0;
        case AmbitionCard::Dungeons1:
            return inDungeon == 1;
        case AmbitionCard::Dungeons2:
            return inDungeon == 2;
        case AmbitionCard::Dungeons3:
            return inDungeon == 3;
        case AmbitionCard::NoWcNoDungeon:
            return inWc == 0 && inDungeon == 0;
        case AmbitionCard::OnlyYes:
            return hands_[seat.index].no == 0 && hands_[seat.index].stomachache == 0;
        case AmbitionCard::FriendOfTheKing:
            return crown_ == seat || (firstKing_.index < characters_ && firstKingMover_ == seat);
        case AmbitionCard::Under11:
            return points < 11;
        case AmbitionCard::Unknown:
            return false;
    }
    return false;
}

void State::scoreCoronation(EventList* ev) {
    const bool jesterKing = rules_->roster().isJester(candidate_);
    // RULES §6: in a royal-couple round Ambition scores at the second coronation only.
    const bool ambition = rules_->options().ambition && (!rules_->isRoyalCouple() || !current_.kings.empty());
    const int players = rules_->players();
    // Every change is the sum of its sheet's lines: the breakdown and the
    // score cannot disagree. Built in place: no sheet is copied.
    CoronationScore& score = current_.coronations.emplace_back();
    score.king = candidate_;
    score.crown = crown_;
    score.jesterKing = jesterKing;
    score.players.resize(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p) {
        PlayerId id{static_cast<std::uint8_t>(p)};
        ScoreSheet& sheet = score.players[p];
        const int points = favouriteLines(favourites_[p], jesterKing, sheet);
        if (ambition) {
            const AmbitionCard kept = ambitionKept_[p];
            const bool met = ambitionHolds(id, kept, points);
            sheet.lines.push_back(ScoreLine{.kind = ScoreLineKind::Ambition,
                                            .ambition = kept,
                                            .met = met,
                                            .points = met ? ambitionCardPoints(kept) : 0});
        }
        for (const auto& line : sheet.lines) sheet.total += line.points;
        // RULES §3.5: classic, third round only, exactly 0 scores 33.
        if (rules_->hasRule33() && round_ == 3 && sheet.total == 0) {
            sheet.lines.push_back(ScoreLine{.kind = ScoreLineKind::Rule33, .points = 33});
            sheet.total = 33;
        }
    }
    if (rules_->isTeamPawn()) {
        // RULES §6: the team's pawn advances by the lower of its players' scores.
        for (int s = 0; s < rules_->seats(); ++s) {
            Seat seat{static_cast<std::uint8_t>(s)};
            int low = score.players[rules_->playerAt(seat, 0).index].total;
            for (int i = 1; i < rules_->playersAt(seat); ++i)
                low = std::min(low, score.players[rules_->playerAt(seat, i).index].total);
            for (int i = 0; i < rules_->playersAt(seat); ++i) {
                ScoreSheet& sheet = score.players[rules_->playerAt(seat, i).index];
                if (sheet.total == low) continue;
                sheet.lines.push_back(
                    ScoreLine{.kind = ScoreLineKind::TeamPawn, .points = low - sheet.total});
                sheet.total = low;
            }
        }
    }
    for (int p = 0; p < players; ++p)
        addToTotal(PlayerId{static_cast<std::uint8_t>(p)}, score.players[p].total);
    if (rules_->hasEmissary()) {
        ScoreSheet& sheet = score.emissary.emplace();
        sheet.total = favouriteLines(emissaryFavourites_, jesterKing, sheet);
        current_.emissaryScore += sheet.total;
        emissaryTotal_ = std::max(0, emissaryTotal_ + sheet.total);
    }
    current_.kings.push_back(candidate_);
    current_.crown = crown_;
    if (ev)
        ev->push(Event{
            .kind = EventKind::CoronationScored, .seat = crown_, .character = candidate_, .round = round_});
}

void State::endRound(Seat lastCrown, EventList* ev) {
    current_.crown = lastCrown;
    history_.push_back(current_);
    if (ev) ev->push(Event{.kind = EventKind::RoundEnded, .seat = lastCrown, .round = round_});
    if (round_ >= rules_->rounds()) {
        phase_ = Phase::GameOver;
        if (ev) ev->push(Event{.kind = EventKind::GameOver, .round = round_});
        return;
    }
    // RULES §3.6: classic, the seat left of the crown holder starts; 2024, the crown holder.
    first_ = rules_->is2024() ? lastCrown : rules_->nextSeat(lastCrown);
    ++round_;
    phase_ = Phase::AwaitDeal;
}

std::vector<PlayerId> State::winners() const {
    std::vector<PlayerId> result;
    if (phase_ != Phase::GameOver) return result;
    const int seats = rules_->seats();
    const bool byTeam = rules_->hasTeams();
    const int units = byTeam ? seats : rules_->players();
    // A unit is a player, or with teams a seat's players. No list is built:
    // playouts ask for the winners at the end of every game.
    auto memberCount = [&](int u) {
        return byTeam ? rules_->playersAt(Seat{static_cast<std::uint8_t>(u)}) : 1;
    };
    auto member = [&](int u, int i) {
        return byTeam ? rules_->playerAt(Seat{static_cast<std::uint8_t>(u)}, i)
                      : PlayerId{static_cast<std::uint8_t>(u)};
    };
    // RULES §6: a team's result is the lower of its scores (single-pawn teams share one).
    std::array<int, kMaxPlayers> score{};
    for (int u = 0; u < units; ++u) {
        int low = totals_[member(u, 0).index];
        for (int i = 1; i < memberCount(u); ++i) low = std::min(low, totals_[member(u, i).index]);
        score[u] = low;
    }
    const int best = *std::max_element(score.begin(), score.begin() + units);
    // RULES §6: the Emissary wins only when strictly ahead of every player.
    if (rules_->hasEmissary() && emissaryTotal_ > best) return result;

    // RULES §4 tie-break. Classic: most favourites still on floors 0-5 or the
    // throne. 2024: the best-placed favourite stands highest (union of teammates).
    auto tieBreak = [&](int u) {
        int value = rules_->is2024() ? -1 : 0;
        for (int i = 0; i < memberCount(u); ++i) {
            const FavouritesCard& fav = favourites_[member(u, i).index];
            for (auto c : fav.characters) {
                if (!fav.counts(c)) continue;
                Place where = place_[c.index];
                if (!isOnFloorsOrThrone(where)) continue;
                int level = where == Place::BesideThrone ? kFloors : floorOf(where);
                value = rules_->is2024() ? std::max(value, level) : value + 1;
            }
        }
        return value;
    };
    std::array<int, kMaxPlayers> tie{};
    int bestTie = -2;
    for (int u = 0; u < units; ++u)
        if (score[u] == best) bestTie = std::max(bestTie, tie[u] = tieBreak(u));
    for (int u = 0; u < units; ++u)
        if (score[u] == best && tie[u] == bestTie)
            for (int i = 0; i < memberCount(u); ++i) result.push_back(member(u, i));
    std::sort(result.begin(), result.end(), [](PlayerId a, PlayerId b) { return a.index < b.index; });
    return result;
}

}  // namespace vivaref::engine
