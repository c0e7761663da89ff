// The state of one game under a Rules description: where every character
// stands, hands, favourites, scores, whose turn it is. Apply a decision (a
// player's action, or chance's deal or reshuffle) and get the events it
// caused, or a refusal that leaves the state untouched. Pure: no I/O, clocks
// or globals; chance comes in as Deal and Reshuffle.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.hpp"
#include "engine/bounded_vector.hpp"
#include "engine/decision.hpp"
#include "engine/event.hpp"
#include "engine/refusal.hpp"
#include "engine/rules.hpp"

namespace vivaref::engine {

enum class Phase : std::uint8_t {
    AwaitDeal,     // chance: the next round's Deal
    KeepAmbition,  // players keep one of their two Ambition cards
    Placement,
    Ascent,
    Election,
    AwaitReshuffle,  // chance: the Emissary's pile after a revealed Yes
    GameOver,
};
std::string_view phaseName(Phase p);

enum class ElectionOutcome : std::uint8_t { Crowned, Eliminated, Rejected, Cancelled };
std::string_view electionOutcomeName(ElectionOutcome o);

// An election's simultaneous reveal: public once it happened.
struct Reveal {
    CharacterId candidate{};
    Seat crown{};  // the seat that moved the candidate to the throne
    std::array<VoteCard, kMaxSeats> votes{};
    std::optional<VoteCard> emissaryVote;  // with the Emissary
    bool emissaryDrew = false;             // false: automatic Yes for a favourite
    ElectionOutcome outcome = ElectionOutcome::Crowned;
    Place sentTo = Place::Throne;  // where the candidate goes
    friend bool operator==(const Reveal&, const Reveal&) = default;
};

// One line of a score sheet: why some points were scored (RULES §3.5, §5, §6).
enum class ScoreLineKind : std::uint8_t {
    Favourite,  // `character` stood at `place` and scored by the §3.5 table
    Banished,   // `character` carries the seal: no favourite, 0 points
    Ambition,   // the kept `ambition` card, `met` or not
    Rule33,     // classic round 3: a round score of exactly 0 becomes 33
    TeamPawn,   // single-pawn team: down to the lower teammate's score
};
std::string_view scoreLineKindName(ScoreLineKind k);

struct ScoreLine {
    ScoreLineKind kind = ScoreLineKind::Favourite;
    CharacterId character{};
    Place place = Place::Unknown;
    AmbitionCard ambition = AmbitionCard::Unknown;
    bool met = false;
    int points = 0;
    friend bool operator==(const ScoreLine&, const ScoreLine&) = default;
};

// One player's (or the Emissary's) part of a coronation: `total` is the sum of
// the lines and is what the score track moved by (before the 2024 floor at 0).
// At most: six favourites, the Ambition card, then the 33 rule or the team pawn.
inline constexpr int kMaxScoreLines = kFavouritesPerCard + 3;
struct ScoreSheet {
    BoundedVector<ScoreLine, kMaxScoreLines> lines;
    int total = 0;
    friend bool operator==(const ScoreSheet&, const ScoreSheet&) = default;
};

// Why one coronation scored what it did. Public once its round is over.
struct CoronationScore {
    CharacterId king{};
    Seat crown{};                                    // moved the King to the throne
    bool jesterKing = false;                         // 2024: floors and dungeons score reversed
    BoundedVector<ScoreSheet, kMaxPlayers> players;  // by player
    std::optional<ScoreSheet> emissary;              // with the Emissary
    friend bool operator==(const CoronationScore&, const CoronationScore&) = default;
};

struct RoundResult {
    int round = 0;
    BoundedVector<CharacterId, 2> kings;     // one, or two for a royal couple
    Seat crown{};                            // triggered the round's last coronation
    BoundedVector<int, kMaxPlayers> scores;  // by player, before clamping
    int emissaryScore = 0;
    // The breakdown: scores[p] == compensation[p] + the sum of coronations[i].players[p].total,
    // emissaryScore == the sum of the Emissary's sheets.
    BoundedVector<int, kMaxPlayers> compensation;   // by player: RULES §2, 3 points at the deal
    BoundedVector<CoronationScore, 2> coronations;  // in order: two for a royal couple
    friend bool operator==(const RoundResult&, const RoundResult&) = default;
};

class Rng;  // chance.hpp

class State {
public:
    explicit State(std::shared_ptr<const Rules> rules);

    const Rules& rules() const { return *rules_; }
    const std::shared_ptr<const Rules>& rulesPtr() const { return rules_; }
    Phase phase() const { return phase_; }
    bool isOver() const { return phase_ == Phase::GameOver; }
    bool awaitsChance() const { return phase_ == Phase::AwaitDeal || phase_ == Phase::AwaitReshuffle; }
    int round() const { return round_; }
    Seat firstPlayer() const { return first_; }

    // --- acting ---------------------------------------------------------
    // The one entry point for players and chance alike. A decision of the
    // wrong kind for the phase is refused as wrong-phase, like any other.
    std::optional<Refusal> apply(const Decision& d, EventList* events = nullptr) {
        if (const auto* action = std::get_if<Action>(&d)) return applyAction(*action, events);
        if (const auto* deal = std::get_if<Deal>(&d)) return applyDeal(*deal, events);
        return applyReshuffle(std::get<Reshuffle>(d), events);
    }
    // A player's action alone: the same as apply(Decision(a)), without
    // building and destroying the variant (random play's hot path).
    std::optional<Refusal> apply(const Action& a, EventList* events = nullptr) {
        return applyAction(a, events);
    }
    // The kind of decision the state waits for: a Deal or a Reshuffle from
    // chance, else a player's Action; nothing once the game is over.
    std::optional<DecisionKind> awaits() const {
        switch (phase_) {
            case Phase::AwaitDeal:
                return DecisionKind::Deal;
            case Phase::AwaitReshuffle:
                return DecisionKind::Reshuffle;
            case Phase::GameOver:
                return std::nullopt;
            default:
                return DecisionKind::Action;
        }
    }
    // Every legal player action now (empty while chance is awaited or over).
    void legalActions(ActionList& out) const;
    // GAME-RECORD `to_act`: the seat to place or move; during an election the
    // seats that have not voted; while Ambition cards are kept the seats of
    // players who have not kept; empty while chance is awaited or over.
    std::vector<Seat> toAct() const;
    Seat seatToAct() const { return toAct_; }  // placement and ascent

    // --- the board --------------------------------------------------------
    Place placeOf(CharacterId c) const { return place_[c.index]; }
    // Where every character should stand now, by character index.
    const std::array<Place, kMaxCharacters>& positions() const { return place_; }
    int countAt(Place p) const { return p < Place::Unknown ? count_[static_cast<int>(p)] : 0; }
    int characterCount() const { return characters_; }
    // The characters at a place as a bit mask over character indices.
    std::uint16_t charactersAt(Place p) const { return p < Place::Unknown ? at_[static_cast<int>(p)] : 0; }
    // For each place, where a character standing there may move this turn
    // (Place::Unknown: nowhere). Each character has at most one legal move.
    std::array<Place, kPlaceCount> moveDestinations() const;
    // The same for one place, and the characters that may move as a bit mask.
    Place moveDestination(Place from) const;
    std::uint16_t movableCharacters() const;
    // moveDestination() for a character movableCharacters() names: fewer tests.
    Place movableTo(Place from) const;

    // --- an election ------------------------------------------------------
    CharacterId candidate() const { return candidate_; }
    Seat crownHolder() const { return crown_; }
    bool hasVoted(Seat s) const { return votes_[s.index] != VoteCard::Unknown; }
    const std::optional<Reveal>& lastReveal() const { return lastReveal_; }

    // --- secrets (views decide who may see them) --------------------------
    const Hand& hand(Seat s) const { return hands_[s.index]; }
    const FavouritesCard& favourites(PlayerId p) const { return favourites_[p.index]; }
    std::optional<VoteCard> voteOf(Seat s) const;  // before the reveal: secret
    const std::array<AmbitionCard, 2>& ambitionChoices(PlayerId p) const { return ambitionDealt_[p.index]; }
    AmbitionCard keptAmbition(PlayerId p) const { return ambitionKept_[p.index]; }
    // The player's kept card may still be changed for the other one dealt
    // (a keep of that card): until the round's first placement.
    bool ambitionChangeable(PlayerId p) const;
    const FavouritesCard& emissaryFavourites() const { return emissaryFavourites_; }  // public
    std::vector<VoteCard> emissaryPile() const;  // secret: top card first
    // Royal couple: after the first coronation the cards stay face up.
    bool favouritesRevealed() const { return favouritesRevealed_; }

    // --- scores -----------------------------------------------------------
    // Score track by player (single-pawn teams: both show the team's).
    std::vector<int> totals() const;
    int emissaryTotal() const { return emissaryTotal_; }
    const std::vector<RoundResult>& finishedRounds() const { return history_; }
    const RoundResult& currentRound() const { return current_; }
    // Winners by player once the game is over (RULES §4); empty when the
    // Emissary is strictly ahead of every player.
    std::vector<PlayerId> winners() const;

    // A full snapshot as text, and back: deserialize(serialize()) == *this.
    std::string serialize() const;
    static std::optional<State> deserialize(std::shared_ptr<const Rules> rules, std::string_view text);

    friend bool operator==(const State& a, const State& b);

private:
    friend class StateCodec;
    // chance.hpp: redraws what one seat has not seen.
    friend State sampleWorld(const State& truth, Seat viewer, Rng& rng);
    // chance.hpp: draws a legal action and carries it out without checking it again.
    friend Action playRandomAction(State& state, Rng& rng);
    friend void playRandomDeal(State& state, Rng& rng);

    // apply()'s three kinds: state.cpp
    std::optional<Refusal> applyAction(const Action& a, EventList* ev);
    std::optional<Refusal> applyDeal(const Deal& d, EventList* ev);
    std::optional<Refusal> applyReshuffle(const Reshuffle& r, EventList* ev);

    // ascent.cpp: placement, moves and passes (RULES §3.2-3.3)
    std::optional<Refusal> checkPlace(const Action& a) const;
    std::optional<Refusal> checkMove(const Action& a) const;
    std::optional<Refusal> checkPass(const Action& a) const;
    std::optional<Refusal> checkActor(const Action& a, Phase phase, const char* when) const;
    // True only when checkPlace, checkMove, checkVote would find nothing wrong.
    bool isLegalPlacement(const Action& a) const;
    bool isLegalMove(const Action& a) const;
    bool isLegalVote(const Action& a) const;
    bool hasLegalMove() const;
    std::uint16_t movableCharacters(const std::array<Place, kPlaceCount>& destination) const;
    void doPlace(const Action& a, EventList* ev);
    void doMove(const Action& a, EventList* ev);
    void doPass(const Action& a, EventList* ev);
    void addLegalPlacements(ActionList& out) const;
    void addLegalMoves(ActionList& out) const;
    // election.cpp (RULES §3.4, §6 Emissary)
    std::optional<Refusal> checkVote(const Action& a) const;
    void doVote(const Action& a, EventList* ev);
    void resolveElection(EventList* ev);
    // resolveElection's steps: the cards played, the Emissary's card, the
    // outcome, then the candidate crowned or sent away.
    struct ElectionCards {
        bool anyNo = false;
        bool anyStomachache = false;
        bool emissaryRevealedYes = false;  // its pile is reshuffled before play goes on
    };
    ElectionCards spendVotes();
    void revealEmissaryVote(Reveal& reveal, ElectionCards& cards);
    void decideOutcome(CharacterId c, Reveal& reveal, const ElectionCards& cards);
    void crownCandidate(CharacterId c, bool emissaryRevealedYes, EventList* ev);
    void sendCandidateAway(CharacterId c, const Reveal& reveal, bool emissaryRevealedYes, EventList* ev);
    void continueAfterElection(bool emissaryRevealedYes);
    // scoring.cpp (RULES §3.5, §4, §5)
    void scoreCoronation(EventList* ev);
    void endRound(Seat lastCrown, EventList* ev);
    // Adds one line per character of the card to `sheet`; returns their sum.
    int favouriteLines(const FavouritesCard& card, bool jesterKing, ScoreSheet& sheet) const;
    bool ambitionHolds(PlayerId p, AmbitionCard c, int favouritePoints) const;
    // state.cpp
    std::optional<Refusal> checkDeal(const Deal& d) const;
    void startRound(const Deal& d, EventList* ev);  // applyDeal once checkDeal found nothing wrong
    // startRound's steps (RULES §2, §3.1)
    void clearForRound();
    void takeCards(const Deal& d);
    void setUpJester(CharacterId jester, EventList* ev);
    void compensateSinglePlacements(EventList* ev);
    void placeAtRandom(const Deal& d, EventList* ev);
    std::optional<Refusal> checkFavouritesCard(const FavouritesCard& card,
                                               int player) const;  // -1: the Emissary
    std::optional<Refusal> checkPile(const std::vector<VoteCard>& pile, const Hand& expected) const;
    std::optional<Refusal> checkKeep(const Action& a) const;
    void startPlay();
    void putCharacter(CharacterId c, Place to);
    void addToTotal(PlayerId p, int change);

    std::shared_ptr<const Rules> rules_;
    int characters_ = 0;
    Phase phase_ = Phase::AwaitDeal;
    int round_ = 1;
    Seat first_{};
    Seat toAct_{};
    int placed_ = 0;  // placements made this round
    int passesInRow_ = 0;

    std::array<Place, kMaxCharacters> place_{};
    std::array<std::uint8_t, kPlaceCount> count_{};  // characters at each place
    std::array<std::uint16_t, kPlaceCount> at_{};    // the same as bit masks (derived from place_)

    std::array<FavouritesCard, kMaxPlayers> favourites_{};
    std::array<std::array<AmbitionCard, 2>, kMaxPlayers> ambitionDealt_{};
    std::array<AmbitionCard, kMaxPlayers> ambitionKept_{};
    std::array<Hand, kMaxSeats> hands_{};
    std::array<int, kMaxPlayers> totals_{};
    bool favouritesRevealed_ = false;

    FavouritesCard emissaryFavourites_{};
    std::array<VoteCard, 8> emissaryPile_{};  // top card first
    std::uint8_t emissaryPileSize_ = 0;
    int emissaryTotal_ = 0;

    CharacterId candidate_{};
    Seat crown_{};
    std::array<VoteCard, kMaxSeats> votes_{};
    int votesIn_ = 0;
    int rejections_ = 0;  // non-Jester rejections this round: the dungeon order
    CharacterId firstKing_{};
    Seat firstKingMover_{};
    std::optional<Reveal> lastReveal_;

    RoundResult current_;
    std::vector<RoundResult> history_;
};

// Random play's hottest helpers, defined here so that every caller can
// inline them (GCC would not inline them across files even with LTO).

inline void State::putCharacter(CharacterId c, Place to) {
    const auto from = static_cast<int>(place_[c.index]);
    const auto bit = static_cast<std::uint16_t>(1u << c.index);
    --count_[from];
    at_[from] = static_cast<std::uint16_t>(at_[from] & ~bit);
    ++count_[static_cast<int>(to)];
    at_[static_cast<int>(to)] |= bit;
    place_[c.index] = to;
}

inline Place State::moveDestination(Place from) const {
    // The same rules as moveDestinations(), for one place: up one floor, into
    // the WC of a full floor 3 or 4 above (2024), or out of a WC onto its floor.
    const int limit = rules_->floorLimit();
    if (isFloor(from)) {
        const int up = floorOf(from) + 1;
        if (up == kFloors)
            return count_[static_cast<int>(Place::Throne)] == 0 ? Place::Throne : Place::Unknown;
        if (count_[up] < limit) return floorPlace(up);
        if (rules_->is2024() && (up == 3 || up == 4)) {
            const Place wc = up == 3 ? Place::Wc3 : Place::Wc4;
            if (count_[static_cast<int>(wc)] == 0) return wc;
        }
        return Place::Unknown;
    }
    if (isWc(from) && rules_->is2024()) {
        const int floor = from == Place::Wc3 ? 3 : 4;
        if (count_[floor] < limit) return floorPlace(floor);
    }
    return Place::Unknown;
}

[[gnu::always_inline]] inline std::uint16_t State::movableCharacters() const {
    // moveDestination()'s rules for every place at once, written without
    // branches (which floors are full is as random as the game): a place's
    // characters are kept when their move is open.
    const int limit = rules_->floorLimit();
    const bool wcs = rules_->is2024();
    auto keepIf = [](std::uint16_t characters, bool open) {
        return characters & (0u - static_cast<unsigned>(open));
    };
    const auto wcFree = [&](Place wc) { return wcs & (count_[static_cast<int>(wc)] == 0); };
    unsigned movable = keepIf(at_[0], count_[1] < limit) | keepIf(at_[1], count_[2] < limit) |
                       keepIf(at_[2], (count_[3] < limit) | wcFree(Place::Wc3)) |
                       keepIf(at_[3], (count_[4] < limit) | wcFree(Place::Wc4)) |
                       keepIf(at_[4], count_[5] < limit) |
                       keepIf(at_[5], count_[static_cast<int>(Place::Throne)] == 0);
    if (wcs) {
        movable |= keepIf(at_[static_cast<int>(Place::Wc3)], count_[3] < limit);
        movable |= keepIf(at_[static_cast<int>(Place::Wc4)], count_[4] < limit);
    }
    return static_cast<std::uint16_t>(movable);
}

[[gnu::always_inline]] inline Place State::movableTo(Place from) const {
    // Up one floor (floor 5's is the throne, Place value 6) unless that floor
    // is full, when the move open is into its WC; out of a WC onto its floor.
    if (isFloor(from)) {
        const int up = floorOf(from) + 1;
        if (up == kFloors || count_[up] < rules_->floorLimit()) return floorPlace(up);
        return up == 3 ? Place::Wc3 : Place::Wc4;
    }
    return from == Place::Wc3 ? Place::Floor3 : Place::Floor4;
}

}  // namespace vivaref::engine
