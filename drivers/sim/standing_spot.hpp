// Where a player stands a piece. On a real castle each reader of a floor
// lies under one standing spot, and a piece put on the floor goes on a free
// spot, so a floor's pieces spread over its readers. The castles emulated
// in memory (SimulatedBoard, and the tests' real driver against emulated
// chips, tests/real/emulated_castle.hpp) put a piece where this says, so
// that both see the same board and `vivaref simulate` predicts the real
// driver's timing (drivers/sensing/NOTES.md, "How soon").
#pragma once

#include <cstddef>
#include <span>

#include "drivers/sensing/board_layout.hpp"

namespace vivaref::drivers {

// The reader of `place` that a piece put there stands over: the one that
// holds the fewest tags now, the first such in the layout's order among
// equals. `tagsOver` counts the tags standing over each reader, by reader
// index (a piece moved from elsewhere on the board not counted where it
// was); a reader beyond its end holds none.
ReaderIndex standingSpot(const BoardLayout& layout, PlaceIndex place, std::span<const std::size_t> tagsOver);

}  // namespace vivaref::drivers
