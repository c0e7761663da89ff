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

std::string placeLedName(std::string_view boardPlace) { return "place-" + std::string(boardPlace); }

}  // namespace vivaref::referee
