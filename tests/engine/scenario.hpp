// A small table for the engine's tests: a State under a rules spec, deals
// with chosen favourites, and helpers that place and move characters by
// their slugs so a test reads like the rulebook's examples.
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "engine/action.hpp"
#include "engine/chance.hpp"
#include "engine/rules.hpp"
#include "engine/state.hpp"
#include "engine/views.hpp"

namespace vivaref::test {

using namespace vivaref::engine;

constexpr VoteCard kYes = VoteCard::Yes;
constexpr VoteCard kNo = VoteCard::No;
constexpr VoteCard kStomachache = VoteCard::Stomachache;

inline Seat seat(int i) { return Seat{static_cast<std::uint8_t>(i)}; }
inline PlayerId player(int i) { return PlayerId{static_cast<std::uint8_t>(i)}; }

RulesSpec classicSpec(int seats, int first = 0);
RulesSpec onlineSpec(int seats, int first = 0);
RulesSpec spec2024(int seats, Variant variant = Variant::None, Options options = {}, int first = 0);
// Teams of two first, then lone players: teamsSpec(7, 3) gives seats
// [[0,1],[2,3],[4,5],[6],[7],[8],[9]].
RulesSpec teamsSpec(int seats, int teamsOfTwo, Variant variant = Variant::Teams, Options options = {});

// "accepted" or the refusal's GAME-RECORD code.
std::string outcome(const std::optional<Refusal>& r);
std::string codeName(RefusalCode c);

struct RefusalProbe {
    std::string code;         // "accepted" when the engine took the action
    bool unchanged = false;   // operator== and serialize() both equal the state before
    bool hasMessage = false;  // a sentence for the player
};
// Applies `a`; on a refusal checks the state did not change.
RefusalProbe probe(State& s, const Action& a);

// The line of the failing check is the test's, not the helper's.
#define CHECK_REFUSED(state, action, expected)                                     \
    do {                                                                           \
        const auto probe_ = ::vivaref::test::probe((state), (action));             \
        CHECK(probe_.code == ::vivaref::test::codeName(expected));                 \
        if (probe_.code != "accepted") {                                           \
            CHECK_MESSAGE(probe_.unchanged, "a refused action changed the state"); \
            CHECK(probe_.hasMessage);                                              \
        }                                                                          \
    } while (0)

#define REQUIRE_ACCEPTED(expr)                                                                         \
    do {                                                                                               \
        const auto refusal_ = (expr);                                                                  \
        INFO("refused: " << ::vivaref::test::outcome(refusal_)                                         \
                         << (refusal_ ? " - " + ::vivaref::engine::describe(refusal_->message) : "")); \
        REQUIRE(!refusal_.has_value());                                                                \
    } while (0)

class Table {
public:
    explicit Table(const RulesSpec& spec);

    std::shared_ptr<const Rules> rules;
    State state;
    EventList events;  // of the last action applied through the table

    const Roster& roster() const { return rules->roster(); }
    CharacterId id(std::string_view slug) const;
    Place at(std::string_view slug) const { return state.placeOf(id(slug)); }
    Seat toAct() const { return state.seatToAct(); }
    int seats() const { return rules->seats(); }
    int players() const { return rules->players(); }

    // A deal for the current round. Players without a card in `favourites`
    // (or with an empty one) get a default one, distinct from every other.
    Deal makeDeal(const std::vector<std::vector<std::string>>& favourites = {}) const;
    FavouritesCard card(const std::vector<std::string>& slugs) const;
    void deal(const Deal& d);
    void deal(const std::vector<std::vector<std::string>>& favourites = {}) { deal(makeDeal(favourites)); }
    // With Ambition: every player who has not kept a card keeps the first of
    // their pair.
    void keepFirst();
    // Deal (and keep) so the round is in placement (or ascent online).
    void start(const std::vector<std::vector<std::string>>& favourites = {});

    // The seat to act places the character.
    void place(std::string_view slug, int floor);
    // Placements in this order, each by the seat to act.
    void placeAll(std::initializer_list<std::pair<std::string_view, int>> placements);
    // The seat to act moves the character to `to`; up() moves it one floor
    // up (onto the throne from floor 5), climb() moves it up to `floor`.
    void move(std::string_view slug, Place to);
    void up(std::string_view slug);
    void climb(std::string_view slug, Place to);
    // Every seat votes, seat 0 first.
    void vote(const std::vector<VoteCard>& bySeat);
    // Every seat votes Yes except the listed ones.
    void voteAllYesBut(std::initializer_list<std::pair<int, VoteCard>> others);
    std::optional<Refusal> apply(const Action& a);

    bool happened(EventKind k) const;
    // This round's scores so far, or the last finished round's between rounds.
    std::vector<int> roundScores() const;
};

// Twelve placements (3 or 4 seats), each by the seat to act:
// floor 4: alighiero beatrice clemente dario; floor 3: ernesto fiorello
// gavino irina; floor 2: leonardo merlino natale; floor 1: odessa;
// piero is left on floor 0.
void placeClassicLadder(Table& t);
// Twelve placements (3 or 4 seats): floor 4: eloise ouaf caius foidvo;
// floor 3: jeanne merlin victoria and the Jester; floor 2: leonardo romeo
// bridget; floor 1: agathe gontran; blanche is left on floor 0.
void place2024Ladder(Table& t);

// A 2024 round for 4 seats that fills every kind of place. The favourites
// it is scored with (richFavourites) give 15, -6, 9 and 9 points. Placement
// then: eloise to WC3, victoria to WC4; merlin, foidvo, caius rejected to
// Dungeon3, 2, 1 and romeo to the box; jeanne's election cancelled by a
// Stomachache (seat 3); leonardo crowned, moved by seat 3 (seats counted
// from the round's first player). The end:
// throne leonardo; floor 5 jeanne; floor 3 the Jester; WC3 eloise; WC4
// victoria; floor 2 ouaf bridget; floor 1 agathe gontran; floor 0 blanche;
// Dungeon3 merlin, Dungeon2 foidvo, Dungeon1 caius; box romeo. Seat 3 then
// holds only its Yes; seat 0 has played one No.
std::vector<std::vector<std::string>> richFavourites();
void playRichRound(Table& t);  // from the deal's end (placement) to the coronation

// A 2024 round for 4 seats in which seat 2 crowns the Jester. The end:
// throne the Jester; floor 5 eloise ouaf; floor 4 caius foidvo jeanne;
// floor 3 merlin; floor 2 victoria leonardo romeo bridget; floor 1 agathe
// gontran; floor 0 blanche.
void playJesterRound(Table& t);

// All characters of the roster but the Jester, in roster order.
std::vector<CharacterId> ordinaryCharacters(const Roster& r);

// "[12, 7, 0]": compare lists as text so a failure prints both sides.
std::string show(const std::vector<int>& v);
std::string show(const std::vector<PlayerId>& v);

}  // namespace vivaref::test

// Enum and id printing for failed checks (inline: a header-only helper).
namespace doctest {
template <>
struct StringMaker<vivaref::engine::Place> {
    static String convert(vivaref::engine::Place p) {
        return String(std::string(vivaref::engine::placeName(p)).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::Phase> {
    static String convert(vivaref::engine::Phase p) {
        return String(std::string(vivaref::engine::phaseName(p)).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::VoteCard> {
    static String convert(vivaref::engine::VoteCard c) {
        return String(std::string(vivaref::engine::voteCardName(c)).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::ElectionOutcome> {
    static String convert(vivaref::engine::ElectionOutcome o) {
        return String(std::string(vivaref::engine::electionOutcomeName(o)).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::Seat> {
    static String convert(vivaref::engine::Seat s) {
        return String(("seat " + std::to_string(int{s.index})).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::PlayerId> {
    static String convert(vivaref::engine::PlayerId p) {
        return String(("player " + std::to_string(int{p.index})).c_str());
    }
};
template <>
struct StringMaker<vivaref::engine::CharacterId> {
    static String convert(vivaref::engine::CharacterId c) {
        return String(("character " + std::to_string(int{c.index})).c_str());
    }
};
}  // namespace doctest
