// Games brought to an interesting point by random play, then logged so a
// referee can resume them there: the quickest way to an election of the
// Jester, a seat with no legal move, a royal couple's second candidate.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

#include "daemon/store/game_store.hpp"
#include "engine/chance.hpp"
#include "engine/state.hpp"

namespace vivaref::referee::testing {

using Decision = engine::Decision;

struct BuiltGame {
    engine::RulesSpec spec;
    std::uint64_t seed = 0;
    std::vector<Decision> decisions;     // up to the point reached
    std::optional<engine::State> state;  // there
};

// Random play from `seed` until `stop(state)` holds before a decision;
// nullopt when the game ends first.
std::optional<BuiltGame> playUntil(const engine::RulesSpec& spec, std::uint64_t seed,
                                   const std::function<bool(const engine::State&)>& stop);
// The first of `tries` seeds from `firstSeed` that reaches such a point.
std::optional<BuiltGame> findGame(const engine::RulesSpec& spec,
                                  const std::function<bool(const engine::State&)>& stop, int tries = 300,
                                  std::uint64_t firstSeed = 1);

// As playUntil, but the players choose with `choose` (chance stays random).
using Chooser = std::function<engine::Action(const engine::State&, engine::Rng&)>;
std::optional<BuiltGame> playUntil(const engine::RulesSpec& spec, std::uint64_t seed,
                                   const std::function<bool(const engine::State&)>& stop,
                                   const Chooser& choose);

// Logs the game as a referee would have (setup, each decision), unfinished.
store::GameId logGame(store::GameStore& log, const BuiltGame& game);

}  // namespace vivaref::referee::testing
