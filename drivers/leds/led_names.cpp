#include "drivers/leds/led_names.hpp"

#include <string>

namespace vivaref::drivers {

LedId placeLed(const PlaceName& place) { return LedId{"place-" + place.name}; }

LedId turnLed(StationId station) { return LedId{"turn-" + std::to_string(station.number)}; }

LedId stationLed(StationId station) { return LedId{"station-" + std::to_string(station.number)}; }

}  // namespace vivaref::drivers
