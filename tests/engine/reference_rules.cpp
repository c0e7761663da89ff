#include "reference_rules.hpp"

#include <algorithm>
#include <set>

namespace vivaref::test::reference {

namespace {

bool anyKingOfKind(const Rules& rules, const Coronation& c, CharacterKind kind) {
    if (rules.roster()[c.king].kind == kind) return true;
    return c.firstKing && rules.roster()[*c.firstKing].kind == kind;
}

// The favourites that count (the Banished seal removes one).
std::vector<CharacterId> counted(const FavouritesCard& card) {
    std::vector<CharacterId> out;
    for (CharacterId x : card.characters)
        if (!(card.banished && *card.banished == x)) out.push_back(x);
    return out;
}

bool jesterCrowned(const Rules& rules, const Coronation& c) {
    return rules.roster()[c.king].kind == CharacterKind::Jester;
}

}  // namespace

int favouritePoints(const Rules& rules, const FavouritesCard& card, const Coronation& c) {
    const bool inverted = jesterCrowned(rules, c);
    int points = 0;
    for (CharacterId x : counted(card)) {
        const Place p = c.positions[x.index];
        int v = 0;
        if (p == Place::Throne)
            v = inverted ? 0 : 10;
        else if (p <= Place::Floor5)
            v = inverted ? -static_cast<int>(p) : static_cast<int>(p);
        else if (p == Place::Dungeon3)
            v = inverted ? 3 : -3;
        else if (p == Place::Dungeon2)
            v = inverted ? 2 : -2;
        else if (p == Place::Dungeon1)
            v = inverted ? 1 : -1;
        points += v;  // WCs, the box, the first King beside the throne: 0
    }
    return points;
}

int ambitionPoints(AmbitionCard card) {
    switch (card) {
        case AmbitionCard::JesterKing:
            return 5;
        case AmbitionCard::ItsAQueen:
            return 3;
        case AmbitionCard::ItsAKing:
            return 3;
        case AmbitionCard::Wc0:
            return 5;
        case AmbitionCard::Wc1:
            return 3;
        case AmbitionCard::Wc2:
            return 5;
        case AmbitionCard::NoFloors01:
            return 5;
        case AmbitionCard::NoFloors23:
            return 3;
        case AmbitionCard::NoFloors45:
            return 5;
        case AmbitionCard::Dungeons1:
            return 3;
        case AmbitionCard::Dungeons2:
            return 5;
        case AmbitionCard::Dungeons3:
            return 8;
        case AmbitionCard::NoWcNoDungeon:
            return 8;
        case AmbitionCard::OnlyYes:
            return 3;
        case AmbitionCard::FriendOfTheKing:
            return 3;
        case AmbitionCard::Under11:
            return 3;
        case AmbitionCard::Unknown:
            return 0;
    }
    return 0;
}

bool ambitionHolds(const Rules& rules, AmbitionCard card, const FavouritesCard& favourites,
                   const Hand& seatHand, Seat seat, const Coronation& c) {
    int inWc = 0, inDungeon = 0, on01 = 0, on23 = 0, on45 = 0;
    for (CharacterId x : counted(favourites)) {
        const Place p = c.positions[x.index];
        if (p == Place::Wc3 || p == Place::Wc4) ++inWc;
        if (p == Place::Dungeon1 || p == Place::Dungeon2 || p == Place::Dungeon3) ++inDungeon;
        if (p == Place::Floor0 || p == Place::Floor1) ++on01;
        if (p == Place::Floor2 || p == Place::Floor3) ++on23;
        if (p == Place::Floor4 || p == Place::Floor5) ++on45;
    }
    switch (card) {
        case AmbitionCard::JesterKing:
            return anyKingOfKind(rules, c, CharacterKind::Jester);
        case AmbitionCard::ItsAQueen:
            return anyKingOfKind(rules, c, CharacterKind::Woman);
        case AmbitionCard::ItsAKing:
            return anyKingOfKind(rules, c, CharacterKind::Man);
        case AmbitionCard::Wc0:
            return inWc == 0;
        case AmbitionCard::Wc1:
            return inWc == 1;
        case AmbitionCard::Wc2:
            return inWc == 2;
        case AmbitionCard::NoFloors01:
            return on01 == 0;
        case AmbitionCard::NoFloors23:
            return on23 == 0;
        case AmbitionCard::NoFloors45:
            return on45 == 0;
        case AmbitionCard::Dungeons1:
            return inDungeon == 1;
        case AmbitionCard::Dungeons2:
            return inDungeon == 2;
        case AmbitionCard::Dungeons3:
            return inDungeon == 3;
        case AmbitionCard::NoWcNoDungeon:
            return inWc == 0 && inDungeon == 0;
        case AmbitionCard::OnlyYes:
            return seatHand.no == 0 && seatHand.stomachache == 0;
        case AmbitionCard::FriendOfTheKing:
            return seat == c.mover || (c.firstKingMover && *c.firstKingMover == seat);
        case AmbitionCard::Under11:
            return favouritePoints(rules, favourites, c) < 11;
        case AmbitionCard::Unknown:
            return false;
    }
    return false;
}

CoronationScores scoreCoronation(const State& before, const Coronation& c) {
    const Rules& rules = before.rules();
    CoronationScores out;
    out.byPlayer.assign(rules.players(), 0);
    for (int p = 0; p < rules.players(); ++p) {
        const PlayerId pid{static_cast<std::uint8_t>(p)};
        const FavouritesCard& card = before.favourites(pid);
        int change = favouritePoints(rules, card, c);
        if (c.scoresAmbition) {
            const AmbitionCard kept = before.keptAmbition(pid);
            const Seat s = rules.seatOf(pid);
            if (ambitionHolds(rules, kept, card, before.hand(s), s, c)) change += ambitionPoints(kept);
        }
        // The classic third round: exactly 0 scores 33 (one coronation a round).
        if (rules.edition() != Edition::Vive2024 && c.round == 3 && change == 0) change = 33;
        out.byPlayer[p] = change;
    }
    if (rules.isTeamPawn()) {
        for (int s = 0; s < rules.seats(); ++s) {
            const Seat st{static_cast<std::uint8_t>(s)};
            int low = out.byPlayer[rules.playerAt(st, 0).index];
            for (int i = 1; i < rules.playersAt(st); ++i)
                low = std::min(low, out.byPlayer[rules.playerAt(st, i).index]);
            for (int i = 0; i < rules.playersAt(st); ++i) out.byPlayer[rules.playerAt(st, i).index] = low;
        }
    }
    if (rules.hasEmissary()) out.emissary = favouritePoints(rules, before.emissaryFavourites(), c);
    return out;
}

std::vector<int> compensation(const Rules& rules, Seat firstPlayer) {
    std::vector<int> out(rules.players(), 0);
    const int seats = rules.seats();
    if (seats < 7) return out;
    for (int s = 0; s < seats; ++s) {
        const int order = (s - firstPlayer.index + seats) % seats;
        if (order < 13 % seats) continue;  // places two
        const Seat st{static_cast<std::uint8_t>(s)};
        for (int i = 0; i < rules.playersAt(st); ++i) out[rules.playerAt(st, i).index] += 3;
    }
    return out;
}

std::vector<PlayerId> winners(const State& end, const std::array<Place, kMaxCharacters>& finalPositions) {
    const Rules& rules = end.rules();
    const std::vector<int> totals = end.totals();
    const int seats = rules.seats();
    // A seat's result: its player's total; a team's, the lower of the two.
    std::vector<int> result(seats);
    for (int s = 0; s < seats; ++s) {
        const Seat st{static_cast<std::uint8_t>(s)};
        int low = totals[rules.playerAt(st, 0).index];
        for (int i = 1; i < rules.playersAt(st); ++i)
            low = std::min(low, totals[rules.playerAt(st, i).index]);
        result[s] = low;
    }
    const int best = *std::max_element(result.begin(), result.end());
    if (rules.hasEmissary()) {
        const int bestPlayer = *std::max_element(totals.begin(), totals.end());
        if (end.emissaryTotal() > bestPlayer) return {};
    }
    std::vector<int> tied;
    for (int s = 0; s < seats; ++s)
        if (result[s] == best) tied.push_back(s);
    if (tied.size() > 1) {
        // Classic: most favourites in the castle; 2024: the best-placed favourite.
        std::vector<int> key(seats, -1);
        for (int s : tied) {
            const Seat st{static_cast<std::uint8_t>(s)};
            std::set<int> favourites;
            for (int i = 0; i < rules.playersAt(st); ++i)
                for (CharacterId x : counted(end.favourites(rules.playerAt(st, i))))
                    favourites.insert(x.index);
            int count = 0, highest = -1;
            for (int x : favourites) {
                const Place p = finalPositions[x];
                int height = -1;
                if (p <= Place::Floor5) height = static_cast<int>(p);
                if (p == Place::Throne || p == Place::BesideThrone) height = 6;
                if (height >= 0) ++count;
                highest = std::max(highest, height);
            }
            key[s] = rules.edition() == Edition::Vive2024 ? highest : count;
        }
        int bestKey = -2;
        for (int s : tied) bestKey = std::max(bestKey, key[s]);
        std::vector<int> still;
        for (int s : tied)
            if (key[s] == bestKey) still.push_back(s);
        tied = still;
    }
    std::vector<PlayerId> out;
    for (int s : tied) {
        const Seat st{static_cast<std::uint8_t>(s)};
        for (int i = 0; i < rules.playersAt(st); ++i) out.push_back(rules.playerAt(st, i));
    }
    std::sort(out.begin(), out.end(), [](PlayerId a, PlayerId b) { return a.index < b.index; });
    return out;
}

}  // namespace vivaref::test::reference
