#include "daemon/referee/board_places.hpp"

#include <string_view>

namespace vivaref::referee {

namespace {

// The engine place a board place's name stands for ("6" is the throne);
// Place::Unknown for a name that is no place on the board.
engine::Place enginePlaceNamed(std::string_view name) {
    using engine::Place;
    Place p = engine::parsePlace(name);
    if (p == Place::Box || p == Place::Reserve || p == Place::BesideThrone) return Place::Unknown;
    return p;
}

std::string wordForPlaceName(std::string_view place) {
    if (place.size() == 1 && place[0] >= '0' && place[0] <= '5') return "floor " + std::string(place);
    if (place == "6") return "the throne";
    if (place == "throne-side") return "beside the throne";
    if (place.starts_with("wc")) return "WC " + std::string(place.substr(2));
    if (place.starts_with("dungeon")) return "dungeon " + std::string(place.substr(7));
    if (place == "box") return "the box";
    if (place == "reserve") return "off the castle";
    return std::string(place);
}

}  // namespace

std::optional<engine::Place> boardPlace(engine::Place p) {
    using engine::Place;
    if (p == Place::Box || p == Place::Reserve || p == Place::Unknown) return std::nullopt;
    if (p == Place::BesideThrone) return Place::Throne;
    return p;
}

std::string placeWord(engine::Place p) { return wordForPlaceName(engine::placeName(p)); }

nlohmann::json placeJson(std::optional<engine::Place> p) {
    return p ? nlohmann::json(std::string(engine::placeName(*p))) : nlohmann::json(nullptr);
}

BoardNames::BoardNames(const drivers::BoardLayout& layout) {
    for (drivers::PlaceIndex p = 0; p < layout.placeCount(); ++p)
        places_.emplace(layout.place(p), enginePlaceNamed(layout.place(p).name));
    for (drivers::ReaderIndex r = 0; r < layout.readerCount(); ++r)
        readers_.emplace(layout.reader(r), places_.at(layout.place(layout.placeOf(r))));
}

engine::Place BoardNames::place(const drivers::PlaceName& name) const {
    auto it = places_.find(name);
    return it == places_.end() ? engine::Place::Unknown : it->second;
}

std::optional<engine::Place> BoardNames::placeOfReader(const drivers::ReaderId& reader) const {
    auto it = readers_.find(reader);
    if (it == readers_.end()) return std::nullopt;
    return it->second;
}

void BoardNames::useRoster(const engine::Roster& roster) {
    characters_.clear();
    for (int i = 0; i < roster.size(); ++i) {
        const engine::CharacterId c{static_cast<std::uint8_t>(i)};
        characters_.emplace(drivers::CharacterSlug{roster[c].id}, c);
    }
}

engine::CharacterId BoardNames::character(const drivers::CharacterSlug& slug) const {
    auto it = characters_.find(slug);
    return it == characters_.end() ? engine::CharacterId{} : it->second;
}

}  // namespace vivaref::referee
