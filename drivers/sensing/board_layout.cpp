#include "drivers/sensing/board_layout.hpp"

#include <stdexcept>
#include <string>

namespace vivaref::drivers {

void BoardLayout::addReader(ReaderId reader, PlaceName place) {
    if (reader.name.empty() || place.name.empty()) {
        throw std::invalid_argument("board layout: a reader and its place need names");
    }
    if (readerByName_.contains(reader)) {
        throw std::invalid_argument("board layout: reader \"" + reader.name + "\" is listed twice");
    }
    auto [placeIt, isNewPlace] = placeByName_.try_emplace(place, places_.size());
    if (isNewPlace) {
        places_.push_back(place);
        readersOfPlace_.emplace_back();
    }
    const ReaderIndex index = readers_.size();
    readerByName_.emplace(reader, index);
    readers_.push_back(std::move(reader));
    placeOfReader_.push_back(placeIt->second);
    readersOfPlace_[placeIt->second].push_back(index);
}

std::optional<ReaderIndex> BoardLayout::findReader(const ReaderId& reader) const {
    if (auto it = readerByName_.find(reader); it != readerByName_.end()) return it->second;
    return std::nullopt;
}

std::optional<PlaceIndex> BoardLayout::findPlace(const PlaceName& place) const {
    if (auto it = placeByName_.find(place); it != placeByName_.end()) return it->second;
    return std::nullopt;
}

BoardLayout standardBoardLayout() {
    BoardLayout layout;
    for (int floor = 0; floor <= 5; ++floor) {
        layout.addReader({"floor" + std::to_string(floor)}, {std::to_string(floor)});
    }
    layout.addReader({"throne"}, {"6"});
    layout.addReader({"wc3"}, {"wc3"});
    layout.addReader({"wc4"}, {"wc4"});
    for (int dungeon = 1; dungeon <= 3; ++dungeon) {
        const std::string name = "dungeon" + std::to_string(dungeon);
        layout.addReader({name}, {name});
    }
    return layout;
}

}  // namespace vivaref::drivers
