// The strengths a bot seat can have (REFEREE-NOTES.md, "Bots"): the host
// names one when starting a game (the host's page, `vivaref new --bot`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::referee {

// What a bot plays with. "casual": the rule-based player; "good" and
// "strong": the search player with a fixed number of iterations (a fixed
// budget, not a time: the same game on a faster machine is the same game).
struct BotStrength {
    std::string_view name;
    std::string_view player;      // "heuristic" or "search"
    std::int64_t iterations = 0;  // search only
};
std::optional<BotStrength> botStrength(std::string_view name);
// "casual, good, strong", for messages.
std::string botStrengthNames();

}  // namespace vivaref::referee
