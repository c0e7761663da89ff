#include "engine/rules.hpp"

#include <algorithm>
#include <set>

namespace vivaref::engine {
namespace {

Refusal badSetup(const char* code, std::initializer_list<MessageArg> args = {}) {
    return Refusal{RefusalCode::BadSetup, Message(code, args)};
}

constexpr int kCharactersPerRoster = 13;  // RULES §1, not counting the Jester

int noCards(Edition e, Variant v, int seats) {
    // RULES §2 setup tables; the Emissary variant has its own No column.
    if (e != Edition::Vive2024) return seats == 3 ? 4 : seats == 4 ? 3 : 2;
    if (v == Variant::Emissary) return seats == 2 ? 4 : seats == 3 ? 3 : 2;
    return seats <= 3 ? 4 : seats == 4 ? 3 : 2;
}

std::optional<Refusal> validateTeams(const RulesSpec& spec) {
    if (spec.teams.empty()) return badSetup("refusal.setup-teams-needed");
    if (static_cast<int>(spec.teams.size()) != spec.seats)
        return badSetup("refusal.setup-teams-per-seat", {{"seats", say::number(spec.seats)}});
    std::set<int> seen;
    int players = 0;
    for (const auto& team : spec.teams) {
        if (team.empty() || team.size() > 2) return badSetup("refusal.setup-team-size");
        for (int p : team) {
            if (!seen.insert(p).second) return badSetup("refusal.setup-player-twice");
            ++players;
        }
    }
    for (int p = 0; p < players; ++p)
        if (!seen.count(p))
            return badSetup("refusal.setup-player-numbers", {{"last", say::number(players - 1)}});
    if (spec.options.ambition && players > 8) return badSetup("refusal.setup-ambition-players");
    return std::nullopt;
}

std::optional<Refusal> validateRoster(const RulesSpec& spec) {
    const Roster& r = *spec.roster;
    bool v2024 = spec.edition == Edition::Vive2024;
    int jesters = 0;
    std::set<std::string> ids;
    for (const auto& c : r.characters()) {
        if (c.id.empty()) return badSetup("refusal.setup-roster-empty-id");
        if (!ids.insert(c.id).second)
            return badSetup("refusal.setup-roster-twice", {{"id", say::text(c.id)}});
        if (c.kind == CharacterKind::Jester) ++jesters;
    }
    int expected = kCharactersPerRoster + (v2024 ? 1 : 0);
    if (r.size() != expected)
        return badSetup("refusal.setup-roster-size", {{"count", say::number(expected)}});
    if (jesters != (v2024 ? 1 : 0))
        return badSetup(v2024 ? "refusal.setup-roster-one-jester" : "refusal.setup-roster-no-jester");
    return std::nullopt;
}

}  // namespace

std::string_view editionName(Edition e) {
    switch (e) {
        case Edition::Classic:
            return "classic";
        case Edition::Online:
            return "online";
        case Edition::Vive2024:
            return "2024";
    }
    return "classic";
}

std::optional<Edition> parseEdition(std::string_view name) {
    for (auto e : {Edition::Classic, Edition::Online, Edition::Vive2024})
        if (editionName(e) == name) return e;
    return std::nullopt;
}

std::string_view variantName(Variant v) {
    switch (v) {
        case Variant::None:
            return "none";
        case Variant::Emissary:
            return "emissary";
        case Variant::RoyalCouple:
            return "royal-couple";
        case Variant::Teams:
            return "teams";
        case Variant::TeamPawn:
            return "team-pawn";
    }
    return "none";
}

std::optional<Variant> parseVariant(std::string_view name) {
    for (auto v : {Variant::None, Variant::Emissary, Variant::RoyalCouple, Variant::Teams, Variant::TeamPawn})
        if (variantName(v) == name) return v;
    return std::nullopt;
}

std::optional<Refusal> Rules::validate(const RulesSpec& spec) {
    bool v2024 = spec.edition == Edition::Vive2024;
    int minSeats = v2024 ? 2 : 3;
    int maxSeats = v2024 ? 8 : 6;
    if (spec.seats < minSeats || spec.seats > maxSeats)
        return badSetup("refusal.setup-seats",
                        {{"edition", say::text(std::string(editionName(spec.edition)))},
                         {"min", say::number(minSeats)},
                         {"max", say::number(maxSeats)}});
    if (spec.rounds && (*spec.rounds < 1 || *spec.rounds > kMaxRounds))
        return badSetup("refusal.setup-rounds", {{"max", say::number(kMaxRounds)}});
    if (spec.first < 0 || spec.first >= spec.seats)
        return badSetup("refusal.setup-first-seat", {{"last", say::number(spec.seats - 1)}});
    if (!v2024 && (spec.options.ambition || spec.options.banished || spec.variant != Variant::None))
        return badSetup("refusal.setup-options-2024");
    bool teams = spec.variant == Variant::Teams || spec.variant == Variant::TeamPawn;
    if (!teams && !spec.teams.empty()) return badSetup("refusal.setup-teams-without-variant");
    if (v2024 && spec.seats == 2 && spec.variant != Variant::Emissary)
        return badSetup("refusal.setup-two-seats-emissary");
    if (spec.variant == Variant::Emissary && spec.seats > 5) return badSetup("refusal.setup-emissary-seats");
    if (teams) {
        if (spec.seats < 3) return badSetup("refusal.setup-teams-seats");
        if (auto r = validateTeams(spec)) return r;
    } else if (spec.options.ambition && spec.seats > 8) {
        return badSetup("refusal.setup-ambition-players");
    }
    if (spec.roster)
        if (auto r = validateRoster(spec)) return r;
    return std::nullopt;
}

Rules::Rules(const RulesSpec& spec)
    : spec_(spec),
      edition_(spec.edition),
      variant_(spec.variant),
      options_(spec.options),
      roster_(spec.roster ? *spec.roster
                          : (spec.edition == Edition::Vive2024 ? roster2024() : classicRoster())),
      seats_(spec.seats),
      players_(spec.seats),
      rounds_(spec.rounds.value_or(spec.edition == Edition::Online ? 1 : 3)),
      first_(spec.first),
      floorLimit_(spec.edition == Edition::Vive2024 && spec.seats == 2 ? 3 : 4) {
    hand_.yes = 1;
    hand_.no = static_cast<std::uint8_t>(noCards(edition_, variant_, seats_));
    hand_.stomachache = is2024() ? 1 : 0;

    if (hasTeams()) {
        players_ = 0;
        for (int s = 0; s < seats_; ++s) {
            const auto& team = spec.teams[s];
            playerCount_[s] = static_cast<std::uint8_t>(team.size());
            for (std::size_t i = 0; i < team.size(); ++i) {
                PlayerId p{static_cast<std::uint8_t>(team[i])};
                playersOfSeat_[s][i] = p;
                seatOfPlayer_[p.index] = Seat{static_cast<std::uint8_t>(s)};
                ++players_;
            }
        }
    } else {
        for (int s = 0; s < seats_; ++s) {
            playerCount_[s] = 1;
            playersOfSeat_[s][0] = PlayerId{static_cast<std::uint8_t>(s)};
            seatOfPlayer_[s] = Seat{static_cast<std::uint8_t>(s)};
        }
    }

    // RULES §2: placement counts are computed. Up to 6 seats, each seat places
    // min(13 div seats, room div seats); with 7-8 all 13 are placed and the
    // first 13 mod seats seats in placement order place one more.
    basePlacements_ = 0;
    extraPlacements_ = 0;
    if (hasPlacementPhase()) {
        int room = 4 * floorLimit_ - (is2024() ? 1 : 0);
        if (seats_ <= 6) {
            basePlacements_ = std::min(kCharactersPerRoster / seats_, room / seats_);
        } else {
            basePlacements_ = kCharactersPerRoster / seats_;
            extraPlacements_ = kCharactersPerRoster % seats_;
        }
    }
    totalPlacements_ = basePlacements_ * seats_ + extraPlacements_;
}

int Rules::placementsFor(int order) const { return basePlacements_ + (order < extraPlacements_ ? 1 : 0); }

}  // namespace vivaref::engine
