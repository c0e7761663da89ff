// Engine places as the castle names them. The board's places are the
// GAME-RECORD names of the places a reader lies under: floors "0".."5", the
// throne "6", "wc3", "wc4", "dungeon1".."dungeon3". The box and the reserve
// (beside the board) have no reader: a character there is off the board.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "drivers/sensing/board_layout.hpp"
#include "engine/ids.hpp"
#include "engine/roster.hpp"

namespace vivaref::referee {

// Where a character at engine place `p` stands on the board; the royal
// couple's first King stands on the throne beside the next candidate.
// nullopt: off the board (box, reserve).
std::optional<engine::Place> boardPlace(engine::Place p);
// A place in the table's words: "floor 1", "the throne", "WC 3",
// "dungeon 2", "the box".
std::string placeWord(engine::Place p);
// A board place as the status names it ("6" for the throne); null when
// off the board.
nlohmann::json placeJson(std::optional<engine::Place> p);

// Places in the order of their names ("dungeon1" before "wc3"), the order
// the referee kept them in when it held them as names: the blind places
// are listed in it, and the places a reader missed are tried in it.
struct ByPlaceName {
    bool operator()(engine::Place a, engine::Place b) const {
        return engine::placeName(a) < engine::placeName(b);
    }
};
using PlacesByName = std::set<engine::Place, ByPlaceName>;

// The castle's names in the game's types, each looked up once: the places
// and readers of the layout when the referee starts, the characters of the
// roster when a game does. What the sensing pipeline reports is read
// through these, never parsed again (REFEREE-NOTES.md, "Names").
class BoardNames {
public:
    explicit BoardNames(const drivers::BoardLayout& layout);

    // Place::Unknown: no place of the layout, or a name that is no place
    // on the board (the configuration refuses those).
    engine::Place place(const drivers::PlaceName& name) const;
    // nullopt: no reader of the layout.
    std::optional<engine::Place> placeOfReader(const drivers::ReaderId& reader) const;

    // A game starts (or resumes): its characters by slug.
    void useRoster(const engine::Roster& roster);
    // kInvalidIndex: no character of this game.
    engine::CharacterId character(const drivers::CharacterSlug& slug) const;

private:
    std::map<drivers::PlaceName, engine::Place> places_;
    std::map<drivers::ReaderId, engine::Place> readers_;
    std::map<drivers::CharacterSlug, engine::CharacterId> characters_;
};

}  // namespace vivaref::referee
