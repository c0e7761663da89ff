// The board as seen against the board as the engine expects it: which
// characters stand somewhere else, are in a hand, or cannot be told apart.
// Pure: the referee decides what a difference means (an action, a refusal,
// guidance); this only lists them.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/referee/board_places.hpp"
#include "drivers/sensing/board_observation.hpp"
#include "engine/message.hpp"
#include "engine/state.hpp"

namespace vivaref::referee {

// Where the readers put one character.
struct Sighting {
    enum class Kind { Absent, OnPlace, InHand, Ambiguous };
    Kind kind = Kind::Absent;
    std::optional<engine::Place> place;     // OnPlace: where; InHand: lifted from (nullopt when unknown)
    std::vector<engine::Place> candidates;  // Ambiguous: the places it reads on
    bool uncertain = false;                 // OnPlace on a faulty reader's place
    friend bool operator==(const Sighting&, const Sighting&) = default;
};

// "on floor 3", "in hand (from WC 3)", "off the board", "unclear (floor 2 or floor 3)".
std::string describe(const Sighting& seen);

struct Difference {
    drivers::CharacterSlug slug;
    std::string name;                       // the display name (a stray tag: its slug)
    std::string kind;                       // woman, man, dog, jester; empty for a stray tag
    engine::CharacterId id;                 // kInvalidIndex: not a character of this game
    std::optional<engine::Place> expected;  // board place; nullopt: off the board
    Sighting seen;
    friend bool operator==(const Difference&, const Difference&) = default;
};

// The difference's character as a message's parameter (with its kind: a
// language agrees with it, and names the Jester in its own words).
engine::MessageValue characterOf(const Difference& d);

struct BoardComparison {
    std::vector<Difference> differences;  // by slug
    bool unsettled = false;               // one of them is in a hand or unclear: a move is under way
    std::set<engine::Place> blindPlaces;  // faulty places a difference touches
    bool matches() const { return differences.empty(); }
};

Sighting sightingOf(const drivers::BoardObservation& observation, const drivers::CharacterSlug& slug,
                    const BoardNames& names);

// Every character of the state's roster, and every other tag the readers
// place, compared with State::positions(). `names`: the layout's places
// and the game's characters; `faultyPlaces`: places a faulty reader serves.
BoardComparison compareBoard(const engine::State& state, const drivers::BoardObservation& observation,
                             const BoardNames& names, const PlacesByName& faultyPlaces);

// What to do to remove a difference, as a message ("guide.*"). After a
// refusal the expected place is where the character was: "put Odessa la
// Contessa back on floor 3", "take Dario off the board". After the engine
// moved it (guidance): "move Odessa la Contessa from the throne to dungeon 3".
engine::Message restoreMessage(const Difference& d);
engine::Message guidanceMessage(const Difference& d);
// The same in English, for the API's text and the notices.
std::string restoreSentence(const Difference& d);
std::string guidanceSentence(const Difference& d);

}  // namespace vivaref::referee
