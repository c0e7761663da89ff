// What applying an action caused, in order: the referee turns these into
// LEDs, screens and log lines. Events carry no secret: a vote cast names the
// seat, never the card; the cards are in the state's last reveal.
#pragma once

#include <array>

#include "engine/ids.hpp"

namespace vivaref::engine {

enum class EventKind : std::uint8_t {
    RoundDealt,        // round
    JesterSetUp,       // character to Floor3 (2024, before anything else)
    Compensated,       // seat gained 3 points at the deal (7-8 seats)
    AmbitionKept,      // player (the card is secret)
    Placed,            // seat put character on `to`
    PlacementEnded,    // leftovers go to floor 0 (one LeftToFloor0 each follows)
    LeftToFloor0,      // character from Reserve to Floor0
    PlacedAtRandom,    // online preset: character to `to`
    Moved,             // seat moved character from -> to
    Passed,            // seat had no legal move
    ElectionOpened,    // seat moved character to the throne
    VoteCast,          // seat voted (what is secret until the reveal)
    VotesRevealed,     // the state's lastReveal() holds the cards
    Crowned,           // character is King; seat moved it
    Rejected,          // character from Throne to `to` (dungeon, box, or a floor for the Jester)
    Eliminated,        // classic: character from Throne to Box
    Cancelled,         // Stomachache: character from Throne back to Floor5
    PileReshuffled,    // the Emissary's pile after a revealed Yes
    CoronationScored,  // the state's lastRound() holds the scores so far
    RoundEnded,        // round; `seat` triggered its last coronation
    GameOver,
};

struct Event {
    EventKind kind;
    Seat seat{};
    PlayerId player{};
    CharacterId character{};
    Place from = Place::Unknown;
    Place to = Place::Unknown;
    int round = 0;
};

class EventList {
public:
    static constexpr int kCapacity = 48;
    void push(const Event& e) {
        if (size_ < kCapacity) items_[size_++] = e;
    }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Event& operator[](int i) const { return items_[i]; }
    const Event* begin() const { return items_.data(); }
    const Event* end() const { return items_.data() + size_; }
    void clear() { size_ = 0; }

private:
    std::array<Event, kCapacity> items_{};
    int size_ = 0;
};

}  // namespace vivaref::engine
