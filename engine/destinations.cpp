#include "engine/destinations.hpp"

namespace vivaref::engine {

std::vector<Place> legalDestinations(const State& state, CharacterId c) {
    std::vector<Place> out;
    if (c.index >= state.characterCount()) return out;
    const Place from = state.placeOf(c);
    if (state.phase() == Phase::Placement) {
        if (from != Place::Reserve) return out;
        for (int f = 1; f <= 4; ++f) {
            const Place to = floorPlace(f);
            if (state.countAt(to) < state.rules().floorLimit()) out.push_back(to);
        }
        return out;
    }
    if (state.phase() == Phase::Ascent) {
        const Place to = state.moveDestination(from);
        if (to != Place::Unknown) out.push_back(to);
    }
    return out;
}

}  // namespace vivaref::engine
