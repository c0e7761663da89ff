// What players decide (keep, place, move, vote, pass) and what chance
// decides (a deal, the Emissary's reshuffled pile). Player actions are small
// values so that legal-action lists and random play never allocate.
#pragma once

#include <array>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "engine/ids.hpp"

namespace vivaref::engine {

enum class ActionKind : std::uint8_t { Keep, Place, Move, Vote, Pass };

class Action {
public:
    Action() = default;  // a pass by no seat: a placeholder, never legal
    static Action keep(PlayerId p, AmbitionCard c) {
        return {ActionKind::Keep, p.index, static_cast<std::uint8_t>(c), Place::Unknown};
    }
    static Action place(Seat s, CharacterId c, Place to) { return {ActionKind::Place, s.index, c.index, to}; }
    static Action move(Seat s, CharacterId c, Place to) { return {ActionKind::Move, s.index, c.index, to}; }
    static Action vote(Seat s, VoteCard c) {
        return {ActionKind::Vote, s.index, static_cast<std::uint8_t>(c), Place::Unknown};
    }
    static Action pass(Seat s) { return {ActionKind::Pass, s.index, kInvalidIndex, Place::Unknown}; }

    ActionKind kind() const { return kind_; }
    Seat seat() const { return Seat{actor_}; }            // place, move, vote, pass
    PlayerId player() const { return PlayerId{actor_}; }  // keep
    CharacterId character() const { return CharacterId{subject_}; }
    Place to() const { return to_; }
    VoteCard card() const { return static_cast<VoteCard>(subject_); }
    AmbitionCard ambition() const { return static_cast<AmbitionCard>(subject_); }

    friend bool operator==(const Action&, const Action&) = default;

private:
    Action(ActionKind k, std::uint8_t actor, std::uint8_t subject, Place to)
        : kind_(k), actor_(actor), subject_(subject), to_(to) {}
    ActionKind kind_ = ActionKind::Pass;
    std::uint8_t actor_ = kInvalidIndex;
    std::uint8_t subject_ = kInvalidIndex;
    Place to_ = Place::Unknown;
};

// A list of actions with a fixed capacity (more than any state has legal).
// Its storage is left uninitialised: random play fills one per action.
class ActionList {
public:
    static constexpr int kCapacity = 96;
    ActionList() {}
    void push(const Action& a) { new (&storage_.items[size_++]) Action(a); }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Action& operator[](int i) const { return storage_.items[i]; }
    const Action* begin() const { return storage_.items; }
    const Action* end() const { return storage_.items + size_; }
    void clear() { size_ = 0; }

private:
    static_assert(std::is_trivially_copyable_v<Action> && std::is_trivially_destructible_v<Action>);
    union Storage {
        Storage() {}
        Action items[kCapacity];
    } storage_;
    int size_ = 0;
};

// One player's Favourites card; with the Banished option one of the six
// carries the black seal and is no favourite (RULES §5).
struct FavouritesCard {
    std::array<CharacterId, kFavouritesPerCard> characters{};
    std::optional<CharacterId> banished;
    bool counts(CharacterId c) const {
        if (banished && *banished == c) return false;
        for (auto x : characters)
            if (x == c) return true;
        return false;
    }
    friend bool operator==(const FavouritesCard&, const FavouritesCard&) = default;
};

struct EmissaryDeal {
    FavouritesCard favourites;
    std::vector<VoteCard> pile;  // top card first
    friend bool operator==(const EmissaryDeal&, const EmissaryDeal&) = default;
};

// A round's deal: recorded from physical cards, or made by randomDeal().
struct Deal {
    int round = 1;
    std::vector<FavouritesCard> favourites;              // one per player
    std::vector<std::array<AmbitionCard, 2>> ambitions;  // one pair per player, with Ambition
    std::optional<EmissaryDeal> emissary;                // with the Emissary
    std::vector<Place> placement;                        // online preset: by character index
    friend bool operator==(const Deal&, const Deal&) = default;
};

// The Emissary's pile after a revealed Yes went back into it.
struct Reshuffle {
    std::vector<VoteCard> pile;  // top card first
    friend bool operator==(const Reshuffle&, const Reshuffle&) = default;
};

}  // namespace vivaref::engine
