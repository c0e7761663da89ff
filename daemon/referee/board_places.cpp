#include "daemon/referee/board_places.hpp"

namespace vivaref::referee {

std::optional<std::string> boardPlace(engine::Place p) {
    using engine::Place;
    if (p == Place::Box || p == Place::Reserve || p == Place::Unknown) return std::nullopt;
    if (p == Place::BesideThrone) p = Place::Throne;
    return std::string(engine::placeName(p));
}

engine::Place enginePlace(std::string_view boardPlace) {
    using engine::Place;
    Place p = engine::parsePlace(boardPlace);
    if (p == Place::Box || p == Place::Reserve || p == Place::BesideThrone) return Place::Unknown;
    return p;
}

std::string placeWord(std::string_view place) {
    if (place.size() == 1 && place[0] >= '0' && place[0] <= '5') return "floor " + std::string(place);
    if (place == "6") return "the throne";
    if (place == "throne-side") return "beside the throne";
    if (place.starts_with("wc")) return "WC " + std::string(place.substr(2));
    if (place.starts_with("dungeon")) return "dungeon " + std::string(place.substr(7));
    if (place == "box") return "the box";
    if (place == "reserve") return "off the castle";
    return std::string(place);
}

std::string placeWord(engine::Place p) { return placeWord(engine::placeName(p)); }

std::string placeLedName(std::string_view boardPlace) { return "place-" + std::string(boardPlace); }

}  // namespace vivaref::referee
