#include "drivers/sim/standing_spot.hpp"

namespace vivaref::drivers {

ReaderIndex standingSpot(const BoardLayout& layout, PlaceIndex place, std::span<const std::size_t> tagsOver) {
    auto held = [&](ReaderIndex reader) { return reader < tagsOver.size() ? tagsOver[reader] : 0; };
    const auto& readers = layout.readersOf(place);
    ReaderIndex spot = readers.front();
    for (const ReaderIndex reader : readers)
        if (held(reader) < held(spot)) spot = reader;
    return spot;
}

}  // namespace vivaref::drivers
