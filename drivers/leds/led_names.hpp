// The names of the table's own LEDs, spelled once: the referee decides
// them (daemon/referee/led_decision.hpp) and a castle's configuration wires
// them to lines (daemon/castle/real_castle.cpp). A place's LED is named by
// the place as the configuration names it; a seat's LEDs by its station
// (station s is seat s).
#pragma once

#include "drivers/buttons/button_source.hpp"
#include "drivers/leds/led_sink.hpp"
#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

// "place-3", "place-wc3": what happens at that place.
LedId placeLed(const PlaceName& place);
// "turn-2": that station's seat is to act.
LedId turnLed(StationId station);
// "station-2": that station's seat is to vote, or was refused there.
LedId stationLed(StationId station);

}  // namespace vivaref::drivers
