// Reads a castle configuration file into a CastleConfig. The file is INI:
// [castle], [daemon], [store], [sensing], [buttons], [leds], one
// [reader.NAME] per reader and one [station.SEAT] per vote station; the
// shipped examples (daemon/config/examples/) explain every key. Every
// unknown section or key, key given twice and bad value is a problem naming
// its line; what needs the whole castle (pins used twice, places without a
// reader...) is config_check's.
#pragma once

#include <string>
#include <string_view>

#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_problem.hpp"

namespace vivaref::config {

// Seats, and so vote stations, are numbered from 0; the 2024 edition seats up to 8.
inline constexpr int kMaxStations = 8;

CastleConfig readCastleConfig(std::string_view text, const std::string& fileName, ConfigProblems& problems);

}  // namespace vivaref::config
