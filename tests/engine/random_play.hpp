// Random play with invariants at every step (in the manner of OpenSpiel's
// RandomSimTest): one game from a seed, every chance and player decision
// drawn by engine::Rng, and after each action the checks of RULES §1-§7
// that must hold whatever the players do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules.hpp"

namespace vivaref::test {

struct PlayConfig {
    std::string name;
    engine::RulesSpec spec;  // `first` is drawn from the seed
};

// Every edition, seat count, option set and variant random play covers.
std::vector<PlayConfig> randomPlayConfigs();

struct GameStats {
    int actions = 0;
    int rounds = 0;
    int coronations = 0;
    int failedElections = 0;
    int passes = 0;
    int reshuffles = 0;
    int allPassRounds = 0;  // royal couple: every seat passed, one King only
};

// Plays one complete game; the first broken invariant as a sentence, or
// nothing. Safe to call from several threads at once.
std::optional<std::string> playCheckedGame(const engine::RulesSpec& spec, std::uint64_t seed,
                                           GameStats& stats);

}  // namespace vivaref::test
