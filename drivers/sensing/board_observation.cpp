#include "drivers/sensing/board_observation.hpp"

namespace vivaref::drivers {

const char* locationKindName(TagLocation::Kind kind) {
    switch (kind) {
        case TagLocation::Kind::Absent:
            return "absent";
        case TagLocation::Kind::OnPlace:
            return "on";
        case TagLocation::Kind::InHand:
            return "in hand";
        case TagLocation::Kind::Ambiguous:
            return "ambiguous";
    }
    return "?";
}

std::string describe(const TagLocation& location) {
    std::string text = locationKindName(location.kind);
    if (location.place)
        text += (location.kind == TagLocation::Kind::InHand ? " from " : " ") + location.place->name;
    for (std::size_t i = 0; i < location.candidates.size(); ++i) {
        text += (i == 0 ? " " : "|") + location.candidates[i].name;
    }
    return text;
}

std::string describe(const ObservationChange& change) {
    return change.character.name + ": " + describe(change.from) + " -> " + describe(change.to) + " (seen " +
           std::to_string(change.seenAt.count()) + " ms, stable " + std::to_string(change.stableAt.count()) +
           " ms)";
}

}  // namespace vivaref::drivers
