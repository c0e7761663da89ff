// The rules description of one game: edition, seats, rounds, options,
// variant, teams and roster. Immutable once made; every State points at one.
// Everything the setup tables of RULES §2 say is derived here.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/ids.hpp"
#include "engine/refusal.hpp"
#include "engine/roster.hpp"

namespace vivaref::engine {

enum class Edition : std::uint8_t { Classic, Online, Vive2024 };
enum class Variant : std::uint8_t { None, Emissary, RoyalCouple, Teams, TeamPawn };

std::string_view editionName(Edition e);  // "classic", "online", "2024"
std::optional<Edition> parseEdition(std::string_view name);
std::string_view variantName(Variant v);  // "none", "emissary", ...
std::optional<Variant> parseVariant(std::string_view name);

struct Options {
    bool ambition = false;
    bool banished = false;
    friend bool operator==(const Options&, const Options&) = default;
};

// What a setup line (or the host's new-game form) says, before validation.
struct RulesSpec {
    Edition edition = Edition::Classic;
    int seats = 4;
    std::optional<int> rounds;  // default: 3, online 1
    int first = 0;
    Options options;
    Variant variant = Variant::None;
    std::vector<std::vector<int>> teams;  // seat -> its players; empty without teams
    std::optional<Roster> roster;         // replaces the edition's
    friend bool operator==(const RulesSpec&, const RulesSpec&) = default;
};

inline constexpr int kMaxRounds = 99;

// A vote hand: one Yes (never lost), some No, and in 2024 one Stomachache.
struct Hand {
    std::uint8_t yes = 1;
    std::uint8_t no = 0;
    std::uint8_t stomachache = 0;
    bool holds(VoteCard c) const { return count(c) > 0; }
    int count(VoteCard c) const {
        return c == VoteCard::Yes           ? yes
               : c == VoteCard::No          ? no
               : c == VoteCard::Stomachache ? stomachache
                                            : 0;
    }
    friend bool operator==(const Hand&, const Hand&) = default;
};

class Rules {
public:
    // Checks a spec against RULES.md; a refusal has code bad-setup.
    static std::optional<Refusal> validate(const RulesSpec& spec);
    // The spec must have passed validate().
    explicit Rules(const RulesSpec& spec);

    Edition edition() const { return edition_; }
    Variant variant() const { return variant_; }
    const Options& options() const { return options_; }
    const Roster& roster() const { return roster_; }
    int seats() const { return seats_; }
    int players() const { return players_; }
    int rounds() const { return rounds_; }
    Seat firstSeat() const { return Seat{static_cast<std::uint8_t>(first_)}; }
    const RulesSpec& spec() const { return spec_; }

    bool is2024() const { return edition_ == Edition::Vive2024; }
    bool hasEmissary() const { return variant_ == Variant::Emissary; }
    bool isRoyalCouple() const { return variant_ == Variant::RoyalCouple; }
    bool hasTeams() const { return variant_ == Variant::Teams || variant_ == Variant::TeamPawn; }
    bool isTeamPawn() const { return variant_ == Variant::TeamPawn; }
    bool hasPlacementPhase() const { return edition_ != Edition::Online; }

    Seat seatOf(PlayerId p) const { return seatOfPlayer_[p.index]; }
    // One player, or two for a team.
    int playersAt(Seat s) const { return playerCount_[s.index]; }
    PlayerId playerAt(Seat s, int i) const { return playersOfSeat_[s.index][i]; }

    int floorLimit() const { return floorLimit_; }  // floors 1-5 (RULES §1)
    Hand startingHand() const { return hand_; }     // per seat, and the Emissary's pile
    int startingScore() const { return is2024() ? 20 : 0; }
    int emissaryStartingScore() const { return 40; }
    // How many characters the seat that is `order`-th in placement order
    // (0 = the round's first player) places (RULES §2, computed).
    int placementsFor(int order) const;
    int totalPlacements() const { return totalPlacements_; }
    // RULES §3.5: the 33 rule of the classic edition, third round only.
    bool hasRule33() const { return !is2024(); }

    // Without a division or a branch: the turn passes at almost every action.
    Seat nextSeat(Seat s) const {
        const int next = s.index + 1;
        return Seat{static_cast<std::uint8_t>(next - seats_ * (next >= seats_))};
    }

private:
    RulesSpec spec_;
    Edition edition_;
    Variant variant_;
    Options options_;
    Roster roster_;
    int seats_;
    int players_;
    int rounds_;
    int first_;
    int floorLimit_;
    Hand hand_;
    int basePlacements_;   // what every seat places
    int extraPlacements_;  // how many seats (first in order) place one more
    int totalPlacements_;
    std::array<Seat, kMaxPlayers> seatOfPlayer_{};
    std::array<std::array<PlayerId, 2>, kMaxSeats> playersOfSeat_{};
    std::array<std::uint8_t, kMaxSeats> playerCount_{};
};

}  // namespace vivaref::engine
