// What the configuration tests share: a castle file's text checked under a
// fixed name, its problems as text, and the smallest valid castles to start from.
#pragma once

#include <string>
#include <vector>

#include "daemon/config/config_check.hpp"

namespace vivaref::config::testing {

inline ConfigCheck check(const std::string& text) { return checkCastleConfigText(text, "castle.ini"); }

inline std::vector<std::string> problemTexts(const std::string& text) {
    std::vector<std::string> out;
    for (const auto& p : check(text).problems) out.push_back(p.text());
    return out;
}

// One reader per place of the classic castle, each on its own spidev device
// and chip select.
inline std::string classicReaders() {
    std::string text;
    for (int place = 0; place <= 6; ++place) {
        text += "[reader.r" + std::to_string(place) + "]\nplace = " + std::to_string(place) +
                "\nbus = /dev/spidev" + std::to_string(place) + ".0\n";
    }
    return text;
}

}  // namespace vivaref::config::testing
