// Which reader lies under which place. A place may have several readers (a
// real castle floor has up to four antennas); every reader serves one place.
// Readers and places get dense indices so the pipeline's per-scan work is
// array lookups rather than string compares.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

using ReaderIndex = std::size_t;
using PlaceIndex = std::size_t;

class BoardLayout {
public:
    // Throws std::invalid_argument when a reader is named twice or a name is empty.
    void addReader(ReaderId reader, PlaceName place);

    std::size_t readerCount() const { return readers_.size(); }
    std::size_t placeCount() const { return places_.size(); }

    const ReaderId& reader(ReaderIndex index) const { return readers_[index]; }
    const PlaceName& place(PlaceIndex index) const { return places_[index]; }
    PlaceIndex placeOf(ReaderIndex reader) const { return placeOfReader_[reader]; }
    const std::vector<ReaderIndex>& readersOf(PlaceIndex place) const { return readersOfPlace_[place]; }

    std::optional<ReaderIndex> findReader(const ReaderId& reader) const;
    std::optional<PlaceIndex> findPlace(const PlaceName& place) const;

private:
    std::vector<ReaderId> readers_;
    std::vector<PlaceName> places_;
    std::vector<PlaceIndex> placeOfReader_;
    std::vector<std::vector<ReaderIndex>> readersOfPlace_;
    std::map<ReaderId, ReaderIndex> readerByName_;
    std::map<PlaceName, PlaceIndex> placeByName_;
};

// The standard board: one reader per place, named as in a referee trace
// (floor0..floor5, throne, wc3, wc4, dungeon1..dungeon3) over the
// GAME-RECORD places "0".."5", "6", "wc3", "wc4", "dungeon1".."dungeon3".
// A castle configuration that names no reader has it, and so has the
// simulated castle; it is no simulation's own (the referee of a real
// castle is given that castle's layout instead).
BoardLayout standardBoardLayout();

}  // namespace vivaref::drivers
