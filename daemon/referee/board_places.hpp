// Engine places as the castle names them. The board's places are the
// GAME-RECORD names of the places a reader lies under: floors "0".."5", the
// throne "6", "wc3", "wc4", "dungeon1".."dungeon3". The box and the reserve
// (beside the board) have no reader: a character there is off the board.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/ids.hpp"

namespace vivaref::referee {

// Where a character at engine place `p` stands on the board; the royal
// couple's first King stands on the throne beside the next candidate.
// nullopt: off the board (box, reserve).
std::optional<std::string> boardPlace(engine::Place p);
// The engine place a board place stands for ("6" is the throne);
// Place::Unknown for a name that is no place on the board.
engine::Place enginePlace(std::string_view boardPlace);
// A place in the table's words: "floor 1", "the throne", "WC 3",
// "dungeon 2", "the box"; a name that is no place comes back as it is.
std::string placeWord(std::string_view place);
std::string placeWord(engine::Place p);
// The LED of a board place: "place-3", "place-wc3".
std::string placeLedName(std::string_view boardPlace);

}  // namespace vivaref::referee
