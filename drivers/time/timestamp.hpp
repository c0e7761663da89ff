// Time as every part of the drivers and everything above them carries it:
// milliseconds on the caller's clock (for `vivaref simulate`, since the
// trace's start). A house basic, apart from any one driver: the readers'
// pipeline, the GPIO lines, the buttons and the LEDs all stamp with it, and
// none of them reads a clock itself (loop_clock.hpp is the clock).
#pragma once

#include <chrono>

namespace vivaref::drivers {

using Timestamp = std::chrono::milliseconds;

}  // namespace vivaref::drivers
