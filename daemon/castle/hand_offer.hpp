// What a hand does on a castle that only the simulation has: the simulated
// castle's web page (sim.html) puts tags on places and lifts them, presses
// vote keys, and draws the board and the LEDs. A castle offers it under the
// name "hands" (castle.hpp, offer(); offerOf<HandOffer>(castle)): only the
// simulated castle does. The table core's sim routes act through it and
// know nothing else of the simulated castle; on any other castle they are
// closed.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "drivers/buttons/button_source.hpp"
#include "drivers/leds/led_sink.hpp"
#include "drivers/rfid/tag_uid.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::castle {

class HandOffer : public CastleOffer {
public:
    static constexpr std::string_view kName = "hands";

    // A put on no place of the castle's layout is false (and nothing moves);
    // the readers see a put or a lift on their next turns. A press is a key
    // pressed and released, debounced.
    [[nodiscard]] virtual bool put(const drivers::TagUid& tag, const drivers::PlaceName& place) = 0;
    // The same over one reader's spot, as the layout names it (a place with
    // several spots: the set-up asks for each); false for no such reader.
    [[nodiscard]] virtual bool putOver(const drivers::TagUid& tag, const drivers::ReaderId& reader) = 0;
    virtual void lift(const drivers::TagUid& tag) = 0;
    virtual void press(drivers::StationId station, drivers::VoteKey key) = 0;

    // The board as a hand sees it: the tags on each place that holds any, a
    // character's simulated tag by its slug (either edition's), any other by
    // its UID in hex; and the LEDs as last shown.
    struct View {
        drivers::LedStates leds;
        std::map<drivers::PlaceName, std::vector<std::string>> tags;
    };
    virtual View view() const = 0;
};

}  // namespace vivaref::castle
