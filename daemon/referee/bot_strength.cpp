// The strengths a bot seat can have.
#include "daemon/referee/bot_strength.hpp"

namespace vivaref::referee {

namespace {

// Fixed iteration budgets, so a game plays the same on any machine. On one
// x86 core here the search does about 110,000 iterations a second (a
// Raspberry Pi 4 core about a fifth of that): "good" thinks about 20 ms a
// decision, "strong" about 90 ms. Their strength against casual players is
// measured in engine/players/NOTES.md.
constexpr BotStrength kStrengths[] = {
    {"casual", "heuristic", 0},
    {"good", "search", 2'000},
    {"strong", "search", 10'000},
};

}  // namespace

std::optional<BotStrength> botStrength(std::string_view name) {
    for (const auto& s : kStrengths)
        if (s.name == name) return s;
    return std::nullopt;
}

std::string botStrengthNames() {
    std::string out;
    for (const auto& s : kStrengths) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

}  // namespace vivaref::referee
